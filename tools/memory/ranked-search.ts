// Memory search as an agent asks it, in its own words. The index says which visible entries hold which query terms;
// the most promising are read with their words and scored (relevance.ts), the best hits' neighbours in time join the
// ranking, an embeddings endpoint (when configured) fuses in entries close in meaning, and each hit can come with the
// entries around it. The visibility rule is in the SQL; the ranking is the same on every store.
import type { ToolContext } from '../../src/registry/types.js';
import { queryTerms, type MatchMode, type QueryTerm } from './query-terms.js';
import { countTerms, directScores, NEIGHBOUR_REACH, preselect, withNeighbours, type Counted, type TermStats } from './relevance.js';
import { semanticRerank } from './semantic.js';
import { iso } from './shape.js';
import { snippetter } from './snippet.js';
import { sharedWith } from './store/acl.js';
import { entriesByIds, idsHoldingAll, termHolders, type Scope } from './store/candidates.js';
import { entriesAndNeighbours, neighbourEntries, type Neighbour, type NeighbourOrder } from './store/neighbours.js';
import type { Candidate, SearchHit } from './store/search.js';

export interface MemorySearchOptions {
  q: string;
  namespace?: string;
  limit: number;
  match: MatchMode;
  /** Entries to return on each side of each hit (0: none). */
  neighbors: number;
  order: NeighbourOrder;
}

/** Entries read and scored: on LoCoMo, 30 rank as well as every match. */
const poolSize = (limit: number) => Math.min(300, Math.max(30, Math.ceil(1.5 * limit)));
/** The most promising of them, whose neighbours join the ranking (on LoCoMo, 15 did as well as 30). */
const CENTRES = 15;

type AclStatus = 'own' | 'shared' | 'public';

function aclStatus(hit: { owner_id: string | null; visibility: string }, callerId: string | null): AclStatus {
  if (callerId && hit.owner_id === callerId) return 'own';
  if (hit.visibility === 'public' || hit.owner_id === null) return 'public';
  return 'shared';
}

const byScore = (score: ReadonlyMap<number, number>) => (a: Candidate, b: Candidate) =>
  (score.get(b.id) ?? 0) - (score.get(a.id) ?? 0) || b.updated_at - a.updated_at || (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Which entries to read: any word, the most promising holders (and every holder, to weigh terms); every word, the newest. */
async function chooseEntries(ctx: ToolContext, terms: QueryTerm[], o: MemorySearchOptions, scope: Scope): Promise<{ ids: number[]; holders: Set<number>; stats?: TermStats }> {
  if (o.match === 'all') {
    const ids = (await idsHoldingAll(ctx.db, terms, scope, poolSize(o.limit))).map((r) => r.id);
    return { ids, holders: new Set(ids) };
  }
  const held = await termHolders(ctx.db, terms, scope);
  const chosen = preselect(held, terms.length, poolSize(o.limit));
  return { ids: chosen.ids, holders: new Set(held.map((h) => h.id)), stats: chosen.stats };
}

export async function runMemorySearch(ctx: ToolContext, o: MemorySearchOptions) {
  const terms = queryTerms(o.q, o.match);
  if (terms.length === 0) return [];
  const callerId = ctx.caller.agent?.id ?? null;
  const shared = callerId ? await sharedWith(ctx.db, callerId) : [];
  const sharedSet = new Set(shared.map((s) => `${s.owner_id}/${s.namespace}`));
  // The index already limited entries to what the caller may see; this re-check is defence in depth.
  const visible = (r: Candidate) => r.owner_id === null || r.owner_id === callerId || r.visibility === 'public' || sharedSet.has(`${r.owner_id}/${r.namespace}`);
  const now = ctx.clock.now();
  const { ids, holders, stats } = await chooseEntries(ctx, terms, o, { callerId, shared, namespace: o.namespace || null });
  // The entries read, and where the neighbours in time of the most promising are.
  const { entries: pool, adjacency } = await entriesAndNeighbours(ctx.db, { ids, centres: ids.slice(0, CENTRES), callerId, reach: NEIGHBOUR_REACH, order: 'time', now });
  const entries = new Map<number, Candidate>();
  const counted = new Map<number, Counted>();
  const add = (rows: Candidate[]) => {
    for (const r of rows) if (visible(r) && !entries.has(r.id)) entries.set(r.id, r), counted.set(r.id, countTerms(r, terms));
  };
  add(pool);
  // A neighbour that holds a query word but was not among those read is read now (its score counts for the hit).
  add(await entriesByIds(ctx.db, [...new Set(adjacency.map((n) => n.id))].filter((id) => holders.has(id) && !entries.has(id)), now));
  const score = withNeighbours(directScores([...counted.values()], terms, o.match, stats), adjacency);
  const snippet = snippetter(terms.map((t) => t.word));
  const lexical: SearchHit[] = [...entries.values()]
    .filter((r) => score.has(r.id))
    .sort(byScore(score))
    .slice(0, o.limit)
    .map(({ text, ...r }) => ({ ...r, snippet: snippet(text), score: score.get(r.id)! }));
  const hits = await semanticRerank(ctx, o.q, lexical, { limit: o.limit, namespace: o.namespace || null });
  const around = o.neighbors > 0 ? await neighbourEntries(ctx.db, { ids: hits.map((h) => h.id), callerId, reach: o.neighbors, order: o.order, now }) : null;
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
    ...(around ? { neighbors: neighboursOf(h.id, around, snippet) } : {}),
  }));
}

/** A hit's neighbours as returned: nearest before first, each with its offset, key, snippet and times. */
const neighboursOf = (id: number, around: Neighbour[], snippet: (text: string) => string) =>
  around
    .filter((n) => n.centre === id)
    .sort((a, b) => a.offset - b.offset)
    .map((n) => ({ offset: n.offset, key: n.key, snippet: snippet(n.text), tags: JSON.parse(n.tags) as string[], created_at: iso(n.created_at), updated_at: iso(n.updated_at) }));
