// ansi_strip: removes ANSI/VT escape sequences (ECMA-48 syntax) from text, e.g. captured terminal output.
// A hand-written scanner rather than a regex: it counts what it removes and handles unterminated strings.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { CALCULATOR, codePointLength } from './common.js';

const MAX_BYTES = 1024 * 1024;

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;
const ST_C1 = 0x9c;

const within = (c: number, lo: number, hi: number): boolean => c >= lo && c <= hi;

/** End of a CSI body starting at j: parameter/intermediate bytes, then one final byte 0x40–0x7E. */
function csiEnd(s: string, j: number): number {
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if (within(c, 0x40, 0x7e)) return j + 1;
    if (!within(c, 0x20, 0x3f)) return j; // malformed: stop here and treat this character normally
    j++;
  }
  return s.length;
}

/**
 * End of a control string (OSC, DCS, SOS, PM, APC) starting at j. ST (ESC \ or 0x9C) ends it, BEL too for
 * OSC (xterm style); CAN/SUB cancel it; any other ESC aborts it and begins the next sequence, as terminals do.
 * Unterminated strings run to the end of the text, which a terminal would not have shown either.
 */
function stringEnd(s: string, j: number, belEnds: boolean): number {
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if ((belEnds && c === BEL) || c === ST_C1 || c === CAN || c === SUB) return j + 1;
    if (c === ESC) return s.charCodeAt(j + 1) === 0x5c ? j + 2 : j;
    j++;
  }
  return s.length;
}

/** SS2/SS3 select a character from G2/G3 for one following printable character, which goes with them. */
function singleShiftEnd(s: string, j: number): number {
  const cp = s.codePointAt(j);
  if (cp === undefined || cp < 0x20 || cp === 0x7f || within(cp, 0x80, 0x9f)) return j;
  return j + (cp > 0xffff ? 2 : 1);
}

/** Index just after the sequence that starts at i (an ESC or a C1 control). */
function sequenceEnd(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c !== ESC) {
    if (c === 0x9b) return csiEnd(s, i + 1);
    if (c === 0x9d) return stringEnd(s, i + 1, true);
    if (c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f) return stringEnd(s, i + 1, false);
    if (c === 0x8e || c === 0x8f) return singleShiftEnd(s, i + 1);
    return i + 1; // any other C1 control
  }
  if (i + 1 >= s.length) return i + 1;
  const d = s.charCodeAt(i + 1);
  if (d === 0x5b) return csiEnd(s, i + 2); // ESC [
  if (d === 0x5d) return stringEnd(s, i + 2, true); // ESC ]
  if (d === 0x50 || d === 0x58 || d === 0x5e || d === 0x5f) return stringEnd(s, i + 2, false); // ESC P X ^ _
  if (d === 0x4e || d === 0x4f) return singleShiftEnd(s, i + 2); // ESC N, ESC O
  if (within(d, 0x20, 0x2f)) {
    // nF sequences such as ESC ( B (charset) or ESC # 8: intermediates, then one final 0x30–0x7E.
    let j = i + 2;
    while (j < s.length && within(s.charCodeAt(j), 0x20, 0x2f)) j++;
    return j < s.length && within(s.charCodeAt(j), 0x30, 0x7e) ? j + 1 : j;
  }
  if (within(d, 0x30, 0x7e)) return i + 2; // Fp/Fe/Fs two-character sequences (ESC 7, ESC M, ESC c, ESC \ ...)
  return i + 1; // a stray ESC before text: drop the ESC only
}

export function stripAnsi(text: string): { text: string; removed: number } {
  const parts: string[] = [];
  let removed = 0;
  let keepFrom = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== ESC && !within(c, 0x80, 0x9f)) {
      i++;
      continue;
    }
    if (i > keepFrom) parts.push(text.slice(keepFrom, i));
    i = sequenceEnd(text, i);
    keepFrom = i;
    removed++;
  }
  parts.push(text.slice(keepFrom));
  return { text: parts.join(''), removed };
}

export const AnsiStripInput = z
  .object({
    text: z
      .string()
      .refine((t) => Buffer.byteLength(t, 'utf8') <= MAX_BYTES, { message: 'text must be at most 1 MiB (1048576 bytes) of UTF-8' })
      .describe('Text that may contain ANSI/VT escape sequences (at most 1 MiB as UTF-8).'),
  })
  .meta({
    examples: [
      { text: '\u001b[31mred\u001b[0m plain' },
      { text: '\u001b]8;;http://x\u0007link\u001b]8;;\u0007' },
      { text: '\u001b(B\u001b[1;32mOK\u001b[m\r\n' },
    ],
  });

export const ansiStrip = defineTool({
  name: 'ansi_strip',
  title: 'Strip ANSI escape sequences',
  ...CALCULATOR,
  description:
    'Removes ANSI/VT (ECMA-48) escape sequences from text: CSI (ESC [ … final byte, and 8-bit 0x9B), OSC ' +
    '(ESC ] or 0x9D … ended by BEL or ST = ESC \\ or 0x9C, e.g. hyperlinks and window titles), DCS/SOS/PM/APC ' +
    '(ESC P, ESC X, ESC ^, ESC _ or 0x90/0x98/0x9E/0x9F … ST), SS2/SS3 (ESC N / ESC O and the one character ' +
    'they shift), nF sequences such as ESC ( B, two-character ESC sequences (ESC 7, ESC M, ESC c …), stray ' +
    'ESC characters and stray C1 controls U+0080–U+009F. An unterminated control string is removed to the end ' +
    'of the text (a terminal would not show it either); CAN/SUB cancel one. Other C0 controls (\\n, \\r, \\t, ' +
    'BEL outside OSC, backspace) are kept. Result fields: `text` = the cleaned text; `removed` = number of ' +
    'sequences (and stray controls) removed; `original_length` and `length` = lengths of the input and the ' +
    'output in Unicode code points.',
  input: AnsiStripInput,
  handler: (input) => {
    const { text, removed } = stripAnsi(input.text);
    return { text, removed, original_length: codePointLength(input.text), length: codePointLength(text) };
  },
});
