// Full-text search over memory (BM25 with snippets), the cross-source /search with reciprocal rank fusion,
// and corpus counts. Another agent's private entries can never match: the rule is in the SQL.
import { z } from 'zod';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import { limitParam, OwnerHandle } from './limits.js';
import { ftsQuery, corpusStats, searchMemory, type SearchHit } from './store/search.js';
import { sharedWith } from './store/acl.js';
import { snippetter } from './snippet.js';
import { iso } from './shape.js';
import { semanticRerank } from './semantic.js';

const NamespaceFilter = z.string().max(64).optional().describe('Only this namespace (default all).');

function aclStatus(hit: SearchHit, callerId: string | null): 'own' | 'shared' | 'public' {
  if (callerId && hit.owner_id === callerId) return 'own';
  if (hit.visibility === 'public' || hit.owner_id === null) return 'public';
  return 'shared';
}

export async function runMemorySearch(ctx: ToolContext, q: string, namespace: string | undefined, limit: number) {
  const match = ftsQuery(q);
  if (!match) return [];
  const callerId = ctx.caller.agent?.id ?? null;
  const shared = callerId ? await sharedWith(ctx.db, callerId) : [];
  const rows = await searchMemory(ctx.db, { match, q, callerId, shared, namespace: namespace || null, limit, now: ctx.clock.now() });
  // The index already limited hits to what the caller may see; this re-check is defence in depth.
  const sharedSet = new Set(shared.map((s) => `${s.owner_id}/${s.namespace}`));
  const snippet = snippetter(q.match(/[\p{L}\p{N}_]+/gu) ?? []);
  const hits: SearchHit[] = rows
    .filter((r) => r.owner_id === null || r.owner_id === callerId || r.visibility === 'public' || sharedSet.has(`${r.owner_id}/${r.namespace}`))
    .map(({ text, ...r }) => ({ ...r, snippet: snippet(text) }));
  const ranked = await semanticRerank(ctx, q, hits, limit);
  return ranked.map((h) => ({
    source: 'memory' as const,
    owner: h.owner,
    namespace: h.namespace,
    key: h.key,
    snippet: h.snippet,
    tags: JSON.parse(h.tags) as string[],
    score: Number((-h.score).toPrecision(4)),
    acl_status: aclStatus(h, callerId),
    updated_at: iso(h.updated_at),
  }));
}

export const memorySearch = defineTool({
  name: 'memory_search',
  title: 'Search memory',
  toolset: 'memory',
  description:
    'Full-text search (BM25, with snippets) over keys, values and tags of your own entries, entries shared with you, ' +
    "public entries and the scratchpad. Never another agent's private entries. With an embeddings endpoint configured, " +
    'results are fused with vector similarity.',
  input: z.object({ q: z.string().max(500).default('').describe('Words to find.'), ns: NamespaceFilter, handle: OwnerHandle, limit: limitParam(100, 20) }),
  auth: 'optional_owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => ({ q: input.q, results: await runMemorySearch(ctx, input.q, input.ns, input.limit) }),
});

const RRF_K = 60;

export const unifiedSearch = defineTool({
  name: 'search',
  title: 'Search memory and the wall',
  toolset: 'memory',
  description:
    'Searches memory and the public wall; returns per-source results and one merged list ranked by reciprocal rank ' +
    'fusion, each item tagged with source and acl_status (own, shared, public). Anonymous callers see public items only.',
  input: z.object({
    q: z.string().max(500).default('').describe('Words to find.'),
    handle: OwnerHandle,
    sources: z.enum(['both', 'memory', 'wall']).default('both').describe('both, memory or wall.'),
    limit: limitParam(50, 10),
  }),
  auth: 'optional_owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const memory = input.sources === 'wall' ? [] : await runMemorySearch(ctx, input.q, undefined, input.limit);
    const wallTool = ctx.services.listTools().some((t) => t.name === 'wall_search');
    const wall =
      input.sources === 'memory' || !wallTool || !input.q.trim()
        ? []
        : (((await ctx.call('wall_search', { q: input.q, limit: input.limit })) as { results: Record<string, unknown>[] }).results ?? []).map((w) => ({
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
