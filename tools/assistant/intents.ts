// Plain language → a calculator call, when a request clearly asks for one: "convert 255 to base 2", "is this
// IBAN valid: …", "10 business days after 2026-12-20 in DE". Pattern rules, tried in a fixed order, so the
// same text always gives the same call; anything unclear is left to retrieval instead of guessed.
import { countryCodesByName } from '../calculators/business-days.js';

export interface Intent {
  tool: string;
  arguments: Record<string, unknown>;
}

type Parser = (q: string, lower: string) => Intent | null;

// ---- ANSI escapes -------------------------------------------------------------------------------------

const ESC = /[\u001b\u009b]/;

const ansi: Parser = (q, lower) => {
  const asks = /\b(strip|remove|clean|drop|delete)\b/.test(lower) && /\b(ansi|escape|colou?r)/.test(lower);
  if (!asks && !ESC.test(q)) return null;
  if (!asks) return { tool: 'ansi_strip', arguments: { text: q } };
  const colon = q.indexOf(':');
  if (colon >= 0) return { tool: 'ansi_strip', arguments: { text: q.slice(colon + 1).replace(/^ /, '') } };
  const from = /\b(?:from|in|of)\s/i.exec(q.slice(q.search(/ansi|escape|colou?r/i)));
  if (!from) return ESC.test(q) ? { tool: 'ansi_strip', arguments: { text: q.slice(q.search(ESC)) } } : null;
  return { tool: 'ansi_strip', arguments: { text: q.slice(q.search(/ansi|escape|colou?r/i) + from.index + from[0].length) } };
};

// ---- IBAN / ISBN ---------------------------------------------------------------------------------------

const checksum: Parser = (q, lower) => {
  if (/\biban\b/.test(lower)) {
    // Groups of four after the country and check digits, as IBANs are written (compact works too).
    const m = /\b([a-z]{2}\d{2}(?:\s?[a-z0-9]{4})*(?:\s?[a-z0-9]{1,4})?)\b/i.exec(q.replace(/\biban\b/gi, ' '));
    return m ? { tool: 'checksum_validate', arguments: { type: 'iban', value: m[1] } } : null;
  }
  const kw = /\bisbn(?:[- ]?(1[03]))?\b/.exec(lower);
  if (!kw) return null;
  const m = /(?<![\dx])(97[89](?:[- ]?\d){10}|\d(?:[- ]?\d){8}[- ]?[\dx])(?![\dx])/i.exec(q);
  if (!m) return null;
  const digits = m[1].replace(/[- ]/g, '');
  const type = kw[1] === '13' || digits.length === 13 ? 'isbn13' : kw[1] === '10' || digits.length === 10 ? 'isbn10' : 'auto';
  return { tool: 'checksum_validate', arguments: { type, value: m[1] } };
};

// ---- Card numbers ---------------------------------------------------------------------------------------

const card: Parser = (q, lower) => {
  if (!/\b(cards?|visa|mastercard|amex|american express|discover|jcb|maestro|unionpay|diners|credit|debit|pan|luhn)\b/.test(lower)) return null;
  const m = /(?<![\d])(\d(?:[ -]?\d){11,18})(?![\d])/.exec(q);
  return m ? { tool: 'card_brand', arguments: { number: m[1] } } : null;
};

// ---- Business days ---------------------------------------------------------------------------------------

