// checksum_validate: IBAN (ISO 13616 mod-97) and ISBN-10/13 check digits, with the corrected form.
// Rule: input that cannot be of the type at all (wrong alphabet or impossible length) answers 422; input of
// the right shape that fails a check (country, length for the country, prefix, check digit) answers
// valid=false with a `reason`.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { CALCULATOR, invalidInput } from './common.js';

/** IBAN lengths per country, SWIFT IBAN registry (89 country codes). */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28, CH: 21,
  CR: 22, CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FK: 18, FO: 18,
  FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HN: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23,
  IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, LY: 25, MC: 27,
  MD: 24, ME: 22, MK: 19, MN: 20, MR: 27, MT: 31, MU: 30, NI: 28, NL: 18, NO: 15, OM: 23, PK: 24, PL: 28,
  PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, RU: 33, SA: 24, SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27,
  SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20, YE: 30,
};

/** ISO 7064 mod 97-10 of an alphanumeric string (letters count as 10–35), digit by digit. */
function mod97(s: string): number {
  let r = 0;
  for (const ch of s) {
    const v = ch >= 'A' ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    r = v >= 10 ? (r * 100 + v) % 97 : (r * 10 + v) % 97;
  }
  return r;
}

export function validateIban(raw: string) {
  const iban = raw.replace(/\s+/g, '').toUpperCase();
  const bad = /[^A-Z0-9]/.exec(iban);
  if (bad) throw invalidInput('value', `not an IBAN: only letters, digits and spaces are allowed (found '${bad[0]}')`);
  if (!/^[A-Z]{2}[0-9]{2}/.test(iban)) {
    throw invalidInput('value', 'not an IBAN: it must start with a two-letter country code and two check digits');
  }
  if (iban.length < 5 || iban.length > 34) {
    throw invalidInput('value', `not an IBAN: an IBAN has 5–34 characters, this one has ${iban.length}`);
  }
  const country = iban.slice(0, 2);
  const checkDigits = iban.slice(2, 4);
  const bban = iban.slice(4);
  const expectedLength = IBAN_LENGTHS[country] ?? null;
  const lengthValid = expectedLength === iban.length;
  const corrected = String(98 - mod97(bban + country + '00')).padStart(2, '0');
  // mod-97 also accepts 00, 01 and 99 as aliases of 97, 98 and 02; ISO 13616 allows only 02–98.
  const checksumValid = checkDigits === corrected;
  let reason: string | null = null;
  if (expectedLength === null) reason = `unknown IBAN country code ${country}`;
  else if (!lengthValid) reason = `an IBAN for ${country} has ${expectedLength} characters, this one has ${iban.length}`;
  else if (!checksumValid) reason = `check digits ${checkDigits} are wrong; ${corrected} would be correct`;
  return {
    type: 'iban' as const,
    valid: reason === null,
    reason,
    normalized: iban,
    country,
    length: iban.length,
    expected_length: expectedLength,
    length_valid: lengthValid,
    check_digits: checkDigits,
    checksum_valid: checksumValid,
    corrected_check_digits: corrected,
    formatted: iban.replace(/(.{4})(?=.)/g, '$1 '),
  };
}

const isbnCompact = (raw: string): string => raw.replace(/[\s-]+/g, '').toUpperCase();

function isbn10Check(first9: string): string {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (10 - i) * (first9.charCodeAt(i) - 48);
  const c = (11 - (sum % 11)) % 11;
  return c === 10 ? 'X' : String(c);
}

function isbn13Check(first12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * (first12.charCodeAt(i) - 48);
  return String((10 - (sum % 10)) % 10);
}

export function validateIsbn10(raw: string) {
  const s = isbnCompact(raw);
  if (!/^[0-9X]*$/.test(s)) throw invalidInput('value', 'not an ISBN-10: only digits, a final X, hyphens and spaces are allowed');
  if (s.length !== 10) throw invalidInput('value', `not an ISBN-10: expected 10 characters, found ${s.length}`);
  const x = s.indexOf('X');
  if (x >= 0 && x < 9) throw invalidInput('value', `not an ISBN-10: X may only be the check digit (last character), found at character ${x + 1}`);
  const first9 = s.slice(0, 9);
  const given = s[9];
  const expected = isbn10Check(first9);
  const payload13 = '978' + first9;
  return {
    type: 'isbn10' as const,
    valid: given === expected,
    reason: given === expected ? null : `check digit ${given} is wrong; ${expected} would be correct`,
    normalized: s,
    check_digit: given,
    expected_check_digit: expected,
    corrected: first9 + expected,
    isbn13: payload13 + isbn13Check(payload13),
  };
}

