// text_stats: lengths, words, sentences and a rough token estimate. Intl.Segmenter on Node 20 slows down with
// the length of the string it walks (quadratic overall: 200 KB took 50 s in a test), so text is measured in
// short pieces cut where a boundary is certain, and pure-ASCII pieces skip the segmenter where counting is exact.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { cappedText, PURE, TOOLBELT_BASE } from './common.js';

/** Segmenting 256 KB of emoji-and-accent text takes ~200 ms of CPU; 1 MB would block the server ~1 s. */
const MAX_STATS_BYTES = 256 * 1024;

// Made on first use: the three segmenters cost about 10 ms of ICU set-up, at start-up of every gateway otherwise.
const segmenters = new Map<Intl.SegmenterOptions['granularity'], Intl.Segmenter>();
function segmenter(granularity: 'grapheme' | 'word' | 'sentence'): Intl.Segmenter {
  let s = segmenters.get(granularity);
  if (!s) segmenters.set(granularity, (s = new Intl.Segmenter('en', { granularity })));
  return s;
}

const ASCII = /^[\x00-\x7f]*$/;
/** UAX #29 word rules restricted to ASCII: letters/digits/_ joined by ' . : between letters, , ; . ' between digits. */
const ASCII_WORD = /[A-Za-z0-9_]+(?:(?:(?<=[A-Za-z])[:.'](?=[A-Za-z])|(?<=\d)[,;.'](?=\d))[A-Za-z0-9_]+)*/g;
/** A character that may not start a piece: it would join the previous grapheme (marks, ZWJ, selectors) or CRLF. */
const JOINS_PREVIOUS = /^[\p{M}\u200d\ufe00-\ufe0f\n\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]/u;
/**
 * Characters that can make a grapheme of more than one code point: marks, joiners, selectors, skin tones,
 * tags, flags (regional indicators), Hangul jamo, prepend characters and CR. Without them, graphemes = code points.
 */
const MULTI_CODE_POINT =
  /[\p{M}\p{Regional_Indicator}\u200c\u200d\ufe00-\ufe0f\u{1f3fb}-\u{1f3ff}\u{e0000}-\u{e0fff}\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u0d4e\r]/u;

/**
 * Splits text into pieces of at most ~size characters, each ending right after whitespace (a boundary for
 * graphemes and words) — preferring the latest match of `prefer` (e.g. a line break, for sentences).
 */
function* pieces(text: string, size: number, prefer: RegExp): Generator<string> {
  let start = 0;
  while (text.length - start > size) {
    const window = text.slice(start, start + size);
    let cut = -1;
    for (const re of [prefer, /\s/g]) {
      for (const m of window.matchAll(re)) {
        const end = m.index + m[0].length;
        if (end < window.length && !JOINS_PREVIOUS.test(text.slice(start + end, start + end + 2))) cut = end;
      }
      if (cut > 0) break;
    }
    if (cut <= 0) {
      // No whitespace (e.g. CJK): back off so marks, ZWJ sequences and surrogate pairs stay whole.
      cut = size;
      const joins = (i: number) => {
        const c = text.charCodeAt(i);
        if (c >= 0xdc00 && c <= 0xdfff) return true; // inside a surrogate pair
        if (text.charCodeAt(i - 1) === 0x200d) return true; // after a zero-width joiner
        return JOINS_PREVIOUS.test(text.slice(i, i + 2));
      };
      while (cut > size / 2 && joins(start + cut)) cut--;
    }
    yield text.slice(start, start + cut);
    start += cut;
  }
  if (start < text.length) yield text.slice(start);
}

function count(seg: Intl.Segmenter, text: string, keep: (s: Intl.SegmentData) => boolean): number {
  let n = 0;
  for (const s of seg.segment(text)) if (keep(s)) n++;
  return n;
}

export interface TextCounts {
  graphemes: number;
  words: number;
  sentences: number;
}

function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff || i === 0 || text.charCodeAt(i - 1) < 0xd800 || text.charCodeAt(i - 1) > 0xdbff) n++;
  }
  return n;
}

export function segmentCounts(text: string): TextCounts {
  let graphemes = 0;
  let words = 0;
  for (const p of pieces(text, 512, /\n/g)) {
    if (ASCII.test(p)) {
      graphemes += p.length - (p.match(/\r\n/g)?.length ?? 0);
      words += p.match(ASCII_WORD)?.filter((w) => /[A-Za-z0-9]/.test(w)).length ?? 0; // ICU: "_" alone is no word
    } else {
      graphemes += MULTI_CODE_POINT.test(p) ? count(segmenter('grapheme'), p, () => true) : codePoints(p);
      words += count(segmenter('word'), p, (s) => s.isWordLike === true);
    }
  }
  let sentences = 0;
  for (const p of pieces(text, 2048, /\n|[.!?。！？]\s+/gu)) sentences += count(segmenter('sentence'), p, (s) => /\S/.test(s.segment));
  return { graphemes, words, sentences };
}

export const textStats = defineTool({
  ...TOOLBELT_BASE,
  name: 'text_stats',
  title: 'Text statistics',
  description:
    'Measures text: characters (Unicode code points), graphemes (user-perceived characters, so 👍🏽 is 1), ' +
    'utf16_units (JavaScript .length), bytes (UTF-8), words and sentences (Unicode UAX #29 segmentation, so ' +
    'CJK works; sentences are approximate in paragraphs longer than 2,000 characters), lines (1 + line ' +
    'breaks; 0 for empty text), paragraphs (blocks separated by blank lines), whitespace characters, ' +
    'estimated_tokens (a rough chars/4 heuristic for LLM budgets, not a real tokenizer) and reading_minutes ' +
    '(200 words per minute). Text is capped at 256 KB.',
  input: z.object({ text: cappedText('The text to measure (at most 256 KB of UTF-8).', MAX_STATS_BYTES) }),
  annotations: PURE,
  handler: (input) => {
    const t = input.text;
    const characters = codePoints(t);
    const { graphemes, words, sentences } = segmentCounts(t);
    return {
      characters,
      graphemes,
      utf16_units: t.length,
      bytes: Buffer.byteLength(t, 'utf8'),
      words,
      sentences,
      lines: t === '' ? 0 : (t.match(/\r\n|\r|\n/g)?.length ?? 0) + 1,
      paragraphs: t.split(/(?:\r?\n|\r)[ \t]*(?:\r?\n|\r)\s*/).filter((p) => /\S/.test(p)).length,
      whitespace: t.length - t.replace(/\s/g, '').length,
      estimated_tokens: Math.ceil(characters / 4),
      reading_minutes: Math.round((words / 200) * 10) / 10,
    };
  },
});