/** Country names from date-holidays: loaded by prepareIntent for the first question that names a place. */
let countryNames: Map<string, string> | undefined;
const NAMED_PLACE = /\bin\s+(?:the\s+)?([A-Za-z][A-Za-z .'-]{2,45}?)\s*(?:[?.!,;]|$)/;
const DAYS_WORD = String.raw`(?:business|working|work|week)[\s-]?days?`;
const DAYS = new RegExp(`\\b${DAYS_WORD}\\b`, 'i');

/**
 * Loads what detectIntent needs for this question and is too large to load at start-up: date-holidays (a
 * fifth of a second) for a business-days question that names a country.
 */
export async function prepareIntent(q: string): Promise<void> {
  if (countryNames || !NAMED_PLACE.test(q) || !DAYS.test(q)) return;
  countryNames = await countryCodesByName();
}

/** Country code named in the text: "in DE", "in DE-BY" (subdivision), or "in Germany". */
function regionOf(q: string): { country?: string; subdivision?: string } {
  const code = /\bin\s+([A-Z]{2})(?:[-_]([A-Z0-9]{1,3}))?\b/.exec(q);
  if (code) return { country: code[1], ...(code[2] ? { subdivision: code[2] } : {}) };
  const named = NAMED_PLACE.exec(q);
  if (!named) return {};
  const name = named[1].toLowerCase();
  const aliases: Record<string, string> = { usa: 'US', 'the us': 'US', 'united states': 'US', uk: 'GB', england: 'GB', 'great britain': 'GB' };
  const c = aliases[name] ?? countryNames?.get(name);
  return c ? { country: c } : {};
}

const ISO = String.raw`(\d{4}-\d{2}-\d{2})`;
const DAYS_RELATIVE = new RegExp(`(-?\\d{1,6})\\s+${DAYS_WORD}\\s+(after|from|since|later than|before|prior to|earlier than)\\s+${ISO}`, 'i');
const DAYS_ADDED = new RegExp(`\\b(add|subtract)\\s+(\\d{1,6})\\s+${DAYS_WORD}\\s+(?:to|from)\\s+${ISO}`, 'i');

const businessDays: Parser = (q, lower) => {
  if (!DAYS.test(lower)) return null;
  const dates = [...q.matchAll(/\b(\d{4}-\d{2}-\d{2})\b/g)].map((m) => m[1]);
  if (dates.length === 0) return null;
  const region = regionOf(q);
  const rel = DAYS_RELATIVE.exec(q);
  const addTo = DAYS_ADDED.exec(q);
  if (rel) {
    const back = /^(before|prior to|earlier than)$/i.test(rel[2]);
    return { tool: 'business_days', arguments: { mode: 'add', start: rel[3], days: Number(rel[1]) * (back ? -1 : 1), ...region } };
  }
  if (addTo) {
    const back = addTo[1].toLowerCase() === 'subtract';
    return { tool: 'business_days', arguments: { mode: 'add', start: addTo[3], days: Number(addTo[2]) * (back ? -1 : 1), ...region } };
  }
  if (dates.length >= 2) return { tool: 'business_days', arguments: { mode: 'count', start: dates[0], end: dates[1], ...region } };
  return null;
};

// ---- Rate limits ------------------------------------------------------------------------------------------

const UNIT_SECONDS: Record<string, number> = { s: 1, sec: 1, second: 1, m: 60, min: 60, minute: 60, h: 3600, hr: 3600, hour: 3600, d: 86400, day: 86400 };

const rateLimit: Parser = (_q, lower) => {
  const lim = /(\d[\d,_]*)\s*(requests?|calls?|reqs?|hits?|messages?|queries)?\s*(?:\/|\b(?:per|every|an?|each)\b)\s*(\d+(?:\.\d+)?\s*)?(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|s|m|h|d)\b/.exec(lower);
  if (!lim || (!lim[2] && !/\brate[\s-]?limit|\bquota\b|\bthrottl/.test(lower))) return null;
  const unit = lim[4].replace(/s$/, '') || lim[4];
  const window = (lim[3] ? Number(lim[3]) : 1) * (UNIT_SECONDS[unit] ?? UNIT_SECONDS[lim[4]] ?? 1);
  const rest = lower.replace(lim[0], ' ');
  const used = /\b(?:used|made|sent|spent|consumed|done)\s+(\d[\d,_]*)|(\d[\d,_]*)\s+(?:already\s+)?(?:used|made|sent|spent|consumed|done)\b/.exec(rest);
  const planned = /(\d[\d,_]*)\s+more\b|\b(?:plan(?:ning)?|want|need|going|like)\s+(?:to\s+)?(?:send|make|do|fire|run)?\s*(\d[\d,_]*)|\b(?:send|make|fire)\s+(\d[\d,_]*)/.exec(rest);
  const num = (s: string | undefined) => (s === undefined ? undefined : Number(s.replace(/[,_]/g, '')));
  const args: Record<string, unknown> = { limit: num(lim[1]), window_seconds: window };
  const u = num(used?.[1] ?? used?.[2]);
  const p = num(planned?.[1] ?? planned?.[2] ?? planned?.[3]);
  if (u !== undefined) args.used = u;
  if (p !== undefined) args.planned_calls = p;
  return { tool: 'rate_limit', arguments: args };
};

// ---- Bitwise ---------------------------------------------------------------------------------------------

const NUM = String.raw`[+-]?(?:0x[0-9a-f_]+|0b[01_]+|0o[0-7_]+|\d[\d_]*)`;
const WORD_OPS: Record<string, string> = { and: 'and', or: 'or', xor: 'xor', nand: 'nand', nor: 'nor', shl: 'shl', shr: 'shr', sar: 'sar', rotl: 'rotl', rotr: 'rotr' };
const SYMBOL_OPS: Record<string, string> = { '&': 'and', '|': 'or', '<<': 'shl', '>>': 'shr', '>>>': 'shr' };
const SHIFT = new RegExp(`\\b(shift|rotate)\\s+(${NUM})\\s+(left|right)\\s+(?:by\\s+)?(\\d{1,2})\\b`);
const UNARY = new RegExp(`(?:\\b(not|popcount|population count of|count (?:the )?(?:set |one |1 )?bits (?:in|of))\\s+(?:of\\s+)?|(~)\\s*)(${NUM})`);
const BINARY_OP = new RegExp(`(${NUM})\\s*(>>>|<<|>>|&|\\||\\b(?:and|or|xor|nand|nor|shl|shr|sar|rotl|rotr)\\b)\\s*(${NUM})`);

function widthOf(lower: string): { width?: number; signed?: boolean } {
  const w = /\b(\d{1,2})[\s-]?bits?\b/.exec(lower);
  const width = w && Number(w[1]) >= 1 && Number(w[1]) <= 64 ? Number(w[1]) : undefined;
  const signed = /\bsigned\b/.test(lower) && !/\bunsigned\b/.test(lower);
  return { ...(width ? { width } : {}), ...(signed ? { signed: true } : {}) };
}

const operand = (s: string): string | number => (/^[+-]?\d+$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : s);

const bitwise: Parser = (_q, lower) => {
  const cue = /\b(bitwise|bits?|binary)\b/.test(lower);
  const w = widthOf(lower);
  const shift = SHIFT.exec(lower);
  if (shift) {
    const rotate = shift[1] === 'rotate';
    const op = rotate ? (shift[3] === 'left' ? 'rotl' : 'rotr') : shift[3] === 'left' ? 'shl' : /\barithmetic/.test(lower) ? 'sar' : 'shr';
    return { tool: 'bitwise', arguments: { op, a: operand(shift[2]), b: Number(shift[4]), ...w } };
  }
  const unary = UNARY.exec(lower);
  if (unary && (unary[2] || unary[1] !== 'not' || cue)) {
    const op = unary[2] || unary[1] === 'not' ? 'not' : 'popcount';
    return { tool: 'bitwise', arguments: { op, a: operand(unary[3]), ...w } };
  }
  const bin = BINARY_OP.exec(lower);
  if (!bin) return null;
  const word = WORD_OPS[bin[2]];
  // "and"/"or" are ordinary English: only with a bit cue or prefixed (0x, 0b, 0o) operands.
  if ((bin[2] === 'and' || bin[2] === 'or') && !cue && !/^[+-]?0[xbo]/.test(bin[1])) return null;
  let op = word ?? SYMBOL_OPS[bin[2]];
  if (bin[2] === '>>' && w.signed) op = 'sar';
  return { tool: 'bitwise', arguments: { op, a: operand(bin[1]), b: operand(bin[3]), ...w } };
};

// ---- Number bases ---------------------------------------------------------------------------------------

const BASE_NAMES: Record<string, number> = { binary: 2, bin: 2, octal: 8, oct: 8, decimal: 10, dec: 10, denary: 10, duodecimal: 12, hexadecimal: 16, hex: 16 };
const BASE = String.raw`(?:base[\s-]?(\d{1,2})|(binary|octal|decimal|denary|duodecimal|hexadecimal|hex))`;
const BASE_TARGETS = new RegExp(`\\b(?:to|in|into|as)\\s+(?:an?\\s+)?${BASE}\\b`, 'g');
const BASE_FROM = new RegExp(`\\bfrom\\s+(?:an?\\s+)?${BASE}\\b`);
const NAMED_BASE_VALUE = /\b(binary|octal|decimal|hexadecimal|hex)\s+(?:number\s+|value\s+)?(?=[+-]?[0-9a-z])/;
const baseOf = (m: RegExpExecArray): number => (m[1] ? Number(m[1]) : BASE_NAMES[m[2]]);
const PREFIX: Record<string, number> = { '0x': 16, '0b': 2, '0o': 8 };
const FILLER = new Set(
  'convert conversion what whats what\'s is the number value please how do i write express represent show me of a an it and give tell would be in to into as from base can you integer'.split(' '),
);

/** True when every digit of `token` (sign, prefix and `_` aside) exists in `base`. */
function fitsBase(token: string, base: number): boolean {
  const body = token.replace(/^[+-]/, '').replace(/^0[xbo]/, '').replace(/_/g, '');
  return body.length > 0 && [...body].every((ch) => Number.parseInt(ch, 36) < base);
}

const baseConvert: Parser = (_q, lower) => {
  const targets = [...lower.matchAll(BASE_TARGETS)];
  if (targets.length === 0) return null;
  const target = targets[targets.length - 1];
  let rest = lower.replace(target[0], ' ');
  let from: number | undefined;
  const fromPhrase = BASE_FROM.exec(rest);
  const namedValue = NAMED_BASE_VALUE.exec(rest);
  if (fromPhrase) {
    from = baseOf(fromPhrase);
    rest = rest.replace(fromPhrase[0], ' ');
  } else if (targets.length > 1) {
    // "1010 in base 2 to base 10": the earlier "in base N" names the source.
    from = baseOf(targets[0]);
    rest = rest.replace(targets[0][0], ' ');
  } else if (namedValue) {
    from = BASE_NAMES[namedValue[1]];
    rest = rest.replace(namedValue[0], ' ');
  }
  for (const token of rest.split(/[\s,?!;:'"()]+/)) {
    if (!token || FILLER.has(token)) continue;
    const prefixed = PREFIX[token.replace(/^[+-]/, '').slice(0, 2)];
    const base = from ?? prefixed ?? (/^[+-]?[\d_]+$/.test(token) ? 10 : /^[+-]?[\da-f_]+$/.test(token) ? 16 : undefined);
    if (base === undefined || !fitsBase(token, base)) continue;
    return { tool: 'base_convert', arguments: { value: token, from_base: base, to_base: baseOf(target) } };
  }
  return null;
};

/** Tried in order: the first parser that recognises the request wins. */
const PARSERS: Parser[] = [ansi, checksum, card, businessDays, rateLimit, bitwise, baseConvert];

export function detectIntent(query: string): Intent | null {
  const q = query.trim();
  if (!q || q.length > 100_000) return null;
  const lower = q.toLowerCase();
  for (const parse of PARSERS) {
    const intent = parse(q, lower);
    if (intent) return intent;
  }
  return null;
}
