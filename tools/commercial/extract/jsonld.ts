// JSON-LD blocks as items: every top-level object (a block may hold one, a list, or a @graph). Keys are read as
// their local names (schema:name and https://schema.org/name are both "name"); {"@value": v} is the value v; an
// object holding only {"@id"} is that URL; any other object is a nested item. Nothing is expanded against the
// @context: schema.org's pages write plain names.
import { addValue, localName, type Thing, type ThingValue } from './things.js';

const MAX_DEPTH = 16;

function valueOf(v: unknown, resolve: (href: string) => string, depth: number, budget: { left: number }): ThingValue[] {
  if (budget.left <= 0 || depth > MAX_DEPTH) return [];
  if (typeof v === 'string') return v.trim() ? [v.trim()] : [];
  if (typeof v === 'number' || typeof v === 'boolean') return [v];
  if (Array.isArray(v)) return v.flatMap((x) => valueOf(x, resolve, depth + 1, budget));
  if (typeof v !== 'object' || v === null) return [];
  const o = v as Record<string, unknown>;
  if ('@value' in o) return valueOf(o['@value'], resolve, depth + 1, budget);
  if ('@list' in o) return valueOf(o['@list'], resolve, depth + 1, budget);
  const keys = Object.keys(o).filter((k) => k !== '@context');
  if (keys.length === 1 && keys[0] === '@id' && typeof o['@id'] === 'string') return [resolve(o['@id'])];
  return [thingOf(o, resolve, depth, budget)];
}

function thingOf(o: Record<string, unknown>, resolve: (href: string) => string, depth: number, budget: { left: number }): Thing {
  budget.left--;
  const type = o['@type'];
  const types = (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string').map(localName);
  const thing: Thing = { source: 'json-ld', types, props: new Map(), ...(typeof o['@id'] === 'string' ? { id: resolve(o['@id']) } : {}) };
  for (const [k, v] of Object.entries(o)) {
    if (k.startsWith('@')) continue;
    for (const x of valueOf(v, resolve, depth + 1, budget)) addValue(thing, localName(k), x);
  }
  return thing;
}

/** The top-level items of one parsed JSON-LD block. */
export function jsonLdThings(block: unknown, resolve: (href: string) => string, budget: { left: number }): Thing[] {
  if (Array.isArray(block)) return block.flatMap((b) => jsonLdThings(b, resolve, budget));
  if (typeof block !== 'object' || block === null) return [];
  const o = block as Record<string, unknown>;
  if ('@graph' in o) return jsonLdThings(o['@graph'], resolve, budget);
  return [thingOf(o, resolve, 0, budget)];
}
