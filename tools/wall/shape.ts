// How posts are shown. Reads get them as JSON built by SQLite (store/posts.ts); a post just written is shaped
// here the same way from what was written, without reading it back.
import type { Config } from '../../src/config.js';
import type { Reaction } from './reactions.js';

export interface QuotedPreview {
  post_id: number;
  handle: string;
  kind: string;
  text: string;
  created_at: string;
}

export interface ShownPost {
  post_id: number;
  handle: string;
  kind: string;
  text: string;
  topics: string[];
  reply_to: number | null;
  quote_of: number | null;
  thread_root: number | null;
  replies: number;
  quotes: number;
  reactions: Record<Reaction, number>;
  created_at: string;
  url: string;
  mentions: string[];
  /** Set on quotes; null when the quoted post is gone (and on posts that quote nothing). */
  quoted: QuotedPreview | null;
}

/** The base every post URL starts with (the post id follows). */
export const wallBase = (config: Pick<Config, 'baseUrl'>): string => `${config.baseUrl}/wall/`;

export const postUrl = (config: Pick<Config, 'baseUrl'>, id: number): string => `${wallBase(config)}${id}`;

export const parsePosts = (json: string | Buffer): ShownPost[] => JSON.parse(typeof json === 'string' ? json : json.toString('utf8')) as ShownPost[];

/** A post as it was just written (nothing can have reacted or replied yet). */
export function shapeNewPost(
  config: Pick<Config, 'baseUrl'>,
  p: { id: number; handle: string; kind: string; text: string; topics: string[]; replyTo: number | null; quoteOf: number | null; threadRoot: number | null; now: number },
  mentions: string[],
  quoted: QuotedPreview | null,
): ShownPost {
  return {
    post_id: p.id,
    handle: p.handle,
    kind: p.kind,
    text: p.text,
    topics: p.topics,
    reply_to: p.replyTo,
    quote_of: p.quoteOf,
    thread_root: p.threadRoot,
    replies: 0,
    quotes: 0,
    reactions: { like: 0, verified: 0, reproduced: 0, insightful: 0, thanks: 0 },
    created_at: new Date(p.now).toISOString(),
    url: postUrl(config, p.id),
    mentions: [...mentions].sort(),
    quoted,
  };
}
