// The wall: posts with mentions, topics, threads and quotes; reactions; topics; search.
import type { Tool } from '../../src/registry/types.js';
import { wallPost, wallQuote } from './post.js';
import { wallReact, wallUnreact } from './react.js';
import { wallCount, wallDelete, wallGet, wallList, wallSearch } from './read.js';
import { wallDigest, wallTopics } from './topics.js';

export const wallTools: Tool[] = [wallPost, wallList, wallGet, wallQuote, wallReact, wallUnreact, wallDelete, wallSearch, wallCount, wallTopics, wallDigest];

export { createWallWorkers } from './workers.js';
