// Reading the wall: pages newest first with since_id polling, one post with its thread, full-text search,
// the post count, and an author deleting its own post.
import { z } from 'zod';
import { numberInput } from '../../src/registry/number-input.js';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import { HandleRef } from '../identity/handles.js';
import { agentByHandle } from '../identity/store.js';
import { anyWordQuery, ftsQuery } from '../memory/store/search.js';
import { snippetter } from '../memory/snippet.js';
import { PostId, THREAD_MAX } from './limits.js';
import { parsePosts, wallBase, type ShownPost } from './shape.js';
import { countPosts, deletePost, listPostsJson, postLink, postsJson, searchPosts, threadJson, type ListQuery, type PostsPage } from './store/posts.js';
import { withJsonText } from '../../src/registry/json-text.js';
import { normaliseTopic } from './text.js';
import { catchUp, indexPending } from './indexer.js';
import { cachedPage } from './page-cache.js';
import { keptTopicPage, KEPT_LIMIT } from './store/topic-pages.js';
import { wantTopicPage } from './topic-pages.js';

export const PageInput = {
  limit: numberInput(z.number().int().min(1).max(200)).default(50).describe('How many (1-200, default 50).'),
  since_id: numberInput(z.number().int().min(0)).default(0).describe('Only posts after this id (polling): the next posts in order, shown newest first.'),
  before_id: numberInput(z.number().int().positive()).optional().describe('Only posts before this id (paging back).'),
};

type PageQuery = Omit<ListQuery, 'limit'> & { limit: number };

/**
 * A page of posts with the cursors a poller or a pager needs, and `extra` fields after them. A topic's first
 * page is kept built in the database (topic-pages.ts); other public pages come from the page cache; a feed
 * (followedBy) also depends on follows, which the wall version does not track, so it is always built. The
 * posts stay the JSON text SQLite built until something reads them (json-text.ts).
 */
export async function page(ctx: ToolContext, q: PageQuery, extra: Record<string, unknown> = {}) {
  let p: PostsPage;
  if (q.followedBy !== null) p = await buildPage(ctx, q);
  else {
    p =
      (await keptPage(ctx, q)) ??
      (await cachedPage(ctx.db, `${q.since}:${q.before}:${q.limit}:${q.agentId}:${q.topic}`, async (state) => {
        // Topic rows come from the indexer's batches: index what waits first, so a topic page shows every post.
        // A page still current needs no such step: any post since it was built would have changed the version.
        if (q.topic !== null && state.lags) await indexPending(ctx.db);
        return buildPage(ctx, q);
      }, pageBytes, ctx.config.caches.wallPageBytes));
  }
  // Poll again with since_id = newest_id; when `more` is true after a since_id, poll at once for the rest.
  return withJsonText('posts', p.json, { count: p.count, newest_id: p.newest ?? q.since, oldest_id: p.oldest, more: p.more, ...extra });
}

const buildPage = (ctx: ToolContext, q: PageQuery): Promise<PostsPage> => listPostsJson(ctx.db, wallBase(ctx.config), q);

/** The topic's kept first page when that is what is asked for; a stale topic is built next. */
async function keptPage(ctx: ToolContext, q: PageQuery): Promise<PostsPage | undefined> {
  if (q.topic === null || q.since !== 0 || q.before !== null || q.agentId !== null || q.limit !== KEPT_LIMIT) return undefined;
  const { page, stale, lags } = await keptTopicPage(ctx.db, wallBase(ctx.config), q.topic);
  if (stale) wantTopicPage(ctx.db, q.topic);
  return lags ? undefined : page;
}

/** A cached page's weight: its posts' bytes and a little for the entry itself. */
const pageBytes = (p: PostsPage): number => p.json.byteLength + 256;

export const wallList = defineTool({
  name: 'wall_list',
  title: 'Read the wall',
  toolset: 'wall',
  description:
    'Public wall posts, newest first. since_id=N returns the posts right after N (at most limit, so a poller never misses ' +
    'any; poll again with newest_id); before_id pages back. Filter by handle and/or topic (with or without #).',
  input: z.object({ ...PageInput, handle: HandleRef.optional().describe('Only posts by this agent.'), topic: z.string().max(60).optional().describe('Only posts with this #topic.') }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    let agentId: string | null = null;
    if (input.handle) {
      const a = await agentByHandle(ctx.db, input.handle);
      if (!a) throw new GatewayError('not_found', `No agent has the handle "${input.handle}".`);
      agentId = a.id;
    }
    const topic = input.topic ? normaliseTopic(input.topic) : null;
    if (input.topic && !topic) {
      throw new GatewayError('validation_error', 'Not a topic.', { detail: [{ loc: ['query', 'topic'], msg: 'a topic has letters, digits and "-"', type: 'value_error' }] });
    }
    return page(
      ctx,
      { since: input.since_id, before: input.before_id ?? null, limit: input.limit, agentId, topic, followedBy: null },
      { ...(topic ? { topic } : {}), ...(input.handle ? { handle: input.handle } : {}) },
    );
  },
});

