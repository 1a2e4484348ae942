// Memory search as an agent asks it, in its own words: the store finds candidates (entries holding a query word,
// then the neighbours of the best of them), relevance.ts ranks them, an embeddings endpoint (when configured) fuses
// in entries close in meaning, and each hit can come with the entries around it. The visibility rule is in the SQL.
import type { ToolContext } from '../../src/registry/types.js';
import { queryTerms, type MatchMode } from './query-terms.js';
import { countTerms, directScores, NEIGHBOUR_REACH, withNeighbours } from './relevance.js';
import { semanticRerank } from './semantic.js';
import { iso } from './shape.js';
import { snippetter } from './snippet.js';
import { sharedWith } from './store/acl.js';
import { neighbourEntries, neighbourIds, searchCandidates, type Adjacency, type Candidate, type Neighbour, type NeighbourOrder, type SearchHit } from './store/search.js';

export interface MemorySearchOptions {
  q: string;
  namespace?: string;
  limit: number;
  match: MatchMode;
  /** Entries to return on each side of each hit (0: none). */
  neighbors: number;
  order: NeighbourOrder;
}

/** Candidates the index is asked for: enough that the ranking, not the index's order, decides the top. */
const poolSize = (limit: number) => Math.min(300, Math.max(100, 3 * limit));
/** The best candidates whose neighbours join the ranking. */
const CENTRES = 30;

const isEntry = (n: Adjacency): n is Neighbour => 'text' in n;

type AclStatus = 'own' | 'shared' | 'public';

function aclStatus(hit: { owner_id: string | null; visibility: string }, callerId: string | null): AclStatus {
  if (callerId && hit.owner_id === callerId) return 'own';
  if (hit.visibility === 'public' || hit.owner_id === null) return 'public';
  return 'shared';
}

const byScore = (score: ReadonlyMap<number, number>) => (a: Candidate, b: Candidate) =>
  (score.get(b.id) ?? 0) - (score.get(a.id) ?? 0) || b.updated_at - a.updated_at || (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

export async function runMemorySearch(ctx: ToolContext, o: MemorySearchOptions) {
  const terms = queryTerms(o.q, o.match);
  if (terms.length === 0) return [];
  const callerId = ctx.caller.agent?.id ?? null;
  const shared = callerId ? await sharedWith(ctx.db, callerId) : [];
  const sharedSet = new Set(shared.map((s) => `${s.owner_id}/${s.namespace}`));
  // The index already limited candidates to what the caller may see; this re-check is defence in depth.
  const open = (r: { owner_id: string | null; namespace: string }) => r.owner_id === null || r.owner_id === callerId || sharedSet.has(`${r.owner_id}/${r.namespace}`);
  const now = ctx.clock.now();
  const found = await searchCandidates(ctx.db, { terms, mode: o.match, callerId, shared, namespace: o.namespace || null, limit: poolSize(o.limit), now });
  const pool = found.rows.filter((r) => open(r) || r.visibility === 'public');
  const counted = new Map(pool.map((r) => [r.id, countTerms(r, terms)]));
  const first = directScores([...counted.values()], terms, o.match);
  const centres = pool
    .filter((r) => first.has(r.id))
    .sort(byScore(first))
    .slice(0, CENTRES)
    .map((r) => ({ id: r.id, open: open(r) }));
  const entries = new Map<number, Candidate>(pool.map((r) => [r.id, r]));
  const near = { centres, reach: NEIGHBOUR_REACH, order: 'time' as const, now };
  // When the candidates are every match, a neighbour outside them holds no query word: only where it is matters.
  const around: Adjacency[] = found.complete ? await neighbourIds(ctx.db, near) : await neighbourEntries(ctx.db, near);
  for (const n of around) {
    if (entries.has(n.id) || !isEntry(n)) continue;
    entries.set(n.id, n);
    counted.set(n.id, countTerms(n, terms));
  }
  const score = withNeighbours(directScores([...counted.values()], terms, o.match), around);
  const snippet = snippetter(terms.map((t) => t.word));
  const lexical: SearchHit[] = [...entries.values()]
    .filter((r) => score.has(r.id))
    .sort(byScore(score))
    .slice(0, o.limit)
    .map(({ text, ...r }) => ({ ...r, snippet: snippet(text), score: score.get(r.id)! }));
  const hits = await semanticRerank(ctx, o.q, lexical, { limit: o.limit, namespace: o.namespace || null });
  const context = o.neighbors > 0 ? await neighbourEntries(ctx.db, { centres: hits.map((h) => ({ id: h.id, open: open(h) })), reach: o.neighbors, order: o.order, now }) : [];
  return hits.map((h) => ({
    source: 'memory' as const,
    owner: h.owner,
    namespace: h.namespace,
    key: h.key,
    snippet: h.snippet,
    tags: JSON.parse(h.tags) as string[],
    score: Number(h.score.toPrecision(4)),
    acl_status: aclStatus(h, callerId),
    created_at: iso(h.created_at),
    updated_at: iso(h.updated_at),
    ...(o.neighbors > 0
      ? {
          neighbors: context
            .filter((n) => n.centre === h.id)
            .sort((a, b) => a.offset - b.offset)
            .map((n) => ({ offset: n.offset, key: n.key, snippet: snippet(n.text), tags: JSON.parse(n.tags) as string[], created_at: iso(n.created_at), updated_at: iso(n.updated_at) })),
        }
      : {}),
  }));
}
