// Passages: each source's Markdown cut into paragraph-sized pieces, each an exact slice of the source's text, and
// ranked against the question with BM25+ (minisearch), blended with embedding similarity when an embeddings
// endpoint is configured.
import type MiniSearch from 'minisearch';
import { embed } from '../../src/llm/openai-client.js';
import { sentenceSpans } from './sentences.js';

// minisearch loads with the first ranking (a research job), not at start-up.
let minisearch: Promise<typeof MiniSearch> | undefined;
const loadMiniSearch = (): Promise<typeof MiniSearch> => (minisearch ??= import('minisearch').then((m) => m.default));

/** A passage grows paragraph by paragraph until it has this many characters… */
export const PASSAGE_MIN_CHARS = 280;
/** …and never beyond this many (a longer paragraph is cut at sentence ends). */
export const PASSAGE_MAX_CHARS = 900;
/** Passages kept per source and in all (the rest of a very long page is not ranked). */
export const PASSAGES_PER_SOURCE = 200;
export const PASSAGES_MAX = 1000;
/** Passages handed to the answer (and cited), at most this many from one source while others have some. */
export const TOP_PASSAGES = 8;
export const TOP_PER_SOURCE = 3;
/** Passages embedded with the question, taken in BM25 order, when embeddings are on. */
export const EMBED_MAX = 256;
/** Weight of the embedding similarity in the blended score (the rest is BM25 over its best score). */
export const EMBEDDING_WEIGHT = 0.5;

export interface Passage {
  /** Index of the source (0-based, in the order sources were read). */
  source: number;
  /** The exact text, a slice of the source's Markdown. */
  text: string;
}

export interface Ranked extends Passage {
  score: number;
}

/** [start, end) of each block between blank lines. */
function blocks(md: string): [number, number][] {
  const out: [number, number][] = [];
  const sep = /\n[ \t]*\n/g;
  let start = 0;
  for (let m = sep.exec(md); m; m = sep.exec(md)) {
    if (m.index > start) out.push([start, m.index]);
    start = m.index + m[0].length;
  }
  if (start < md.length) out.push([start, md.length]);
  return out;
}

/**
 * Cuts [start, end) into pieces of at most `max` characters: at a sentence end (sentences.ts: never inside an
 * address, a URL or a number) or a table row's end past a third of the way, else at the last space, so that no
 * word is cut; only a single word longer than `max` is cut inside.
 */
function cut(md: string, start: number, end: number, max: number): [number, number][] {
  const out: [number, number][] = [];
  if (end - start <= max) return [[start, end]];
  const block = md.slice(start, end);
  const stops = new Set(sentenceSpans(block).map(([, e]) => start + e));
  for (const m of block.matchAll(/^[ \t]*\|.*\|[ \t]*\n/gm)) stops.add(start + m.index + m[0].length); // table rows
  const sorted = [...stops].sort((a, b) => a - b);
  let s = start;
  while (end - s > max) {
    let at = -1;
    for (const p of sorted) if (p >= s + max / 3 && p <= s + max) at = p;
    if (at < 0) {
      const space = md.slice(s, s + max).search(/\s\S*$/);
      at = space > 0 ? s + space + 1 : s + max;
    }
    out.push([s, at]);
    s = at;
  }
  if (s < end) out.push([s, end]);
  return out;
}

const WORD = /[\p{L}\p{N}]+/gu;
const words = (s: string): number => s.match(WORD)?.length ?? 0;

/** A block that is only links (a menu) or a lone image carries nothing to rank. */
const LINKS_ONLY = /^(\s*[-*+]?\s*!?\[[^\]]*\]\([^)]*\)\s*[|·,]?\s*)+$/;

/**
 * The passages of one source: paragraphs (blocks between blank lines) joined while the passage is short (so a
 * heading goes with the text under it), long ones cut at sentence ends. Every passage is a trimmed slice of `md`.
 */
export function splitPassages(md: string, source: number): Passage[] {
  // Pieces in order; null where a block was left out, so no passage spans it.
  const pieces: ([number, number] | null)[] = [];
  for (const [s, e] of blocks(md)) {
    if (LINKS_ONLY.test(md.slice(s, e))) pieces.push(null);
    else pieces.push(...cut(md, s, e, PASSAGE_MAX_CHARS));
  }
  const out: Passage[] = [];
  let cur: [number, number] | null = null;
  const flush = () => {
    if (!cur) return;
    const text = md.slice(cur[0], cur[1]).trim();
    if (words(text) >= 5 && out.length < PASSAGES_PER_SOURCE) out.push({ source, text });
    cur = null;
  };
  for (const piece of pieces) {
    if (!piece) {
      flush();
      continue;
    }
    const [s, e] = piece;
    if (cur && (cur[1] - cur[0] >= PASSAGE_MIN_CHARS || e - cur[0] > PASSAGE_MAX_CHARS)) flush();
    cur = cur ? [cur[0], e] : [s, e];
  }
  flush();
  return out;
}

