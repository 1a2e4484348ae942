// The markup side of the extraction measure (bench/quality/extraction.ts): the page an example's markup is given
// in, and whether the markup states a JSON-LD value where the JSON-LD puts it, read by the syntax's own rules
// (never from what the engines extract), to tell the examples' own disagreements from the engines' misses.
import { parseHTML } from 'linkedom';

export type Syntax = 'microdata' | 'rdfa';
export type Json = null | string | number | boolean | Json[] | { [k: string]: Json };
export type Obj = { [k: string]: Json };

/** The URL each example is read as coming from (relative URLs resolve against it). */
export const PAGE_URL = 'https://example.org/schemaorg/examples/page.html';
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A term's local name: schema:name, https://schema.org/name → name. */
export const local = (k: string): string => (k.startsWith('@') ? k : k.replace(/^.*[/#:]/, ''));
export const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();
export const SCHEMA_ORG = /^https?:\/\/schema\.org\//;

/** The page an example's markup is given in. */
export const page = (markup: string): string => `<!DOCTYPE html>\n<html><head><title>Example</title></head><body>\n${markup}\n</body></html>\n`;

type Node = { tagName: string; textContent: string | null; children: ArrayLike<Node>; parentElement: Node | null; attributes: ArrayLike<{ name: string; value: string }> };
/** An attribute's value, its name read case-insensitively as HTML does (typeOf is typeof). */
const attr = (el: Node, name: string): string | null => Array.from(el.attributes).find((a) => a.name.toLowerCase() === name)?.value ?? null;

/** The attributes that give an item its types, and its identifier (microdata's itemid only; RDFa's subject attributes). */
const TYPES: Record<Syntax, string> = { microdata: 'itemtype', rdfa: 'typeof' };
const ID_ATTRS: Record<Syntax, string[]> = { microdata: ['itemid'], rdfa: ['resource', 'about', 'href', 'src'] };
const ITEM: Record<Syntax, string> = { microdata: 'itemscope', rdfa: 'typeof' };
const words = (v: string | null): string[] => (v ?? '').trim().split(/\s+/).filter(Boolean).map((t) => local(t));
const SRC = new Set(['audio', 'embed', 'iframe', 'img', 'source', 'track', 'video']);

/**
 * A property element's value by its syntax's rules, written independently of the engines: microdata (WHATWG HTML
 * §5.2.4) content, else src, href or data by element, value on data/meter, datetime on time, else the text (a
 * `content` attribute read on any element, as search engines do); RDFa content, else (without datatype) resource,
 * href or src, else a time's datetime, else the text.
 */
function valueOf(el: Node, syntax: Syntax): string {
  const t = el.tagName.toLowerCase();
  const at = (n: string) => attr(el, n);
  if (at('content') !== null) return at('content')!;
  if (syntax === 'rdfa') return (at('datatype') === null ? (at('resource') ?? at('href') ?? at('src')) : null) ?? (t === 'time' ? at('datetime') : null) ?? el.textContent ?? '';
  if (SRC.has(t)) return at('src') ?? '';
  if (t === 'a' || t === 'area' || t === 'link') return at('href') ?? '';
  if (t === 'object') return at('data') ?? '';
  if (t === 'data' || t === 'meter') return at('value') ?? '';
  return (t === 'time' ? at('datetime') : null) ?? el.textContent ?? '';
}

/** A text's written forms a value may be compared in: collapsed, schema.org's prefix dropped, and as a URL. */
function forms(v: string): string[] {
  const c = collapse(v).replace(SCHEMA_ORG, '');
  if (!c || /\s/.test(c)) return c ? [c] : [];
  try {
    return [c, new URL(c, PAGE_URL).href];
  } catch {
    return [c];
  }
}

/** Whether a written value is the scalar `v` (a number in any written form of it; a boolean in any case). */
function isScalar(written: string, v: Json): boolean {
  const fold = (f: string) => (typeof v === 'boolean' ? f.toLowerCase() : f);
  const want = forms(String(v)).map(fold);
  return forms(written).some((f) => want.includes(fold(f)) || (typeof v === 'number' && Number(f) === v));
}

/** A markup as read: its syntax, its elements by id (for itemref), its items by identifier (for RDF identity). */
interface Markup {
  syntax: Syntax;
  byId: Map<string, Node>;
  byIri: Map<string, Node[]>;
}

const resolved = (v: string): string | undefined => {
  try {
    return /\s/.test(v.trim()) ? undefined : new URL(v.trim(), PAGE_URL).href;
  } catch {
    return undefined;
  }
};

/** An item's identifier (microdata's itemid; RDFa's subject), or the URL a property links to; resolved. */
function iriOf(el: Node, syntax: Syntax): string | undefined {
  if (attr(el, ITEM[syntax]) === null) return resolved(valueOf(el, syntax));
  const id = ID_ATTRS[syntax].map((a) => attr(el, a)).find((v) => v !== null);
  return id ? resolved(id) : undefined;
}

/**
 * Whether the markup states a JSON-LD value where the JSON-LD puts it, read from the markup alone by the syntax's
 * rules (never from what the engines extract): a scalar is stated by an element carrying the property whose value
 * (valueOf) is the scalar, or by an item there whose identifier or `name` states it; an object by one such element,
 * read with every item of the same identifier (RDF: a node is its IRI; a link to it points at it), whose types
 * (itemtype, typeof) include its @type, whose identifier attributes give its @id, and inside which (or in what its
 * itemref names), outside nested items, each of its other properties is stated so; a list when each of its values
 * is, each by an element of its own.
 */
function statedAt(expected: Json, carriers: Node[], m: Markup): boolean {
  if (Array.isArray(expected)) {
    // Each value of a list by an element of its own (three JSON-LD names are not stated by two elements).
    const used = new Set<Node>();
    return expected.every((e) => {
      const by = carriers.find((c) => !used.has(c) && statedAt(e, [c], m));
      if (by) used.add(by);
      return !!by;
    });
  }
  if (expected === null) return true;
  const identifies = (el: Node, v: Json) => ID_ATTRS[m.syntax].some((a) => attr(el, a) !== null && isScalar(attr(el, a)!, v));
  return carriers.some((el) => {
    if (!isObj(expected)) {
      if (attr(el, ITEM[m.syntax]) === null) return isScalar(valueOf(el, m.syntax), expected);
      return identifies(el, expected) || statedAt(expected, within(el, 'name', m), m);
    }
    const iri = iriOf(el, m.syntax);
    const same = [...new Set([el, ...((iri && m.byIri.get(iri)) || [])])];
    return Object.entries(expected).every(([k, x]) => {
      if (k === '@type') return (Array.isArray(x) ? x : [x]).every((t) => same.some((n) => words(attr(n, TYPES[m.syntax])).includes(local(String(t)))));
      if (k === '@id') return same.some((n) => identifies(n, x));
      return statedAt(x, same.flatMap((n) => within(n, k, m)), m);
    });
  });
}

/** Whether `n` carries the property `name` in this syntax (in RDFa a bare term only under a vocab; a CURIE or URL anywhere). */
function carries(n: Node, name: string, syntax: Syntax): boolean {
  if (syntax === 'microdata') return words(attr(n, 'itemprop')).includes(name);
  const terms = ['property', 'rel'].flatMap((a) => (attr(n, a) ?? '').trim().split(/\s+/)).filter((t) => local(t) === name);
  if (terms.some((t) => t.includes(':'))) return true;
  for (let at: Node | null = n; terms.length && at; at = at.parentElement) if (attr(at, 'vocab') !== null) return true;
  return false;
}

/** The elements inside `el` (and in the subtrees its itemref names), outside nested items, that carry the property `name`. */
function within(el: Node, name: string, m: Markup): Node[] {
  const out: Node[] = [];
  const stack = [...Array.from(el.children), ...words(attr(el, 'itemref')).flatMap((id) => m.byId.get(id) ?? [])];
  while (stack.length) {
    const n = stack.pop()!;
    if (carries(n, name, m.syntax)) out.push(n);
    // The properties of a nested item are its own (the microdata crawl and RDFa's new subject stop there).
    if (attr(n, ITEM[m.syntax]) === null) stack.push(...Array.from(n.children));
  }
  return out;
}

/**
 * Whether the markup, in this syntax, states a property's JSON-LD value where the JSON-LD puts it: a top-level
 * property is stated by a property of a top-level item (microdata's itemscope without itemprop; RDFa's typeof
 * without property or rel, or the page under a vocab; an item whose property no item takes), or of any item when
 * the JSON-LD has several nodes (a @graph: a node may be nested in the markup).
 */
export function statedIn(markup: string, syntax: Syntax, nodes = 1): (property: string, expected: Json) => boolean {
  const { document } = parseHTML(page(markup));
  const m: Markup = { syntax, byId: new Map(), byIri: new Map() };
  const items: Node[] = [];
  const all = Array.from(document.querySelectorAll('*') as unknown as Iterable<Node>);
  const referenced = new Set(all.flatMap((el) => words(attr(el, 'itemref'))));
  const isProperty = (el: Node) => (syntax === 'microdata' ? ['itemprop'] : ['property', 'rel']).some((a) => attr(el, a) !== null);
  // An item whose property no item takes (no item around it, nor an itemref naming it) stands on its own.
  const taken = (el: Node) => referenced.has(attr(el, 'id') ?? '') || (() => {
    for (let at = el.parentElement; at; at = at.parentElement) if (attr(at, ITEM[syntax]) !== null) return true;
    return false;
  })();
  for (const el of all) {
    if (attr(el, 'id') !== null && !m.byId.has(attr(el, 'id')!)) m.byId.set(attr(el, 'id')!, el);
    const iri = attr(el, ITEM[syntax]) !== null ? iriOf(el, syntax) : undefined;
    if (iri) m.byIri.set(iri, [...(m.byIri.get(iri) ?? []), el]);
    if (syntax === 'rdfa' && attr(el, 'vocab') !== null) items.push(el);
    else if (attr(el, ITEM[syntax]) !== null && (nodes > 1 || !isProperty(el) || !taken(el))) items.push(el);
  }
  return (property, expected) => statedAt(expected, [...new Set(items.flatMap((it) => within(it, property, m)))], m);
}
