// How a memory query and an entry's text become terms, the same way for every store: words as FTS5's unicode61
// tokenizer splits them (letters and digits; diacritics removed; lower case), reduced by the Porter stemmer as
// SQLite's porter tokenizer does. The ranking (relevance.ts) compares these terms, so both stores rank alike.
import { stemmer } from 'stemmer';
import { STOP_WORDS } from './stop-words.js';

/** `any`: ranked by relevance, an entry needs one of the words. `all`: every word must be in the entry. */
export type MatchMode = 'any' | 'all';

export interface QueryTerm {
  /** The word folded: lower case, no diacritics (what the index is asked for). */
  word: string;
  /** The word as written, in lower case (NFKC). */
  written: string;
  /** Its stem (a prefix term too: it matches every word whose stem starts with it, as FTS5's prefix queries do). */
  stem: string;
  /** Written with a trailing `*`: matches every word that starts with it. */
  prefix: boolean;
  /**
   * A prefix that every word stemming to `stem` starts with (almost always: Porter changes only an ending), for
   * a store that cannot stem (PostgreSQL's 'simple' index) and for a quick check before stemming.
   */
  lead: string;
}

/** At most this many terms a query (as the all-words search always had). */
export const MAX_TERMS = 16;

const WORD = /[\p{L}\p{N}_]+\*?/gu;
const PART = /[\p{L}\p{N}]+/gu;

/** Lower case without diacritics, as FTS5's `remove_diacritics 2`. */
export const fold = (s: string): string => s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();

const stems = new Map<string, string>();
/** The Porter stem of a folded word; the last 20,000 are remembered (a vocabulary repeats). */
export function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    s = word.length < 3 || word.length > 64 ? word : stemmer(word);
    if (stems.size >= 20_000) stems.delete(stems.keys().next().value!);
    stems.set(word, s);
  }
  return s;
}

function leadOf(word: string, s: string): string {
  let n = 0;
  while (n < word.length && n < s.length && word[n] === s[n]) n++;
  let lead = word.slice(0, n);
  // Porter turns a final y into i and drops a final e ("happy" and "happiness" are happi, "hope" and "hoping" hope).
  if (lead.length > 3 && /[ie]$/.test(lead)) lead = lead.slice(0, -1);
  return lead.length >= Math.min(3, word.length) ? lead : word.slice(0, 3);
}

/**
 * The terms of a query. A word ending in `*` (two characters or more before it) is a prefix. With `any`, stop words
 * and question words are left out (all of them are kept when nothing else is left); `all` keeps every word. Words
 * joined by `_` count as their parts, as the index splits them.
 */
export function queryTerms(q: string, mode: MatchMode): QueryTerm[] {
  const out: QueryTerm[] = [];
  const seen = new Set<string>();
  for (const raw of q.normalize('NFKC').match(WORD) ?? []) {
    const isPrefix = raw.endsWith('*') && raw.length >= 3;
    const parts = raw.replace(/\*$/, '').toLowerCase().match(PART) ?? [];
    parts.forEach((written, i) => {
      const word = fold(written);
      const prefix = isPrefix && i === parts.length - 1;
      // FTS5 stems a prefix too ("happy*" finds what starts with "happi").
      const s = stem(word);
      const id = `${prefix ? '*' : ''}${s}`;
      if (seen.has(id) || !word) return;
      seen.add(id);
      out.push({ word, written, stem: s, prefix, lead: prefix ? word : leadOf(word, s) });
    });
  }
  const kept = mode === 'any' ? out.filter((t) => t.prefix || !STOP_WORDS.has(t.word)) : out;
  return (kept.length ? kept : out).slice(0, MAX_TERMS);
}

// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Calls `visit` with each word of `text` in order: the index of the query term it is, or -1. ASCII text (the common
 * case) is scanned character by character, and a word is cut out and stemmed only when its first letter is a term's
 * first letter; other text is folded and split as FTS5's unicode61 does.
 */
export function scanWords(text: string, terms: readonly QueryTerm[], visit: (term: number) => void): void {
  if (!ASCII.test(text)) {
    for (const w of fold(text).match(PART) ?? []) visit(termIndex(terms, w));
    return;
  }
  let firsts = 0;
  for (const t of terms) if (t.stem.charCodeAt(0) < 128) firsts |= 1 << (t.stem.charCodeAt(0) & 31);
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    const lower = c | 0x20;
    const inWord = (lower >= 97 && lower <= 122) || (c >= 48 && c <= 57);
    if (inWord) {
      if (start < 0) start = i;
      continue;
    }
    if (start < 0) continue;
    const first = text.charCodeAt(start) | 0x20;
    // A letter maps to its own bit (a-z: 1-26); a digit shares one with a letter, which only costs a full check.
    const maybe = (firsts & (1 << (first & 31))) !== 0;
    visit(maybe ? termIndex(terms, text.slice(start, i).toLowerCase()) : -1);
    start = -1;
  }
}

const mayStemTo = (word: string, t: QueryTerm): boolean =>
  t.lead.length >= 3 ? word.startsWith(t.lead) : word[0] === t.stem[0] && (t.stem.length < 2 || word[1] === t.stem[1]);

/** Which query term a folded word is, or -1. */
export function termIndex(terms: readonly QueryTerm[], word: string): number {
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i];
    // Porter changes only a word's ending: every form of a term's word starts with its lead (three letters or more),
    // and short stems keep the first two letters; both are checked before stemming.
    if (t.prefix ? word[0] === t.stem[0] && stem(word).startsWith(t.stem) : mayStemTo(word, t) && stem(word) === t.stem) return i;
  }
  return -1;
}
