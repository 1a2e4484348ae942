// One plain sentence for a calculator result, built from the result fields (never from guesses). A card
// number never appears in it: only the masked form the tool returns.
import { maskDigits } from '../../src/llm/redact.js';

type R = Record<string, any>;

const list = (items: string[]): string => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

const TYPE_NAMES: Record<string, string> = { iban: 'IBAN', isbn10: 'ISBN-10', isbn13: 'ISBN-13' };

function checksum(r: R): string {
  const name = TYPE_NAMES[r.type] ?? r.type;
  const shown = r.formatted ?? r.normalized;
  if (r.valid) return `${shown} is a valid ${name}${r.type === 'iban' ? ` (${r.country}, ${r.length} characters)` : ''}.`;
  const fix = r.type === 'iban' ? (r.length_valid ? ` The check digits that would pass are ${r.corrected_check_digits}.` : '') : r.corrected ? ` The corrected number is ${r.corrected}.` : '';
  return `${shown} is not a valid ${name}: ${r.reason}.${fix}`;
}

function businessDays(args: R, r: R): string {
  const where = r.country ? ` in ${r.country}${r.subdivision ? `-${r.subdivision}` : ''}` : '';
  const skipped = (r.holidays_applied ?? []) as { date: string; name: string }[];
  const holidays = skipped.length ? `, skipping ${list(skipped.map((h) => `${h.date} (${h.name})`))}` : '';
  if (r.mode === 'add') {
    const n = Math.abs(args.days as number);
    return `${n} business day${n === 1 ? '' : 's'} ${(args.days as number) < 0 ? 'before' : 'after'} ${r.start}${where} is ${r.result}${holidays}.`;
  }
  return `There ${r.result === 1 ? 'is 1 business day' : `are ${r.result} business days`} from ${r.start} to ${r.end}${where} (start counted, end not)${holidays}.`;
}

function card(r: R): string {
  const verdict = r.valid ? 'a valid number' : 'not a valid number';
  return `${r.masked} is a ${r.brand_name} card, ${verdict} (${r.length} digits, length ${r.length_valid ? 'fits' : 'does not fit'} the brand, Luhn check ${r.luhn_valid ? 'passes' : 'fails'}).`;
}

function bitwise(args: R, r: R): string {
  const expr = r.op === 'not' || r.op === 'popcount' ? `${r.op}(${args.a})` : `${args.a} ${r.op} ${args.b}`;
  return `${expr} = ${r.decimal} (${r.hex}, ${r.binary}) in ${r.width} bits${r.signed ? ', signed' : ''}.`;
}

function ansi(r: R): string {
  const text = (r.text as string).length > 500 ? `${(r.text as string).slice(0, 500)}…` : r.text;
  return `Removed ${r.removed} escape sequence${r.removed === 1 ? '' : 's'}; the clean text is: ${text}`;
}

/** The sentence for a successful calculator call. */
export function phrase(tool: string, args: R, result: unknown): string {
  const r = (result ?? {}) as R;
  switch (tool) {
    case 'base_convert':
      return `${args.value} in base ${r.from_base} is ${r.value} in base ${r.to_base}${r.to_base !== 10 && r.from_base !== 10 ? ` (${r.decimal} in decimal)` : ''}.`;
    case 'checksum_validate':
      return checksum(r);
    case 'business_days':
      return businessDays(args, r);
    case 'card_brand':
      return card(r);
    case 'bitwise':
      return bitwise(args, r);
    case 'rate_limit':
      return `${String(r.advice).replace(/\.$/, '')} (${r.remaining} of ${r.limit} calls per ${r.window_seconds} s left now).`;
    case 'ansi_strip':
      return ansi(r);
    default:
      return `${tool} answered: ${JSON.stringify(result)}`;
  }
}

/** Arguments safe to show back: a card number is replaced by its masked form. */
export function shownArguments(tool: string, args: R, result?: unknown): R {
  if (tool !== 'card_brand') return args;
  const masked = (result as R | undefined)?.masked;
  return { ...args, number: typeof masked === 'string' ? masked : maskDigits(String(args.number ?? '')) };
}