export function validateIsbn13(raw: string) {
  const s = isbnCompact(raw);
  if (!/^[0-9]*$/.test(s)) throw invalidInput('value', 'not an ISBN-13: only digits, hyphens and spaces are allowed');
  if (s.length !== 13) throw invalidInput('value', `not an ISBN-13: expected 13 digits, found ${s.length}`);
  const given = s[12];
  const expected = isbn13Check(s.slice(0, 12));
  const prefixValid = s.startsWith('978') || s.startsWith('979');
  let reason: string | null = null;
  if (!prefixValid) reason = `an ISBN-13 starts with 978 or 979, this one with ${s.slice(0, 3)}`;
  else if (given !== expected) reason = `check digit ${given} is wrong; ${expected} would be correct`;
  return {
    type: 'isbn13' as const,
    valid: reason === null,
    reason,
    normalized: s,
    prefix_valid: prefixValid,
    check_digit: given,
    expected_check_digit: expected,
    corrected: s.slice(0, 12) + expected,
  };
}

/** auto: two leading letters mean IBAN; otherwise 13 digits mean ISBN-13 and 10 characters ISBN-10. */
export function detectType(raw: string): 'iban' | 'isbn10' | 'isbn13' {
  if (/^\s*[A-Za-z]{2}/.test(raw)) return 'iban';
  const s = isbnCompact(raw);
  if (/^[0-9]{13}$/.test(s)) return 'isbn13';
  if (/^[0-9]{9}[0-9X]$/.test(s)) return 'isbn10';
  throw invalidInput('value', 'cannot detect the type: expected an IBAN, a 10-character ISBN-10 or a 13-digit ISBN-13');
}

export function validateChecksum(type: 'iban' | 'isbn10' | 'isbn13' | 'auto', value: string) {
  const t = type === 'auto' ? detectType(value) : type;
  if (t === 'iban') return validateIban(value);
  if (t === 'isbn10') return validateIsbn10(value);
  return validateIsbn13(value);
}

export const ChecksumInput = z
  .object({
    type: z
      .enum(['iban', 'isbn10', 'isbn13', 'auto'])
      .default('auto')
      .describe("What `value` is: 'iban', 'isbn10', 'isbn13', or 'auto' to detect it (default)."),
    value: z
      .string()
      .max(100)
      .describe('The identifier: IBAN with or without spaces (any case), or ISBN with or without hyphens/spaces.'),
  })
  .meta({
    examples: [
      { type: 'iban', value: 'GB82 WEST 1234 5698 7654 32' },
      { type: 'isbn10', value: '0-306-40615-2' },
      { type: 'auto', value: '978-0-306-40615-7' },
    ],
  });

export const checksumValidate = defineTool({
  name: 'checksum_validate',
  title: 'Validate IBAN / ISBN check digits',
  ...CALCULATOR,
  description:
    'Validates an IBAN (country length table of the SWIFT registry + ISO 7064 mod-97; the BBAN layout within ' +
    'the country is not checked) or an ISBN-10/ISBN-13 check digit, and says how to fix it. type=auto picks IBAN ' +
    'when the value starts with two letters, else ISBN-13 for 13 digits and ISBN-10 for 10 characters. Input that ' +
    'cannot be of the type at all answers 422: characters outside the alphabet (IBAN: letters, digits, spaces; ' +
    'ISBN: digits, X, hyphens, spaces), an X anywhere but last in an ISBN-10, an IBAN not starting with 2 letters + 2 digits or not 5–34 characters ' +
    'long, an ISBN-10 that is not 10 characters or an ISBN-13 that is not 13 digits, or auto finding no type. ' +
    'Input of the right shape that fails a check answers valid=false with `reason`. Result fields, all types: ' +
    '`type` (detected or given), `valid`, `reason` (null when valid), `normalized` (compact, uppercase). IBAN: ' +
    '`country`, `length`, `expected_length` (null for an unknown country), `length_valid`, `check_digits` ' +
    '(given), `checksum_valid`, `corrected_check_digits` (the two check digits that make the mod-97 check pass, ' +
    '02–98), `formatted` (groups of 4 separated by spaces). ISBN: `check_digit` (given), `expected_check_digit`, ' +
    '`corrected` (the number with the right check digit, no hyphens); ISBN-10 also `isbn13` (ISBN-13 of ' +
    '`corrected`); ISBN-13 also `prefix_valid` (starts with 978/979).',
  input: ChecksumInput,
  handler: (input) => validateChecksum(input.type, input.value),
});
