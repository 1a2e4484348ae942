// base_convert: exact integer conversion between bases 2–36 with BigInt, with errors that point at the
// first bad character. The parser is shared with bitwise.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { CALCULATOR, codePointLength, invalidInput, showChar } from './common.js';

const MAX_CHARS = 10_000;
const PREFIX_BASE: Record<string, number> = { x: 16, b: 2, o: 8 };
const PREFIX_OF: Record<number, string> = { 16: '0x', 2: '0b', 8: '0o' };

/** 0–35 for 0-9 and a-z/A-Z, 99 for anything else. */
function digitValue(ch: string): number {
  const c = ch.charCodeAt(0);
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x7a) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x5a) return c - 0x41 + 10;
  return 99;
}

/** BigInt of validated lowercase digits; V8 parses bases 2/8/10/16 natively, others go in safe-size chunks. */
export function digitsToBigInt(digits: string, base: number): bigint {
  if (base === 10) return BigInt(digits);
  if (base in PREFIX_OF) return BigInt(PREFIX_OF[base] + digits);
  let chunk = 1;
  while (base ** (chunk + 1) <= Number.MAX_SAFE_INTEGER) chunk++;
  const big = BigInt(base);
  let acc = 0n;
  for (let i = 0; i < digits.length; i += chunk) {
    const part = digits.slice(i, i + chunk);
    acc = acc * big ** BigInt(part.length) + BigInt(parseInt(part, base));
  }
  return acc;
}

export interface ParsedInteger {
  value: bigint;
  negative: boolean;
}

/**
 * Parses `raw` as a signed integer in `base`: surrounding whitespace, one +/- sign, a 0x/0b/0o prefix that
 * matches the base and `_` separators are accepted. Errors name the first bad character and its 1-based
 * position in `raw`, reported on `field`.
 */
export function parseInteger(raw: string, base: number, field: string, baseName = 'base'): ParsedInteger {
  let start = 0;
  let end = raw.length;
  while (start < end && /\s/.test(raw[start])) start++;
  while (end > start && /\s/.test(raw[end - 1])) end--;
  if (start === end) throw invalidInput(field, `${field} is empty: expected an integer in base ${base}`);
  let pos = start;
  let negative = false;
  if (raw[pos] === '+' || raw[pos] === '-') {
    negative = raw[pos] === '-';
    pos++;
  }
  if (raw[pos] === '0' && pos + 1 < end) {
    const letter = raw[pos + 1].toLowerCase();
    const prefixBase = PREFIX_BASE[letter];
    if (prefixBase === base) pos += 2;
    else if (prefixBase !== undefined && digitValue(letter) >= base) {
      throw invalidInput(
        field,
        `prefix 0${raw[pos + 1]} at position ${codePointLength(raw.slice(0, pos)) + 1} is only accepted with ${baseName} ${prefixBase} (${baseName} is ${base})`,
      );
    }
  }
  let digits = '';
  for (let i = pos; i < end; i++) {
    const ch = raw[i];
    if (ch === '_') continue;
    if (digitValue(ch) >= base) {
      const cp = raw.codePointAt(i) ?? 0;
      throw invalidInput(
        field,
        `invalid digit ${showChar(String.fromCodePoint(cp))} at position ${codePointLength(raw.slice(0, i)) + 1} for base ${base}`,
      );
    }
    digits += ch.toLowerCase();
  }
  if (digits === '') throw invalidInput(field, `${field} has no digits: expected an integer in base ${base}`);
  const magnitude = digitsToBigInt(digits, base);
  const value = negative ? -magnitude : magnitude;
  return { value, negative: value < 0n };
}

/** Bits needed for |v| (0 for zero). */
export function bitLength(v: bigint): number {
  const a = v < 0n ? -v : v;
  return a === 0n ? 0 : a.toString(2).length;
}

export function convertBase(raw: string, fromBase: number, toBase: number, uppercase = false) {
  const { value, negative } = parseInteger(raw, fromBase, 'value', 'from_base');
  const abs = negative ? -value : value;
  const digits = abs.toString(toBase);
  return {
    value: (negative ? '-' : '') + (uppercase ? digits.toUpperCase() : digits),
    decimal: value.toString(10),
    from_base: fromBase,
    to_base: toBase,
    negative,
    bit_length: bitLength(value),
  };
}

const Base = z.number().int().min(2).max(36);

export const BaseConvertInput = z
  .object({
    value: z
      .string()
      .max(MAX_CHARS)
      .describe(
        'Integer written in from_base: optional +/- sign, optional 0x/0b/0o prefix (only when from_base is 16/2/8), ' +
          'case-insensitive digits, `_` separators and surrounding whitespace ignored; any size (at most 10000 characters).',
      ),
    from_base: Base.describe('Base of `value` (integer 2–36).'),
    to_base: Base.describe('Base to convert to (integer 2–36).'),
    uppercase: z.boolean().default(false).describe('Write digits above 9 as A–Z instead of a–z (default false).'),
  })
  .meta({
    examples: [
      { value: '0xFF', from_base: 16, to_base: 2 },
      { value: '-1_000_000', from_base: 10, to_base: 36, uppercase: true },
      { value: '123456789012345678901234567890', from_base: 10, to_base: 16 },
    ],
  });

export const baseConvert = defineTool({
  name: 'base_convert',
  title: 'Convert between number bases',
  ...CALCULATOR,
  description:
    'Converts an integer of any size between bases 2–36 exactly (BigInt). Accepts a sign, a 0x/0b/0o prefix ' +
    'matching from_base, `_` separators and surrounding whitespace; a digit outside from_base answers 422 naming ' +
    'the character and its 1-based position. Result fields: `value` = the number in to_base (leading "-" when ' +
    'negative, no prefix, lowercase unless uppercase=true); `decimal` = the number in base 10; `from_base`, ' +
    '`to_base` = the bases used; `negative` = true when the number is below zero ("-0" is zero, not negative); ' +
    '`bit_length` = bits needed for the absolute value (0 for zero).',
  input: BaseConvertInput,
  handler: (input) => convertBase(input.value, input.from_base, input.to_base, input.uppercase),
});
