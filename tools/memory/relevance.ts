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
import type { Adjacency } from './store/search.js';

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

/**
 * Each candidate's own score (0 when it holds no query term, or, with `all`, lacks one). Frequencies and lengths
 * are the candidates' own, taken in id order, so the same candidates always score the same.
 */
export function directScores(docs: readonly Counted[], terms: readonly QueryTerm[], mode: MatchMode): Map<number, number> {
  const counted = [...docs].sort((a, b) => a.id - b.id);
  const n = counted.length;
  const df = new Float64Array(terms.length);
  let total = 0;
  for (const c of counted) {
    total += c.length;
    for (let t = 0; t < terms.length; t++) if (c.tf[t] > 0) df[t]++;
  }
  const avg = total / Math.max(1, n);
  const idf = Array.from(df, (d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
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
