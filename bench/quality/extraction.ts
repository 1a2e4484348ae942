// Extraction measured on schema.org's own examples (test/fixtures/quality/schemaorg, rebuilt by
// scripts/quality/schemaorg-examples.ts): each example's microdata, then its RDFa, is given to the extraction
// engines as a page, with a schema naming the JSON-LD version's top-level properties (nested object and array
// schemas where the JSON-LD value is an object or an array), and each property counts as given when the engines'
// value is the JSON-LD version's value. "Is the value" (docs/decisions/commercial-extract.md says the same):
//   - texts: equal once whitespace is collapsed and trimmed; two texts without spaces are also equal when they
//     resolve to the same URL against the page's URL (PAGE_URL, the URL the engines are given), and schema.org's
//     own terms are equal with or without https?://schema.org/ ("InStock" = "https://schema.org/InStock");
//   - numbers: equal to a number, or to a text that is exactly that number ("4.5" = 4.5); booleans alike;
//   - objects: property by property, @type and @id included, every property of the JSON-LD object given;
//   - arrays: as many values, each JSON-LD value given by a different one of them, in any order; a single
//     JSON-LD value against an array of one, and an array of one against a single value, compare their value;
//   - a text in a list of objects (schema.org allows a name where a thing is expected) is the object's `name`.
// The JSON-LD is read compacted first: keys as local names (schema:name is name), and under schema.org's own
// @context its aliases `type` and `id` as @type and @id (the context declares "type": "@type", "id": "@id"),
// {"@value": v} as v, a bare {"@id": u} as the URL u, @context, @language and @reverse left out. A @graph (or a
// top-level list) gives one case per node, each with its own schema, which also names the node's type (see
// schemaFor). A property counts as given only when its whole value is; `leaves` counts the scalar values inside
// (array elements matched by position) to show how near the misses are.
// "Stated by the markup" (extraction-markup.ts) tells the examples' own disagreements from the engines' misses.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runEngine } from '../../tools/commercial/extract/engine.js';
import { parseSchema } from '../../tools/commercial/extract/schema.js';
import { collapse, isObj, local, page, PAGE_URL, SCHEMA_ORG, statedIn, type Json, type Obj, type Syntax } from './extraction-markup.js';
import { percent, type QualityReport } from './report.js';

export { PAGE_URL, statedIn, type Syntax };

export const SYNTAXES: Syntax[] = ['microdata', 'rdfa'];

export interface SchemaOrgExample {
  id: string;
  file: string;
  types: string;
  microdata: string;
  rdfa: string;
  jsonld: unknown;
}


const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CORPUS_DIR = path.join(ROOT, 'test', 'fixtures', 'quality', 'schemaorg');

/** `examples`: data/examples.txt (the corpus the target is set on); `others`: every other examples file. */
export function loadCorpus(name: 'examples' | 'others'): SchemaOrgExample[] {
  return JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, `${name}.json`), 'utf8')) as SchemaOrgExample[];
}

export function sourceCommit(): string {
  return /Commit: (\w+)/.exec(fs.readFileSync(path.join(CORPUS_DIR, 'SOURCE'), 'utf8'))?.[1] ?? 'unknown';
}


/** A @context that is schema.org's (a string, or a list holding it): it makes `type` and `id` aliases of @type and @id. */
const isSchemaOrgContext = (c: unknown): boolean => (Array.isArray(c) ? c.some(isSchemaOrgContext) : typeof c === 'string' && /^https?:\/\/schema\.org\/?$/.test(c.trim()));

/** JSON-LD compacted as the comparison reads it (see the header); `aliases`: under schema.org's context. */
function compact(v: unknown, aliases = false): Json | undefined {
  if (Array.isArray(v)) return v.map((x) => compact(x, aliases)).filter((x): x is Json => x !== undefined);
  if (!isObj(v)) return v as Json;
  if ('@value' in v) return compact(v['@value']);
  const inner = '@context' in v ? isSchemaOrgContext(v['@context']) : aliases;
  const key = (k: string): string => (inner && (k === 'type' || k === 'id') ? `@${k}` : local(k));
  const keys = Object.keys(v).filter((k) => !['@context', '@language', '@reverse'].includes(k));
  if (keys.length === 1 && key(keys[0]!) === '@id') return v[keys[0]!] as string;
  const out: Obj = {};
  for (const k of keys) {
    const c = compact(v[k], inner);
    if (c !== undefined) out[key(k)] = c;
  }
  return out;
}

/** The JSON-LD nodes of an example, compacted: one, or each node of its @graph or top-level list. */
export function expectedNodes(jsonld: unknown): Obj[] {
  if (Array.isArray(jsonld)) return jsonld.flatMap(expectedNodes);
  if (isObj(jsonld) && Array.isArray(jsonld['@graph'])) return jsonld['@graph'].flatMap(expectedNodes);
  const c = compact(jsonld);
  return isObj(c) ? [c] : [];
}

type Schema = Record<string, unknown>;