const STOP = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its of on or ' +
    'so than that the their them then there these they this those to was were what when where which who whom whose why ' +
    'will with would you your about after also any before between both each more most other over such through under ' +
    'up very we our us me my he she his her him not no yes tell explain describe please'
  ).split(' '),
);

/** Lower case, no stop words, a light plural/possessive strip so "harbours" finds "harbour". */
export function processTerm(term: string): string | null {
  let t = term.toLowerCase();
  if (STOP.has(t)) return null;
  t = t.replace(/['’]s$/, '');
  if (t.length > 4 && t.endsWith('ies')) t = `${t.slice(0, -3)}y`;
  else if (t.length > 3 && t.endsWith('s') && !/(ss|us|is)$/.test(t)) t = t.slice(0, -1);
  return t || null;
}

export const queryTerms = (q: string): string[] => [...new Set((q.match(WORD) ?? []).map(processTerm).filter((t): t is string => t !== null))];

/** BM25+ scores of the passages for the question (0 for a passage sharing no term with it). */
export async function bm25(passages: Passage[], question: string): Promise<number[]> {
  const MiniSearch = await loadMiniSearch();
  const index = new MiniSearch<{ id: number; text: string }>({ fields: ['text'], idField: 'id', processTerm });
  index.addAll(passages.map((p, id) => ({ id, text: p.text })));
  const scores = new Array<number>(passages.length).fill(0);
  for (const r of index.search(question, { combineWith: 'OR' })) scores[r.id as number] = r.score;
  return scores;
}

const cosine = (a: number[], b: number[]): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
};

export interface RankOptions {
  embeddings?: { baseUrl: string; apiKey?: string; model: string };
}

export interface Ranking {
  top: Ranked[];
  method: 'bm25' | 'bm25+embeddings';
  /** Why the embeddings were not used although configured (their endpoint failed). */
  note?: string;
}

/**
 * The best passages for the question. BM25 alone, or with embeddings: the question and the best EMBED_MAX
 * passages by BM25 are embedded, and each score becomes (1 − w)·BM25/maxBM25 + w·max(0, cosine). At most
 * TOP_PER_SOURCE passages come from one source while other sources have any left. Passages that share nothing
 * with the question (score 0) are not kept; when none has a score, each source's first passage stands in.
 */
export async function rankPassages(passages: Passage[], question: string, opts: RankOptions = {}): Promise<Ranking> {
  const lexical = await bm25(passages, question);
  const maxLex = Math.max(0, ...lexical);
  let scores = lexical.map((s) => (maxLex > 0 ? s / maxLex : 0));
  let method: Ranking['method'] = 'bm25';
  let note: string | undefined;
  if (opts.embeddings && passages.length) {
    const order = [...passages.keys()].sort((a, b) => lexical[b]! - lexical[a]! || a - b).slice(0, EMBED_MAX);
    try {
      const vectors = await embed(opts.embeddings, [question, ...order.map((i) => passages[i]!.text)]);
      if (vectors.length !== order.length + 1) throw new Error('embeddings count mismatch');
      const blended = scores.map((s) => (1 - EMBEDDING_WEIGHT) * s);
      order.forEach((i, k) => (blended[i] = (1 - EMBEDDING_WEIGHT) * scores[i]! + EMBEDDING_WEIGHT * Math.max(0, cosine(vectors[0]!, vectors[k + 1]!))));
      scores = blended;
      method = 'bm25+embeddings';
    } catch {
      note = 'The embeddings endpoint failed; passages are ranked by BM25 alone.';
    }
  }
  const ranked = passages.map((p, i) => ({ ...p, score: scores[i]! })).filter((p) => p.score > 0);
  ranked.sort((a, b) => b.score - a.score);
  let top: Ranked[] = [];
  if (ranked.length) {
    const perSource = new Map<number, number>();
    const later: Ranked[] = [];
    for (const p of ranked) {
      if (top.length >= TOP_PASSAGES) break;
      const n = perSource.get(p.source) ?? 0;
      if (n >= TOP_PER_SOURCE) later.push(p);
      else {
        perSource.set(p.source, n + 1);
        top.push(p);
      }
    }
    // Fewer sources than it takes to fill the list: the best of the rest, whatever their source.
    for (const p of later) if (top.length < TOP_PASSAGES) top.push(p);
    top.sort((a, b) => b.score - a.score);
  } else {
    const firsts = new Map<number, Passage>();
    for (const p of passages) if (!firsts.has(p.source)) firsts.set(p.source, p);
    top = [...firsts.values()].slice(0, TOP_PASSAGES).map((p) => ({ ...p, score: 0 }));
  }
  return { top, method, ...(note ? { note } : {}) };
}
