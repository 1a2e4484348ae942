// Structured data already in a page, read with a DOM (linkedom, as browse reads pages): JSON-LD, microdata,
// OpenGraph and tables, each value a candidate named by its key path; and the page's visible text, block by
// block, for the entity engines.
import { parseHTML } from 'linkedom';

export type StructuredSource = 'json-ld' | 'microdata' | 'opengraph' | 'table';

export interface Candidate {
  /** The key's path, e.g. ['offers', 'price'] or ['author']. */
  path: string[];
  value: string | number | boolean;
  source: StructuredSource;
}

export interface PageData {
  candidates: Candidate[];
  /** The visible text, blocks on lines of their own. */
  text: string;
  /** Characters of JSON-LD read (metered with the text). */
  structuredChars: number;
}

type El = { tagName: string; getAttribute(n: string): string | null; hasAttribute(n: string): boolean; textContent: string | null; childNodes: ArrayLike<unknown>; parentElement: El | null; querySelectorAll(s: string): Iterable<El> };

const clean = (s: string | null | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim();
const MAX_CANDIDATES = 5000;

function fromJson(value: unknown, path: string[], out: Candidate[], depth = 0): void {
  if (out.length >= MAX_CANDIDATES || depth > 8) return;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    if (path.length && (typeof value !== 'string' || value.trim())) out.push({ path, value: typeof value === 'string' ? value.trim() : value, source: 'json-ld' });
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) fromJson(v, path, out, depth + 1);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const o = value as Record<string, unknown>;
  // A nested thing (an author, a publisher) also stands for its parent key by its name, or its value or URL.
  const label = o.name ?? o['@value'] ?? o.url;
  if (path.length && (typeof label === 'string' || typeof label === 'number')) fromJson(label, path, out, depth + 1);
  for (const [k, v] of Object.entries(o)) {
    if (k === '@context' || k === '@id') continue;
    if (k === '@graph') fromJson(v, path, out, depth + 1);
    else fromJson(v, [...path, k.replace(/^@/, '')], out, depth + 1);
  }
}

function jsonLd(doc: { querySelectorAll(s: string): Iterable<El> }, out: Candidate[]): number {
  let chars = 0;
  for (const s of doc.querySelectorAll('script[type="application/ld+json"]')) {
    const raw = s.textContent ?? '';
    chars += raw.length;
    try {
      fromJson(JSON.parse(raw), [], out);
    } catch {
      // a block that is not JSON says nothing
    }
  }
  return chars;
}

function itemValue(el: El): string {
  const tag = el.tagName.toLowerCase();
  if (el.hasAttribute('content')) return el.getAttribute('content') ?? '';
  if ((tag === 'a' || tag === 'link' || tag === 'area') && el.hasAttribute('href')) return el.getAttribute('href') ?? '';
  if ((tag === 'img' || tag === 'audio' || tag === 'video' || tag === 'source') && el.hasAttribute('src')) return el.getAttribute('src') ?? '';
  if ((tag === 'time' || tag === 'data' || tag === 'meter') && (el.hasAttribute('datetime') || el.hasAttribute('value'))) return el.getAttribute('datetime') ?? el.getAttribute('value') ?? '';
  return el.textContent ?? '';
}

function microdata(doc: { querySelectorAll(s: string): Iterable<El> }, out: Candidate[]): void {
  for (const el of doc.querySelectorAll('[itemprop]')) {
    if (out.length >= MAX_CANDIDATES) return;
    const parents: string[] = [];
    for (let p = el.parentElement; p; p = p.parentElement) if (p.hasAttribute('itemprop') && p.hasAttribute('itemscope')) parents.unshift(clean(p.getAttribute('itemprop')).split(' ')[0]!);
    // An item of its own (an author with itemscope) stands for its key by its name, as in JSON-LD.
    const own = el.hasAttribute('itemscope') ? clean([...el.querySelectorAll('[itemprop~="name"]')][0]?.textContent) : clean(itemValue(el));
    if (!own) continue;
    for (const prop of clean(el.getAttribute('itemprop')).split(' ')) if (prop) out.push({ path: [...parents, prop], value: own, source: 'microdata' });
  }
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

/** Everything a page says in structure, and its visible text. */
export function readPage(html: string): PageData {
  const { document } = parseHTML(html);
  const candidates: Candidate[] = [];
  const structuredChars = jsonLd(document as never, candidates);
  microdata(document as never, candidates);
  openGraph(document as never, candidates);
  tables(document as never, candidates);
  return { candidates, text: visibleText(document.body ?? document), structuredChars };
}
