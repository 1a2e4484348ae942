// Fields filled from the items of a page's structured data as records: the item that names most of the schema's
// fields is the record, each field is read from its own properties (by name, then aliases), and an object field
// from the nested item under that property, field by field, to any depth the schema goes. Where a schema asks for
// an object and the page gives a text, the text is the object's `name` (schema.org: "a text where a thing is
// expected is that thing's name"), and where it asks for a text and the page gives an item, the item's name
// stands for it (labelOf).
import { coerce } from './coerce.js';
import { itemFor } from './identity.js';
import { namesFor, norm } from './names.js';
import type { Field } from './schema.js';
import { isThing, labelOf, localName, type Thing, type ThingValue } from './things.js';

export interface Filled {
  value: unknown;
  /** The property read. */
  key: string;
  /** A single-valued field read from a property with several values (the first is taken). */
  several: boolean;
}

/** The values of the property the field names in this item, and the property's name. */
function valuesFor(t: Thing, f: Field): { key: string; values: ThingValue[] } | undefined {
  if (f.name === '@type') return t.types.length ? { key: '@type', values: t.types } : undefined;
  if (f.name === '@id') return t.id ? { key: '@id', values: [t.id] } : undefined;
  for (const want of namesFor(f.name)) {
    for (const [key, values] of t.props) if (norm(key) === want && values.length) return { key, values };
  }
  // An item's URL is its identifier when it names no other (itemid="http://www.twitter.com" on a WebSite).
  if (norm(f.name) === 'url' && t.id) return { key: '@id', values: [t.id] };
  return undefined;
}

/**
 * A text where an object is asked: the object named by it (its `name` field), or for a URL the object it
 * identifies (its `@id`, else `url` field); undefined when the object has no such field.
 */
function objectNamed(f: Field, text: string | number | boolean): Record<string, unknown> | undefined {
  const fieldNamed = (n: string) => f.fields!.find((s) => s.name === n && s.type !== 'object');
  const isUrl = typeof text === 'string' && /^https?:\/\/\S+$/.test(text);
  const target = (isUrl ? (fieldNamed('@id') ?? fieldNamed('url')) : undefined) ?? fieldNamed('name');
  const v = target ? coerce(target, text) : undefined;
  if (v === undefined) return undefined;
  return Object.fromEntries(f.fields!.map((s) => [s.name, s === target ? (s.array ? [v] : v) : null]));
}

/** The object of an object field read from an item: each of its fields, null where the item says nothing. */
export function fillObject(fields: Field[], t: Thing, depth = 0, byId?: Map<string, Thing>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let any = false;
  for (const f of fields) {
    const r = fillField(t, f, depth + 1, byId);
    out[f.name] = r ? r.value : null;
    any ||= !!r;
  }
  return any ? out : undefined;
}

/**
 * The types a schema allows an item of these fields to have: its `@type` field's `const` or `enum` (as local
 * names, "https://schema.org/Library" is Library); undefined when it names none (any item will do).
 */
export function typesAsked(fields: Field[]): Set<string> | undefined {
  const schema = fields.find((f) => f.name === '@type')?.schema;
  const named = schema && ('const' in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined);
  const names = named?.filter((t): t is string => typeof t === 'string').map(localName);
  return names?.length ? new Set(names) : undefined;
}

/** Whether an item is of a type the fields allow (an object's value must match its schema, its @type too). */
export const typeFits = (t: Thing, asked: Set<string> | undefined): boolean => !asked || t.types.some((x) => asked.has(x));

/**
 * One field read from an item's own properties; undefined when the item has no value of the field's type. `byId`:
 * the page's items by identifier (identity.ts), so that an object asked where the item links a URL is read from
 * the item that URL identifies.
 */
export function fillField(t: Thing, f: Field, depth = 0, byId?: Map<string, Thing>): Filled | undefined {
  const found = valuesFor(t, f);
  if (!found || depth > 32) return undefined;
  const out: unknown[] = [];
  const asked = f.type === 'object' ? typesAsked(f.fields!) : undefined;
  for (const v of found.values) {
    let x: unknown;
    if (f.type === 'object') {
      const item = itemFor(v, t.source, byId);
      x = item ? (typeFits(item, asked) ? fillObject(f.fields!, item, depth, byId) : undefined) : v === '' || isThing(v) ? undefined : objectNamed(f, v);
    } else {
      const raw = isThing(v) ? labelOf(v) : v;
      // An empty value (an img without src, an empty content) says nothing.
      x = raw === undefined || raw === '' ? undefined : coerce(f, raw);
      if (x !== undefined && out.includes(x)) continue;
    }
    if (x !== undefined) out.push(x);
  }
  if (!out.length) return undefined;
  return { value: f.array ? out : out[0], key: found.key, several: !f.array && out.length > 1 };
}

/**
 * The record for a schema: of all items (`things`, top-level ones first) of a type the schema allows (typesAsked),
 * the one whose own properties name most of the fields (an exact name counts 1, an alias ½); ties go to the
 * earlier item. None when no such item names any.
 */
export function pickRecord(fields: Field[], things: Thing[]): Thing | undefined {
  let best: Thing | undefined;
  let bestScore = 0;
  const asked = typesAsked(fields);
  for (const t of things) {
    if (!typeFits(t, asked)) continue;
    let score = 0;
    for (const f of fields) {
      if (f.name.startsWith('@')) continue;
      const names = namesFor(f.name);
      let s = 0;
      for (const key of t.props.keys()) {
        const k = norm(key);
        if (k === names[0]) s = 1;
        else if (!s && names.includes(k)) s = 0.5;
      }
      score += s;
    }
    if (score > bestScore) {
      best = t;
      bestScore = score;
    }
  }
  return best;
}
