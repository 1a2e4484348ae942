// The relevance of memory entries to a query, computed here rather than by the store's index, so that SQLite and
// PostgreSQL rank alike: the store finds candidates (entries holding a query word, and the neighbours of the best),
// this module scores them. Measured on LoCoMo (docs/decisions/memory.md, "Relevance search"):
//   * BM25F over the candidates: key 4, tags 2, namespace and text 1 (the weights the index always had), k1 0.9 and
//     b 0.4 (short entries), document frequencies counted over the candidates;
//   * coordination: a score is scaled by the share of the query's terms the entry holds, so an entry holding three
//     of them outranks one that holds the rarest alone;
//   * proximity: +25% for each place where two different query terms stand side by side (at most three);
//   * neighbours: an entry gains half the score of the entry just before it in its namespace and 0.3 of the one just
//     after (divided by the distance, two each side), as a turn of a conversation is understood with the turns
//     around it and an answer follows its question.
import { scanWords, type MatchMode, type QueryTerm } from './query-terms.js';
import type { Adjacency } from './store/neighbours.js';

export interface RankInput {
  id: number;
  namespace: string;
  key: string;
  /** JSON array of tags. */
  tags: string;
  /** The value's words (memory_words). */
  text: string;
}


const FIELD_WEIGHTS = { key: 4, tags: 2, namespace: 1, text: 1 } as const;
const FIELDS = Object.keys(FIELD_WEIGHTS) as (keyof typeof FIELD_WEIGHTS)[];
const K1 = 0.9;
const B = 0.4;
const PROXIMITY = 0.25;
const PROXIMITY_MAX = 3;
const BEFORE = 0.5;
const AFTER = 0.3;
/** How many entries on each side of a hit count as its neighbours. */
export const NEIGHBOUR_REACH = 2;

/** An entry's query terms counted once per search (its words are read once, whatever is scored with it). */
export interface Counted {
  id: number;
  /** Weighted occurrences of each query term. */
  tf: Float64Array;
  length: number;
  pairs: number;
}

export function countTerms(doc: RankInput, terms: readonly QueryTerm[]): Counted {
  const tf = new Float64Array(terms.length);
  let length = 0;
  let pairs = 0;
  for (const field of FIELDS) {
    const weight = FIELD_WEIGHTS[field];
    let last = -1;
    scanWords(doc[field], terms, (t) => {
      length++;
      if (t >= 0) {
        tf[t] += weight;
        if (last >= 0 && last !== t) pairs++;
      }
      last = t;
    });
  }
  return { id: doc.id, tf, length, pairs };
}

/** How many entries there are to weigh terms against, and how many of them hold each term. */
export interface TermStats {
  entries: number;
  holding: Float64Array;
}

/** The candidates' own statistics: their number, and how many hold each term. */
function statsOf(counted: readonly Counted[], terms: number): TermStats {
  const holding = new Float64Array(terms);
  for (const c of counted) for (let t = 0; t < terms; t++) if (c.tf[t] > 0) holding[t]++;
  return { entries: counted.length, holding };
}

const idfOf = (s: TermStats) => Array.from(s.holding, (d) => Math.log(1 + (s.entries - d + 0.5) / (d + 0.5)));

/**
 * Each candidate's own score (none when it holds no query term, or, with `all`, lacks one). Terms are weighed by
 * `stats` (every visible entry holding a query word, from the index), or else by the candidates themselves; lengths
 * are the candidates'. Taken in id order, so the same candidates always score the same.
 */
export function directScores(docs: readonly Counted[], terms: readonly QueryTerm[], mode: MatchMode, stats?: TermStats): Map<number, number> {
  const counted = [...docs].sort((a, b) => a.id - b.id);
  let total = 0;
  for (const c of counted) total += c.length;
  const avg = total / Math.max(1, counted.length);
  const idf = idfOf(stats ?? statsOf(counted, terms.length));
  const out = new Map<number, number>();
  for (const c of counted) {
    let s = 0;
    let held = 0;
    const norm = K1 * (1 - B + (B * c.length) / (avg || 1));
    for (let t = 0; t < terms.length; t++) {
      const tf = c.tf[t];
      if (tf === 0) continue;
      held++;
      s += (idf[t] * tf * (K1 + 1)) / (tf + norm);
    }
    if (held === 0 || (mode === 'all' && held < terms.length)) continue;
    s *= (held / terms.length) * (1 + PROXIMITY * Math.min(c.pairs, PROXIMITY_MAX));
    out.set(c.id, s);
  }
  return out;
}

/**
 * From which entries hold which terms (the index's answer, no words read), the `limit` worth reading: by the weight
 * of the terms each holds (idf), scaled by the share of the query's terms it holds, the newest first among equals;
 * and the statistics to weigh terms by. On LoCoMo, the hundred read this way rank as well as reading every match.
 */
export function preselect(holders: readonly { id: number; t: number }[], terms: number, limit: number): { ids: number[]; stats: TermStats } {
  const held = new Map<number, number>();
  const holding = new Float64Array(terms);
  for (const h of holders) {
    const mask = held.get(h.id) ?? 0;
    if (mask & (1 << h.t)) continue;
    held.set(h.id, mask | (1 << h.t));
    holding[h.t]++;
  }
  const stats = { entries: held.size, holding };
  const idf = idfOf(stats);
  const weight = (mask: number) => {
    let w = 0;
    let n = 0;
    for (let t = 0; t < terms; t++) if (mask & (1 << t)) (w += idf[t]), n++;
    return (w * n) / terms;
  };
  const ids = [...held]
    .map(([id, mask]) => ({ id, w: weight(mask) }))
    .sort((a, b) => b.w - a.w || b.id - a.id)
    .slice(0, limit)
    .map((x) => x.id);
  return { ids, stats };
}

/** Adds to each scored entry the scores of its known neighbours (entries in one window are known to each other). */
export function withNeighbours(direct: ReadonlyMap<number, number>, adjacency: readonly Adjacency[]): Map<number, number> {
  const windows = new Map<number, Map<number, number>>();
  for (const a of adjacency) {
    let w = windows.get(a.centre);
    if (!w) windows.set(a.centre, (w = new Map([[a.centre, 0]])));
    w.set(a.id, a.offset);
  }
  // Each entry's neighbours by relative position, from every window it is in.
  const around = new Map<number, Map<number, number>>();
  for (const w of windows.values()) {
    for (const [id, at] of w) {
      let mine = around.get(id);
      if (!mine) around.set(id, (mine = new Map()));
      for (const [other, o] of w) if (other !== id && Math.abs(o - at) <= NEIGHBOUR_REACH) mine.set(other, o - at);
    }
  }
  const out = new Map<number, number>();
  for (const [id, s] of direct) {
    let total = s;
    for (const [other, rel] of around.get(id) ?? []) total += ((rel < 0 ? BEFORE : AFTER) * (direct.get(other) ?? 0)) / Math.abs(rel);
    out.set(id, total);
  }
  return out;
}