/** One schema for two shapes of a value: a list if either is one, an object if either is one (a text in its place is its name). */
function merge(a: Schema, b: Schema): Schema {
  if (a.type === 'array' || b.type === 'array') return { type: 'array', items: merge((a.type === 'array' ? a.items : a) as Schema, (b.type === 'array' ? b.items : b) as Schema) };
  if (a.type === 'object' && b.type === 'object') {
    const props = { ...(a.properties as Record<string, Schema>) };
    for (const [k, v] of Object.entries(b.properties as Record<string, Schema>)) props[k] = props[k] ? merge(props[k], v) : v;
    return { type: 'object', properties: props };
  }
  if (a.type === 'object' || b.type === 'object') return a.type === 'object' ? a : b;
  return a.type === b.type ? a : { type: 'string' };
}

/** The schema of a JSON-LD value: its shape, objects with their properties (nested @type and @id included). */
function schemaOf(v: Json): Schema {
  if (Array.isArray(v)) return { type: 'array', items: v.length ? v.map(schemaOf).reduce(merge) : { type: 'string' } };
  if (isObj(v)) return { type: 'object', properties: Object.fromEntries(Object.entries(v).map(([k, x]) => [k, schemaOf(x)])) };
  if (typeof v === 'number') return { type: 'number' };
  if (typeof v === 'boolean') return { type: 'boolean' };
  return { type: 'string' };
}

/**
 * The schema a case asks with: the node's top-level properties (its own @type and @id are not asked, nor scored).
 * `ofType`: a node of a @graph also names its type (`"@type": {"enum": [...]}`), which picks the item among the
 * page's several; without it, two nodes with the same properties would be the same question with two answers.
 */
export function schemaFor(node: Obj, ofType = false): Record<string, unknown> {
  const props = Object.entries(node).filter(([k]) => !k.startsWith('@'));
  const types = ([] as Json[]).concat(node['@type'] ?? []).filter((t): t is string => typeof t === 'string').map(local);
  const typed = ofType && types.length ? { '@type': { type: 'string', enum: types } } : {};
  return { type: 'object', properties: { ...typed, ...Object.fromEntries(props.map(([k, v]) => [k, schemaOf(v)])) } };
}


function sameText(a: string, b: string): boolean {
  const x = collapse(a).replace(SCHEMA_ORG, '');
  const y = collapse(b).replace(SCHEMA_ORG, '');
  if (x === y) return true;
  if (/\s/.test(x) || /\s/.test(y) || !x || !y) return false;
  try {
    return new URL(x, PAGE_URL).href === new URL(y, PAGE_URL).href;
  } catch {
    return false;
  }
}

/** True when `got` gives the JSON-LD value `expected` (the rules in the header). */
export function gives(expected: Json, got: unknown): boolean {
  if (Array.isArray(expected)) {
    if (!Array.isArray(got)) return expected.length === 1 && gives(expected[0]!, got);
    if (got.length !== expected.length) return false;
    const used = new Set<number>();
    return expected.every((e) => {
      const i = got.findIndex((g, j) => !used.has(j) && gives(e, g));
      if (i < 0) return false;
      used.add(i);
      return true;
    });
  }
  if (Array.isArray(got)) return got.length === 1 && gives(expected, got[0]);
  if (isObj(expected)) return isObj(got) && Object.entries(expected).every(([k, e]) => gives(e, got[k]));
  if (got === null || got === undefined) return expected === null;
  if (typeof expected === 'string') {
    if (typeof got === 'string') return sameText(expected, got);
    if (isObj(got)) return typeof got.name === 'string' && sameText(expected, got.name);
    return collapse(expected) === String(got);
  }
  if (typeof expected === 'number') return typeof got === 'number' ? got === expected : typeof got === 'string' && collapse(got) !== '' && Number(collapse(got)) === expected;
  if (typeof expected === 'boolean') return typeof got === 'boolean' ? got === expected : typeof got === 'string' && collapse(got).replace(SCHEMA_ORG, '').toLowerCase() === String(expected);
  return expected === got;
}

/** Scalar values inside a JSON-LD value, and how many of them `got` gives (array elements by position). */
function leaves(expected: Json, got: unknown): { total: number; given: number } {
  if (Array.isArray(expected)) {
    const g = Array.isArray(got) ? got : [got];
    return expected.reduce((acc: { total: number; given: number }, e, i) => {
      const r = leaves(e, g[i]);
      return { total: acc.total + r.total, given: acc.given + r.given };
    }, { total: 0, given: 0 });
  }
  if (isObj(expected)) {
    const g = isObj(got) ? got : {};
    return Object.entries(expected).reduce((acc, [k, e]) => {
      const r = leaves(e, g[k]);
      return { total: acc.total + r.total, given: acc.given + r.given };
    }, { total: 0, given: 0 });
  }
  return { total: 1, given: gives(expected, got) ? 1 : 0 };
}

export interface Miss {
  id: string;
  syntax: Syntax;
  property: string;
  expected: Json;
  got: unknown;
  /** The markup states the JSON-LD value (every scalar in it): a miss of the engines, not of the example. */
  stated: boolean;
}

