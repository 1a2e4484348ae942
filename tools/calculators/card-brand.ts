// card_brand: payment card brand (IIN ranges), length and Luhn check. The card number is sensitive: it is
// never logged, never echoed in results or errors (only a masked form), and errors cite positions only.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { CALCULATOR, invalidInput } from './common.js';

interface BrandRule {
  brand: string;
  name: string;
  /** Inclusive IIN prefix ranges; both ends have the same number of digits. */
  ranges: [string, string][];
  lengths: number[];
  luhnRequired: boolean;
}

const span = (lo: number, hi: number): number[] => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);

const RULES: BrandRule[] = [
  { brand: 'visa', name: 'Visa', ranges: [['4', '4']], lengths: [13, 16, 19], luhnRequired: true },
  {
    brand: 'mastercard',
    name: 'Mastercard',
    ranges: [['51', '55'], ['2221', '2720']],
    lengths: [16],
    luhnRequired: true,
  },
  { brand: 'american_express', name: 'American Express', ranges: [['34', '34'], ['37', '37']], lengths: [15], luhnRequired: true },
  {
    brand: 'discover',
    name: 'Discover',
    ranges: [['6011', '6011'], ['644', '649'], ['65', '65'], ['622126', '622925']],
    lengths: span(16, 19),
    luhnRequired: true,
  },
  { brand: 'jcb', name: 'JCB', ranges: [['3528', '3589']], lengths: span(16, 19), luhnRequired: true },
  {
    brand: 'diners_club',
    name: 'Diners Club',
    ranges: [['300', '305'], ['36', '36'], ['38', '39']],
    lengths: span(14, 19),
    luhnRequired: true,
  },
  // UnionPay issues some numbers that fail Luhn, so Luhn does not decide validity there.
  { brand: 'unionpay', name: 'UnionPay', ranges: [['62', '62']], lengths: span(16, 19), luhnRequired: false },
  {
    brand: 'maestro',
    name: 'Maestro',
    ranges: [['5018', '5018'], ['5020', '5020'], ['5038', '5038'], ['5893', '5893'], ['6304', '6304'], ['6759', '6759'], ['6761', '6763']],
    lengths: span(12, 19),
    luhnRequired: true,
  },
  { brand: 'mir', name: 'Mir', ranges: [['2200', '2204']], lengths: span(16, 19), luhnRequired: true },
];

/** The rule whose matching range has the longest prefix, so 622126 (Discover) beats 62 (UnionPay). */
export function detectBrand(digits: string): BrandRule | undefined {
  let best: BrandRule | undefined;
  let bestLen = 0;
  for (const rule of RULES) {
    for (const [lo, hi] of rule.ranges) {
      const p = digits.slice(0, lo.length);
      if (p.length === lo.length && p >= lo && p <= hi && lo.length > bestLen) {
        best = rule;
        bestLen = lo.length;
      }
    }
  }
  return best;
}

/** Luhn sum of `digits` where the rightmost digit is at position 1 (not doubled) when `withCheck`. */
function luhnSum(digits: string, withCheck: boolean): number {
  let sum = 0;
  for (let i = digits.length - 1, pos = withCheck ? 0 : 1; i >= 0; i--, pos++) {
    let d = digits.charCodeAt(i) - 48;
    if (pos % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum;
}

export const luhnValid = (digits: string): boolean => luhnSum(digits, true) % 10 === 0;

/** The digit that, appended to `payload`, makes it pass Luhn. */
export const luhnCheckDigit = (payload: string): string => String((10 - (luhnSum(payload, false) % 10)) % 10);

export function maskCard(digits: string): string {
  return digits.slice(0, 6) + '•'.repeat(Math.max(0, digits.length - 10)) + digits.slice(-4);
}

/** Digits of a card number; spaces and dashes are separators. Errors give a 1-based position, never content. */
export function cardDigits(raw: string): string {
  let digits = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c >= '0' && c <= '9') digits += c;
    else if (c !== ' ' && c !== '-') {
      throw invalidInput('number', `invalid character at position ${i + 1}: only digits, spaces and dashes are allowed`);
    }
  }
  if (digits.length < 12 || digits.length > 19) {
    throw invalidInput('number', `a card number has 12–19 digits; this one has ${digits.length}`);
  }
  return digits;
}

export function cardBrand(raw: string) {
  const digits = cardDigits(raw);
  const rule = detectBrand(digits);
  const luhn = luhnValid(digits);
  const lengthValid = rule ? rule.lengths.includes(digits.length) : false;
  return {
    brand: rule?.brand ?? 'unknown',
    brand_name: rule?.name ?? 'Unknown',
    length: digits.length,
    expected_lengths: rule?.lengths ?? [],
    length_valid: lengthValid,
    luhn_valid: luhn,
    luhn_required: rule?.luhnRequired ?? true,
    valid: rule !== undefined && lengthValid && (luhn || !rule.luhnRequired),
    check_digit: luhnCheckDigit(digits.slice(0, -1)),
    masked: maskCard(digits),
  };
}

export const CardBrandInput = z
  .object({
    number: z
      .string()
      .max(64)
      .describe('Card number (PAN): 12–19 digits, spaces and dashes allowed as separators. Never logged or echoed.'),
  })
  .meta({
    examples: [{ number: '4111 1111 1111 1111' }, { number: '3782-822463-10005' }, { number: '6200000000000005' }],
  });

export const cardBrandTool = defineTool({
  name: 'card_brand',
  title: 'Card brand and Luhn check',
  ...CALCULATOR,
  description:
    'Identifies a payment card brand from its IIN prefix and checks length and Luhn. Brands (prefix → lengths): ' +
    'visa (4 → 13/16/19), mastercard (51–55, 2221–2720 → 16), american_express (34, 37 → 15), discover (6011, ' +
    '644–649, 65, 622126–622925 → 16–19), jcb (3528–3589 → 16–19), diners_club (300–305, 36, 38–39 → 14–19), ' +
    'unionpay (62 → 16–19, Luhn not required), maestro (5018, 5020, 5038, 5893, 6304, 6759, 6761–6763 → 12–19), ' +
    'mir (2200–2204 → 16–19); the longest matching prefix wins. The number is never logged, stored or returned: ' +
    'results show it masked and errors cite character positions only. Input with other characters than digits, ' +
    'spaces and dashes, or with fewer than 12 or more than 19 digits, answers 422. Result fields: `brand` = id ' +
    'above or "unknown"; `brand_name` = display name; `length` = digit count; `expected_lengths` = valid lengths ' +
    'for the brand ([] if unknown); `length_valid`; `luhn_valid`; `luhn_required` = false only for unionpay; ' +
    '`valid` = brand known && length_valid && (luhn_valid || !luhn_required); `check_digit` = the Luhn check ' +
    'digit that the number without its last digit needs; `masked` = first 6 and last 4 digits, "•" in between.',
  input: CardBrandInput,
  handler: (input) => cardBrand(input.number),
});
