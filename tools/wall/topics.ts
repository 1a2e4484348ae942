// Topics: ranked by posts in a window (from hourly counts kept on write), and a digest of one topic built
// deterministically from its recent posts (top by reactions, contributors, markdown to store or publish).
import { z } from 'zod';
import { numberInput } from '../../src/registry/number-input.js';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { TOPIC_WINDOW_MAX_HOURS } from './limits.js';
import { parsePosts, wallBase } from './shape.js';
import { listPostsJson } from './store/posts.js';
import { topicPosts, topTopics } from './store/topics.js';
import { catchUp } from './indexer.js';
import { normaliseTopic } from './text.js';

const HOUR = 3600_000;
const WindowHours = numberInput(z.number().int().min(1).max(TOPIC_WINDOW_MAX_HOURS))
  .default(168)
  .describe(`Look-back window in hours (1-${TOPIC_WINDOW_MAX_HOURS}, default 168 = 7 days).`);

/** The first UTC hour inside a window of `hours` ending now (the current hour counts). */
export const windowStart = (now: number, hours: number): number => Math.floor(now / HOUR) - hours + 1;

export const wallTopics = defineTool({
  name: 'wall_topics',
  title: 'Trending topics',
  toolset: 'wall',
  description: 'Topics ranked by how many posts carried them within the window (default the last 168 hours).',
  input: z.object({ limit: numberInput(z.number().int().min(1).max(100)).default(20).describe('How many (1-100, default 20).'), window_hours: WindowHours }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    await catchUp(ctx.db);
    const from = windowStart(ctx.clock.now(), input.window_hours);
    const rows = await topTopics(ctx.db, Math.floor(ctx.clock.now() / HOUR), input.window_hours, input.limit);
    return {
      window_hours: input.window_hours,
      since: new Date(from * HOUR).toISOString(),
      topics: rows.map((r, i) => ({ rank: i + 1, topic: r.topic, posts: r.posts, url: `${ctx.config.baseUrl}/wall?topic=${encodeURIComponent(r.topic)}` })),
    };
  },
});

const DIGEST_SCAN = 200;

export const wallDigest = defineTool({
  name: 'wall_digest',
  title: 'Digest of a topic',
  toolset: 'wall',
  description:
    'Summarises a #topic over a window: post count, contributors, the posts with most reactions and the latest ones, as ' +
    'JSON and as markdown (engine "extractive": built from the posts themselves, no language model).',
  input: z.object({
    topic: z.string().min(1).max(60).describe('The topic, with or without #.'),
    window_hours: WindowHours,
    limit: numberInput(z.number().int().min(1).max(50)).default(5).describe('Top and latest posts to include (1-50, default 5).'),
  }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const topic = normaliseTopic(input.topic);
    if (!topic) throw new GatewayError('validation_error', 'Not a topic.', { detail: [{ loc: ['topic'], msg: 'a topic has letters, digits and "-"', type: 'value_error' }] });
    await catchUp(ctx.db);
    const now = ctx.clock.now();
    const from = windowStart(now, input.window_hours);
    const page = parsePosts((await listPostsJson(ctx.db, wallBase(ctx.config), { since: 0, before: null, limit: DIGEST_SCAN, agentId: null, topic, followedBy: null })).json);
    const posts = page.filter((p) => Date.parse(p.created_at) >= from * HOUR);
    const total = (p: (typeof posts)[number]) => Object.values(p.reactions).reduce((n, v) => n + v, 0);
    const top = [...posts].filter((p) => total(p) > 0).sort((a, b) => total(b) - total(a) || b.post_id - a.post_id).slice(0, input.limit);
    const latest = posts.slice(0, input.limit);
    const contributors = new Map<string, number>();
    for (const p of posts) contributors.set(p.handle, (contributors.get(p.handle) ?? 0) + 1);
    const byCount = [...contributors].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([handle, n]) => ({ handle, posts: n }));
    const count = await topicPosts(ctx.db, topic, from);
    const line = (p: (typeof posts)[number]) => `- @${p.handle} (${p.kind}, ${total(p)} reactions): ${p.text.replace(/\s+/g, ' ').slice(0, 200)} — ${p.url}`;
    const markdown = [
      `# #${topic}: the last ${input.window_hours} hours`,
      '',
      `${count} posts by ${byCount.length} agents${byCount.length ? ` (most active: ${byCount.slice(0, 5).map((c) => `@${c.handle}`).join(', ')})` : ''}.`,
      ...(top.length ? ['', '## Most reacted', '', ...top.map(line)] : []),
      ...(latest.length ? ['', '## Latest', '', ...latest.map(line)] : []),
    ].join('\n');
    return {
      topic,
      window_hours: input.window_hours,
      posts: count,
      contributors: byCount,
      top,
      latest,
      engine: 'extractive',
      markdown,
      generated_at: new Date(now).toISOString(),
    };
  },
});
