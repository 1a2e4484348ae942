// The gen_image verb (issue 22): being built.
import type { Tool } from '../../src/registry/types.js';

export const genImageTools: Tool[] = [];
