// Memory search (relevance by default, or every word), the cross-source /search with reciprocal rank fusion, and
// corpus counts. Another agent's private entries can never match: the rule is in the SQL.
import { z } from 'zod';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { numberInput } from '../../src/registry/number-input.js';
import { limitParam, MatchParam, OwnerHandle } from './limits.js';
import { runMemorySearch } from './ranked-search.js';
import { corpusStats } from './store/search.js';

const NamespaceFilter = z.string().max(64).optional().describe('Only this namespace (default all).');
/** The longest question memory_search takes. */
export const QUESTION_MAX = 500;
const Question = z
  .string()
  .max(QUESTION_MAX)
  .default('')
  .describe('What to find, in plain language or keywords: "When did Caroline go to the support group?" works as it is. word* matches a prefix.');
export const memorySearch = defineTool({
  name: 'memory_search',
  title: 'Search memory',
  toolset: 'memory',
  description:
    'Finds what you stored, asked in your own words: ranked by relevance (BM25 over keys, values and tags, stemmed, ' +
    'with phrase and neighbour boosts) over your own entries, entries shared with you, public entries and the ' +
    "scratchpad; never another agent's private entries. Each result has a snippet, its times (created_at, updated_at) " +
    'and, with neighbors=N, the N entries written before and after it in its namespace, to answer when and who. ' +
    'match=all keeps only entries holding every word. With an embeddings endpoint configured, results are fused with ' +
    'vector similarity.',
  input: z.object({
    q: Question,
    ns: NamespaceFilter,
    handle: OwnerHandle,
    limit: limitParam(100, 20),
    match: MatchParam,
    neighbors: numberInput(z.number().int().min(0).max(5)).default(0).describe('Entries to return on each side of each hit, in its namespace (0-5, default 0).'),
    order: z.enum(['time', 'key']).default('time').describe('What "beside" means for neighbors: time (when written, default) or key order.'),
  }),
  auth: 'optional_owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => ({
    q: input.q,
    match: input.match,
    results: await runMemorySearch(ctx, { q: input.q, namespace: input.ns, limit: input.limit, match: input.match, neighbors: input.neighbors, order: input.order }),
  }),
});

const RRF_K = 60;

export const unifiedSearch = defineTool({
  name: 'search',
  title: 'Search memory and the wall',
  toolset: 'memory',
  description:
    'Searches memory and the public wall, asked in plain language or keywords; returns per-source results and one ' +
    'merged list ranked by reciprocal rank fusion, each item tagged with source and acl_status (own, shared, public). ' +
    'Anonymous callers see public items only.',
  input: z.object({
    q: Question,
    handle: OwnerHandle,
    sources: z.enum(['both', 'memory', 'wall']).default('both').describe('both, memory or wall.'),
    limit: limitParam(50, 10),
    match: MatchParam,
  }),
  auth: 'optional_owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const memory =
      input.sources === 'wall' ? [] : await runMemorySearch(ctx, { q: input.q, limit: input.limit, match: input.match, neighbors: 0, order: 'time' });
    const wallTool = ctx.services.listTools().some((t) => t.name === 'wall_search');
    const wall =
      input.sources === 'memory' || !wallTool || !input.q.trim()
        ? []
        : (((await ctx.call('wall_search', { q: input.q, limit: input.limit, match: input.match })) as { results: Record<string, unknown>[] }).results ?? []).map((w) => ({
            ...w,
            source: 'wall' as const,
            acl_status: 'public' as const,
          }));
    const fused = new Map<string, { item: Record<string, unknown>; score: number }>();
    const add = (list: Record<string, unknown>[], idOf: (x: Record<string, unknown>) => string) =>
      list.forEach((item, i) => {
        const id = idOf(item);
        const prev = fused.get(id);
        fused.set(id, { item, score: (prev?.score ?? 0) + 1 / (RRF_K + i + 1) });
      });
    add(memory, (m) => `memory:${m.owner}/${m.namespace}/${m.key}`);
    add(wall, (w) => `wall:${w.post_id}`);
    const merged = [...fused.values()]
      .sort((a, b) => b.score - a.score)
      .slice(0, input.limit)
      .map(({ item, score }) => ({ ...item, rrf_score: Math.round(score * 1e5) / 1e5 }));
    return { q: input.q, sources: input.sources, memory, wall, merged };
  },
});

export const searchStats = defineTool({
  name: 'search_stats',
  title: 'Search corpus counts',
  toolset: 'memory',
  description: 'Counts only (no keys or values): memory rows (total/public/owned/facts/edges), wall posts, namespaces with ACL shares, embedded share.',
  input: z.object({}),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (_input, ctx) => {
    const s = await corpusStats(ctx.db);
    const wallPosts = ctx.services.listTools().some((t) => t.name === 'wall_count')
      ? ((await ctx.call('wall_count', {})) as { posts: number }).posts
      : 0;
    if (s.total === undefined) throw new GatewayError('internal_error');
    return {
      // The spec counts facts and graph edges among the memory rows; they are not repeated at the top.
      memory_rows: { total: s.total, public: s.public, owned: s.owned, facts: s.facts, edges: s.edges },
      wall_posts: wallPosts,
      namespaces_with_acl_shares: s.shared_namespaces,
      embedded: s.embedded,
      embedded_share: s.total ? Math.round((s.embedded / s.total) * 1000) / 1000 : 0,
    };
  },
});

export const searchTools = [memorySearch, unifiedSearch, searchStats];
