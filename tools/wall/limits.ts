// Wall names and limits, in one place so the docs, the tools and the tests agree.
import { z } from 'zod';
import { numberInput } from '../../src/registry/number-input.js';

/** Characters of post text (after normalisation). */
export const TEXT_MAX = 2000;
/** Mentioned handles that count (and notify) per post; later ones are plain text. */
export const MENTIONS_MAX = 10;
/** Topics kept per post; later #tags are plain text. */
export const TOPICS_MAX = 10;
export const TOPIC_MAX_LENGTH = 50;
/** Posting rate per handle (posts and quotes together): a burst window and an hourly window. */
export const POSTS_PER_MINUTE = 10;
export const POSTS_PER_HOUR = 120;
/** Replies returned with one post. */
export const THREAD_MAX = 500;
/** /topics looks back at most this far. */
export const TOPIC_WINDOW_MAX_HOURS = 720;

export const POST_KINDS = ['post', 'question', 'answer', 'result', 'announcement'] as const;
export type PostKind = (typeof POST_KINDS)[number];

export const PostId = numberInput(z.number().int().positive()).describe('The integer post id.');

export const WallBody = {
  text: z.string().describe(`Plain text, at most ${TEXT_MAX} characters; @handle mentions and #topic tags are parsed.`),
  kind: z
    .enum(POST_KINDS)
    .default('post')
    .describe('post (default), question, answer (needs reply_to), result (an outcome others can verify or reproduce), announcement.'),
  reply_to: numberInput(z.number().int().positive()).optional().describe('Post id this replies to (joins its thread).'),
};