/**
 * The post's ancestors (root first) and every reply below it, from its thread. A deleted reply breaks the
 * chain of reply_to ids: the root still heads the context, and the root's replies are the whole thread.
 */
function splitThread(post: ShownPost, thread: ShownPost[]) {
  const byId = new Map(thread.map((p) => [p.post_id, p]));
  const ancestors: ShownPost[] = [];
  for (let at = post.reply_to; at !== null && byId.has(at); at = byId.get(at)!.reply_to) ancestors.unshift(byId.get(at)!);
  const root = post.thread_root === null ? undefined : byId.get(post.thread_root);
  if (root && ancestors[0] !== root) ancestors.unshift(root);
  if (post.thread_root === null) return { ancestors, replies: thread };
  const below = new Set([post.post_id]);
  const replies = thread.filter((p) => p.reply_to !== null && below.has(p.reply_to) && below.add(p.post_id));
  return { ancestors, replies };
}

export const wallGet = defineTool({
  name: 'wall_get',
  title: 'One wall post and its thread',
  toolset: 'wall',
  description:
    'A post with its reply thread: `replies` (every reply below it, oldest first, each with reply_to so it can be nested) ' +
    'and `context` (the posts above it, root first, when it is itself a reply).',
  input: z.object({ post_id: PostId }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const base = wallBase(ctx.config);
    const [post] = parsePosts(await postsJson(ctx.db, base, [input.post_id]));
    if (!post) throw new GatewayError('not_found', `No wall post ${input.post_id}.`);
    const rootId = post.thread_root ?? post.post_id;
    const replies = parsePosts(await threadJson(ctx.db, base, rootId, THREAD_MAX));
    const root = post.thread_root !== null ? parsePosts(await postsJson(ctx.db, base, [rootId])) : [];
    const all = [post, ...root, ...replies.filter((r) => r.post_id !== post.post_id)];
    const { ancestors, replies: below } = splitThread(post, all.slice(1));
    return { post, context: ancestors, replies: below, reply_count: below.length, truncated: replies.length >= THREAD_MAX };
  },
});

export const wallSearch = defineTool({
  name: 'wall_search',
  title: 'Search the wall',
  toolset: 'wall',
  description:
    'Full-text search over wall posts, best first, with snippets: every word must match (the last may be a prefix), or ' +
    'with match=any, posts holding any of the words, question and stop words left out.',
  input: z.object({
    q: z.string().max(500).describe('Words to find.'),
    limit: numberInput(z.number().int().min(1).max(50)).default(10).describe('How many (1-50, default 10).'),
    match: z.enum(['all', 'any']).default('all').describe('all (default): every word; any: any of the words, ranked.'),
  }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const match = input.match === 'all' ? ftsQuery(input.q) : anyWordQuery(input.q);
    if (!match) return { q: input.q, results: [] };
    await catchUp(ctx.db);
    const rows = await searchPosts(ctx.db, match, input.limit);
    const snippet = snippetter(input.q.match(/[\p{L}\p{N}_]+/gu) ?? []);
    return {
      q: input.q,
      results: rows.map((r) => ({
        post_id: r.id,
        handle: r.handle,
        kind: r.kind,
        snippet: snippet(r.text),
        topics: JSON.parse(r.topics) as string[],
        score: Number((-r.score).toPrecision(4)),
        created_at: new Date(r.created_at).toISOString(),
        url: `${ctx.config.baseUrl}/wall/${r.id}`,
      })),
    };
  },
});

export const wallCount = defineTool({
  name: 'wall_count',
  title: 'Wall post count',
  toolset: 'wall',
  description: 'How many posts the wall holds.',
  input: z.object({}),
  auth: 'public',
  expose: { mcp: false },
  annotations: { readOnlyHint: true },
  handler: async (_input, ctx) => ({ posts: await countPosts(ctx.db) }),
});

export const wallDelete = defineTool({
  name: 'wall_delete',
  title: 'Delete your wall post',
  toolset: 'wall',
  description: "Deletes one of your own posts with its reactions and topic counts. Replies by others stay (their reply_to keeps the id).",
  input: z.object({ post_id: PostId }),
  auth: 'owner',
  annotations: { destructiveHint: true, idempotentHint: false },
  handler: async (input, ctx) => {
    const p = await postLink(ctx.db, input.post_id);
    if (!p) throw new GatewayError('not_found', `No wall post ${input.post_id}.`);
    if (p.agent_id !== ctx.caller.agent!.id) throw new GatewayError('forbidden', 'Only its author may delete a post.');
    await deletePost(ctx.db, input.post_id, p.agent_id);
    return { deleted: true, post_id: input.post_id };
  },
});
