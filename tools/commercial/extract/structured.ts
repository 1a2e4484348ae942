// Structured data already in a page, read with a DOM (linkedom, as browse reads pages): the items of its JSON-LD,
// microdata and RDFa (jsonld.ts, microdata.ts, rdfa.ts), which records.ts fills fields from; every value of them,
// of OpenGraph and of tables as a candidate named by its key path, for fields no record has; and the page's
// visible text, block by block, for the entity engines.
import { parseHTML } from 'linkedom';
import { lowerCaseAttributes, type Doc } from './dom.js';
import { jsonLdThings } from './jsonld.js';
import { microdataThings } from './microdata.js';
import { rdfaThings } from './rdfa.js';
import { isThing, labelOf, resolver, type Thing } from './things.js';

export type StructuredSource = 'json-ld' | 'microdata' | 'rdfa' | 'opengraph' | 'table';

export interface Candidate {
  /** The key's path, e.g. ['offers', 'price'] or ['author']. */
  path: string[];
  value: string | number | boolean;
  source: StructuredSource;
}

export interface PageData {
  /** Top-level items, JSON-LD's first, then microdata's, then RDFa's, each in document order. */
  things: Thing[];
  candidates: Candidate[];
  /** The visible text, blocks on lines of their own. */
  text: string;
  /** Characters of JSON-LD read (metered with the text). */
  structuredChars: number;
}


type El = { tagName: string; getAttribute(n: string): string | null; textContent: string | null; querySelectorAll(s: string): Iterable<El> };

const clean = (s: string | null | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim();
const MAX_CANDIDATES = 5000;
/** Most items read from a page, nested ones included. */
const MAX_THINGS = 5000;

/** An item's values as candidates under their key paths; a nested item also stands for its key by its label. */
function flatten(t: Thing, path: string[], out: Candidate[], seen: Set<Thing>): void {
  if (seen.has(t) || path.length > 16) return;
  seen.add(t);
  for (const type of t.types) if (path.length < 16) out.push({ path: [...path, 'type'], value: type, source: t.source });
  for (const [key, values] of t.props) {
    for (const v of values) {
      if (out.length >= MAX_CANDIDATES) return;
      const at = [...path, key];
      if (isThing(v)) {
        const label = labelOf(v);
        if (label !== undefined && label !== '') out.push({ path: at, value: label, source: t.source });
        flatten(v, at, out, seen);
      } else if (v !== '') out.push({ path: at, value: v, source: t.source });
    }
  }
  seen.delete(t);
}

function jsonLd(doc: Doc, resolve: (href: string) => string, budget: { left: number }): { things: Thing[]; chars: number } {
  let chars = 0;
  const things: Thing[] = [];
  for (const s of doc.querySelectorAll('script[type="application/ld+json"]')) {
    const raw = s.textContent ?? '';
    chars += raw.length;
    try {
      things.push(...jsonLdThings(JSON.parse(raw), resolve, budget));
    } catch {
      // a block that is not JSON says nothing
    }
  }
  return { things, chars };
}

function openGraph(doc: { querySelectorAll(s: string): Iterable<El> }, out: Candidate[]): void {
  for (const m of doc.querySelectorAll('meta[property][content]')) {
    const prop = clean(m.getAttribute('property')).toLowerCase();
    const value = clean(m.getAttribute('content'));
    if (!value || !/^(og|product|article|book|profile|business|place|music|video):/.test(prop)) continue;
    const parts = prop.split(':');
    // og:title is "title"; product:price:amount is price.amount.
    out.push({ path: parts[0] === 'og' ? parts.slice(1) : parts.slice(1).length ? parts.slice(1) : parts, value, source: 'opengraph' });
  }
}

function tables(doc: { querySelectorAll(s: string): Iterable<El> }, out: Candidate[]): void {
  for (const table of doc.querySelectorAll('table')) {
    const rows = [...table.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('th,td')].map((c) => ({ text: clean(c.textContent), th: c.tagName.toLowerCase() === 'th' })));
    if (rows.length === 0) continue;
    const header = rows[0]!;
    const keyValue = rows.every((r) => r.length === 2) && !(header.length === 2 && header.every((c) => c.th) && rows.slice(1).every((r) => !r[0]!.th));
    if (keyValue) {
      // Two columns, a name and its value on each row.
      for (const r of rows) if (r[0]!.text && r[1]!.text) out.push({ path: [r[0]!.text.replace(/:$/, '')], value: r[1]!.text, source: 'table' });
    } else if (header.every((c) => c.th) || header.length > 2) {
      // A header row naming the columns, a record on each row below.
      for (const r of rows.slice(1)) r.forEach((c, i) => header[i]?.text && c.text && out.push({ path: [header[i]!.text], value: c.text, source: 'table' }));
    }
    if (out.length >= MAX_CANDIDATES) return;
  }
}

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'iframe', 'object']);
const BLOCK = /^(p|div|li|ul|ol|h[1-6]|tr|td|th|table|section|article|header|footer|nav|aside|main|br|hr|dd|dt|dl|blockquote|pre|address|figure|figcaption|form|label|option)$/;

function visibleText(root: unknown): string {
  const parts: string[] = [];
  const walk = (n: { nodeType: number; nodeValue?: string | null; tagName?: string; childNodes: ArrayLike<unknown> }) => {
    if (n.nodeType === 3) return void parts.push(n.nodeValue ?? '');
    if (n.nodeType !== 1 && n.nodeType !== 9 && n.nodeType !== 11) return;
    const tag = n.tagName?.toLowerCase() ?? '';
    if (SKIP.has(tag)) return;
    const block = BLOCK.test(tag);
    if (block) parts.push('\n');
    for (const c of Array.from(n.childNodes)) walk(c as typeof n);
    if (block) parts.push(tag === 'td' || tag === 'th' ? ' \t' : '\n');
  };
  walk(root as Parameters<typeof walk>[0]);
  return parts.join('').replace(/[ \t\u00a0]+/g, ' ').replace(/ *\n[\s]*/g, '\n').trim();
}

/** The page's base for its relative URLs: its <base href> against its own URL, else its own URL (if known). */
function baseOf(doc: Doc, url: string | undefined): string | undefined {
  const href = [...doc.querySelectorAll('base[href]')][0]?.getAttribute('href');
  if (!href) return url;
  try {
    return new URL(href, url).href;
  } catch {
    return url;
  }
}

/** Everything a page says in structure, and its visible text. `url`: the page's own, to resolve its links. */
export function readPage(html: string, url?: string): PageData {
  const { document } = parseHTML(html);
  const doc = document as unknown as Doc;
  lowerCaseAttributes(doc);
  const resolve = resolver(baseOf(doc, url));
  const budget = { left: MAX_THINGS };
  const ld = jsonLd(doc, resolve, budget);
  const things = [...ld.things, ...microdataThings(doc, resolve, budget), ...rdfaThings(doc, resolve, budget)];
  const candidates: Candidate[] = [];
  for (const t of things) flatten(t, [], candidates, new Set());
  openGraph(document as never, candidates);
  tables(document as never, candidates);
  return { things, candidates, text: visibleText(document.body ?? document), structuredChars: ld.chars };
}
