// Labelled fields inside one item of a reply, in the ways models write them:
//   Headline: Save 20%        **Headline:** Save 20%        - **Headline**: Save 20%
//   Headline (30 chars): …    ### Headline  ⏎ Save 20%      *CTA*: Shop now
// Only the kind's known labels count, so a body line such as "Step 1: unpack" stays in the body. A one-line
// field takes its first line (or the next non-empty one); a multi-line field runs to the next known label.
// Lines no field took are `rest`: an email body written without a "Body:" label, say.
import { normalizeKey } from './reply.js';

export interface FieldSpec {
  aliases: string[];
  multiline?: boolean;
}

export type FieldSpecs<K extends string> = Record<K, FieldSpec>;
export type Fields<K extends string> = Partial<Record<K, string>>;

const LABEL_LINE =
  /^\s{0,3}(?:>\s*)?(?:[-*+]\s+)?(?:#{1,6}\s+)?(\*\*|__|\*|_)?\s*([A-Za-z][A-Za-z0-9 /&'_-]{0,38}?)\s*(?:\(([^)]*)\))?\s*(\*\*|__|\*|_)?\s*(?::|：|\s[—–]\s|$)\s*(.*)$/;

function labelOf<K extends string>(line: string, specs: FieldSpecs<K>): { key: K; value: string } | undefined {
  const m = line.match(LABEL_LINE);
  if (!m) return undefined;
  const label = normalizeKey(m[2]);
  for (const key of Object.keys(specs) as K[]) {
    if (specs[key].aliases.some((a) => normalizeKey(a) === label)) return { key, value: m[5] };
  }
  return undefined;
}

/** A value without the wrapping a model puts around it: emphasis, quotes, a "(28 characters)" note. */
export function cleanValue(v: string): string {
  let s = v.trim();
  s = s.replace(/^(\*\*|__)\s*/, '').replace(/\s*(\*\*|__)$/, '');
  s = s.replace(/\s*[([]\s*\d+\s*(?:chars?|characters?|words?)\s*[)\]]\s*$/i, '');
  s = s.replace(/\s*[—–-]\s*\d+\s*(?:chars?|characters?)\s*$/i, '');
  const quoted = s.match(/^["“”'‘](.*)["“”'’]$/s);
  if (quoted && !/["“”]/.test(quoted[1])) s = quoted[1];
  return s.trim();
}

export function readFields<K extends string>(text: string, specs: FieldSpecs<K>): { fields: Fields<K>; rest: string } {
  const lines = text.split('\n');
  const fields: Fields<K> = {};
  const rest: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const hit = labelOf(lines[i], specs);
    if (!hit || fields[hit.key] !== undefined) {
      rest.push(lines[i]);
      continue;
    }
    const collected: string[] = hit.value.trim() ? [hit.value] : [];
    if (specs[hit.key].multiline) {
      while (i + 1 < lines.length && !labelOf(lines[i + 1], specs)) collected.push(lines[++i]);
    } else if (!collected.length) {
      while (i + 1 < lines.length && !lines[i + 1].trim()) i++;
      if (i + 1 < lines.length && !labelOf(lines[i + 1], specs)) collected.push(lines[++i]);
    }
    const value = specs[hit.key].multiline ? collected.join('\n').trim() : cleanValue(collected.join(' '));
    fields[hit.key] = specs[hit.key].multiline ? value.replace(/^(\*\*|__)\s*|\s*(\*\*|__)$/g, '').trim() : value;
  }
  return { fields, rest: rest.join('\n').trim() };
}

/** The same fields from a JSON item, by the same aliases (and the key itself). */
export function jsonFields<K extends string>(item: unknown, specs: FieldSpecs<K>): Fields<K> {
  const fields: Fields<K> = {};
  if (typeof item !== 'object' || item === null) return fields;
  const byKey = new Map(Object.entries(item as Record<string, unknown>).map(([k, v]) => [normalizeKey(k), v]));
  for (const key of Object.keys(specs) as K[]) {
    for (const name of [key, ...specs[key].aliases]) {
      const v = byKey.get(normalizeKey(name));
      if (typeof v === 'string' && v.trim()) {
        fields[key] = specs[key].multiline ? v.trim() : cleanValue(v);
        break;
      }
    }
  }
  return fields;
}