export interface Score {
  syntax: Syntax;
  /** Examples with markup in this syntax. */
  examples: number;
  /** JSON-LD nodes measured (an example with a @graph has several). */
  items: number;
  properties: number;
  matched: number;
  /** Properties whose JSON-LD value the markup states, and how many of them were given. */
  stated: number;
  statedMatched: number;
  leaves: number;
  leavesMatched: number;
  misses: Miss[];
  /** Cases whose schema the extraction refused (none expected: it would be a validation bug). */
  refused: string[];
}

/** Runs the engines (as `POST /extract` does without a model) on every example of a corpus in one syntax; `graphTypes`: see schemaFor. */
export function score(examples: SchemaOrgExample[], syntax: Syntax, { graphTypes = true } = {}): Score {
  const s: Score = { syntax, examples: 0, items: 0, properties: 0, matched: 0, stated: 0, statedMatched: 0, leaves: 0, leavesMatched: 0, misses: [], refused: [] };
  for (const ex of examples) {
    const markup = ex[syntax];
    if (!markup) continue;
    s.examples++;
    const nodes = expectedNodes(ex.jsonld);
    const stated = statedIn(markup, syntax, nodes.length);
    for (const node of nodes) {
      const schema = schemaFor(node, graphTypes && nodes.length > 1);
      if (!Object.keys(schema.properties as object).length) continue;
      const parsed = parseSchema(schema);
      if ('issues' in parsed) {
        s.refused.push(`${ex.id}: ${parsed.issues.map((i) => `${i.loc.join('.')} ${i.msg}`).join('; ')}`);
        continue;
      }
      s.items++;
      const { data } = runEngine({ kind: 'html', body: page(markup), fields: parsed.fields, url: PAGE_URL });
      for (const [property, expected] of Object.entries(node)) {
        if (property.startsWith('@')) continue;
        s.properties++;
        const l = leaves(expected, data[property]);
        s.leaves += l.total;
        s.leavesMatched += l.given;
        const given = gives(expected, data[property]);
        const isStated = stated(property, expected);
        s.matched += given ? 1 : 0;
        s.stated += isStated ? 1 : 0;
        s.statedMatched += given && isStated ? 1 : 0;
        if (!given) s.misses.push({ id: ex.id, syntax, property, expected, got: data[property], stated: isStated });
      }
    }
  }
  return s;
}

const short = (v: unknown): string => {
  const j = JSON.stringify(v) ?? 'undefined';
  return j.length > 160 ? `${j.slice(0, 157)}…` : j;
};

/** Where a value differs: the paths inside it whose JSON-LD value is not given (objects by property, arrays by position). */
function differences(expected: Json, got: unknown, at: string): string[] {
  if (gives(expected, got)) return [];
  if (isObj(expected) && isObj(got)) return Object.entries(expected).flatMap(([k, e]) => differences(e, got[k], `${at}.${k}`));
  if (Array.isArray(expected) && Array.isArray(got) && expected.length === got.length && expected.some((e) => isObj(e))) {
    return expected.flatMap((e, i) => differences(e, got[i], `${at}[${i}]`));
  }
  return [`${at}: JSON-LD ${short(expected)}, extracted ${short(got)}`];
}

export const describeMiss = (m: Miss): string => `${m.stated ? '' : '(not stated by the markup) '}${m.id} ${differences(m.expected, m.got, m.property).join('; ')}`;

function report(title: string, scores: Score[], commit: string, withMisses: boolean): QualityReport {
  return {
    title,
    rows: scores.map((s) => ({
      syntax: s.syntax === 'rdfa' ? 'RDFa' : 'microdata',
      examples: s.examples,
      items: s.items,
      properties: s.properties,
      matched: s.matched,
      rate: percent(s.matched, s.properties),
      'stated by the markup': s.stated,
      'rate on stated': percent(s.statedMatched, s.stated),
      'nested values': `${s.leavesMatched}/${s.leaves} (${percent(s.leavesMatched, s.leaves)})`,
    })),
    notes: [
      `schemaorg/schemaorg@${commit.slice(0, 12)}; target: the JSON-LD version's value for ≥ 95% of the properties (rules: docs/decisions/commercial-extract.md).`,
      ...scores.flatMap((s) => s.refused.map((r) => `${s.syntax}: schema refused: ${r}`)),
      ...(withMisses ? scores.flatMap((s) => s.misses.map((m) => `${s.syntax === 'rdfa' ? 'RDFa' : 'microdata'} miss: ${describeMiss(m)}`)) : scores.map((s) => `${s.syntax}: ${s.misses.length} misses`)),
    ],
  };
}

/** `npm run bench -- quality`: data/examples.txt with every miss listed; the other example files as a check. */
export async function measure(): Promise<QualityReport[]> {
  const commit = sourceCommit();
  const main = loadCorpus('examples');
  const others = loadCorpus('others');
  return [
    report('Extraction: schema.org data/examples.txt (microdata, RDFa → JSON-LD)', SYNTAXES.map((s) => score(main, s)), commit, true),
    report('Extraction: schema.org’s other example files (held out)', SYNTAXES.map((s) => score(others, s)), commit, true),
  ];
}
