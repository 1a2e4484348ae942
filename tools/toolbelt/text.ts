// slugify: URL- and file-name-safe identifiers from titles, Unicode-aware.
import { z } from 'zod';
import { numberInput } from '../../src/registry/number-input.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { cappedText, flag, PURE, TOOLBELT_BASE } from './common.js';

const SLUG_INPUT_BYTES = 64 * 1024;

/** Letters NFKD does not decompose into a base letter plus marks. */
const FOLD: Record<string, string> = {
  ß: 'ss', ẞ: 'SS', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', đ: 'd', Đ: 'D', ł: 'l', Ł: 'L',
  þ: 'th', Þ: 'TH', ð: 'd', Ð: 'D', ı: 'i', ħ: 'h', Ħ: 'H', ŋ: 'ng', Ŋ: 'NG',
};
const FOLD_RE = new RegExp(`[${Object.keys(FOLD).join('')}]`, 'g');

export interface SlugOptions {
  separator: string;
  lowercase: boolean;
  asciiOnly: boolean;
  maxLength?: number;
}

/**
 * NFKD splits "é" into "e" + U+0301; only marks on ASCII letters are dropped, so Cyrillic "й" or Devanagari
 * vowel signs survive (NFC puts them back together). Apostrophes vanish instead of splitting words.
 */
export function slugify(text: string, o: SlugOptions): string {
  let s = text.normalize('NFKD').replace(/([A-Za-z])[\u0300-\u036f]+/g, '$1').normalize('NFC');
  s = s.replace(FOLD_RE, (c) => FOLD[c]!).replace(/['’‘`]/g, '');
  if (o.lowercase) s = s.toLowerCase();
  const words = s.split(o.asciiOnly ? /[^A-Za-z0-9]+/ : /[^\p{L}\p{M}\p{N}]+/u).filter(Boolean);
  let slug = words.join(o.separator);
  if (o.maxLength !== undefined && slug.length > o.maxLength) {
    // Cut at a word boundary when one exists in the allowed length; never end on a separator.
    const cut = [...slug].slice(0, o.maxLength).join('');
    const boundary = o.separator ? cut.lastIndexOf(o.separator) : -1;
    const atWord = slug.startsWith(o.separator, cut.length);
    slug = atWord || boundary <= 0 ? cut : cut.slice(0, boundary);
    while (o.separator && slug.endsWith(o.separator)) slug = slug.slice(0, -o.separator.length);
  }
  return slug;
}

export const slugifyTool = defineTool({
  ...TOOLBELT_BASE,
  name: 'slugify',
  title: 'Slugify text',
  description:
    'Turns text into a URL/file-name slug: Unicode NFKD with diacritics stripped (Crème Brûlée → creme-brulee, ' +
    'ß → ss), apostrophes removed, every run of other characters collapsed into one separator, lowercase by ' +
    'default. Letters of other scripts are kept (Привет мир → привет-мир) unless ascii_only=true drops them. ' +
    'max_length cuts at a word boundary when it can. Returns {slug, length}; slug may be "" when nothing is left.',
  input: z.object({
    text: cappedText('The text to slugify (at most 64 KB).', SLUG_INPUT_BYTES),
    separator: z
      .enum(['-', '_', '.', '~', ''])
      .default('-')
      .describe('Joins words: "-" (default), "_", ".", "~" or "" (words run together).'),
    lowercase: flag(true, 'Lowercase the result. Default true.'),
    ascii_only: flag(false, 'Keep only a-z and 0-9 (after stripping diacritics); other scripts are dropped. Default false.'),
    max_length: numberInput(z.number().int().min(1).max(2048))
      .optional()
      .describe('Longest slug in characters (1–2048); longer slugs are cut, preferably at a separator.'),
  }),
  annotations: PURE,
  handler: (input) => {
    const slug = slugify(input.text, {
      separator: input.separator,
      lowercase: input.lowercase,
      asciiOnly: input.ascii_only,
      maxLength: input.max_length,
    });
    return { slug, length: [...slug].length };
  },
});
