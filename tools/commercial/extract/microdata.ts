// Microdata as items, by the HTML standard's algorithm (WHATWG HTML §5.2 "Microdata"): a top-level item is an
// element with itemscope and no itemprop; an item's properties are found by crawling its children and the elements
// its itemref names, not descending into nested items; a property's value is a nested item (itemscope), or by
// element: meta → content; audio, embed, iframe, img, source, track, video → src; a, area, link → href; object →
// data (these URLs resolved against the page's base); data, meter → value; time → datetime, else its text; any
// other element its text. A `content` attribute on any element wins, as the search engines' readers do. itemtype's
// and itemprop's URLs are read as their local names ("https://schema.org/name" is "name").
import { tag, tokens, treeOrder, type Doc, type El } from './dom.js';
import { addValue, collapse, localName, type Thing, type ThingValue } from './things.js';

const SRC = new Set(['audio', 'embed', 'iframe', 'img', 'source', 'track', 'video']);
const HREF = new Set(['a', 'area', 'link']);

function propertyValue(el: El, resolve: (href: string) => string): string {
  const t = tag(el);
  if (el.hasAttribute('content')) return el.getAttribute('content') ?? '';
  if (SRC.has(t)) return el.hasAttribute('src') ? resolve(el.getAttribute('src')!) : '';
  if (HREF.has(t)) return el.hasAttribute('href') ? resolve(el.getAttribute('href')!) : '';
  if (t === 'object') return el.hasAttribute('data') ? resolve(el.getAttribute('data')!) : '';
  if (t === 'data' || t === 'meter') return el.getAttribute('value') ?? '';
  if (t === 'time' && el.hasAttribute('datetime')) return el.getAttribute('datetime') ?? '';
  return el.textContent ?? '';
}

export function microdataThings(doc: Doc, resolve: (href: string) => string, budget: { left: number }): Thing[] {
  const root = doc.documentElement;
  if (!root) return [];
  let order: Map<El, number> | undefined; // tree positions, computed only when some itemref needs sorting
  const byId = new Map<string, El>();
  for (const el of doc.querySelectorAll('[id]')) if (!byId.has(el.getAttribute('id')!)) byId.set(el.getAttribute('id')!, el);
  const made = new Map<El, Thing>();
  /** Elements on the way, so that an itemref loop (an item that is its own property) stops. */
  const building = new Set<El>();

  /**
   * The elements that are properties of the item `scope`, in tree order (the standard's crawl): depth first from
   * its children, which is tree order already; the subtrees its itemref names are added and then sorted.
   */
  function propertiesOf(scope: El): El[] {
    const results: El[] = [];
    const memory = new Set<El>([scope]);
    const refs = tokens(scope.getAttribute('itemref'))
      .map((id) => byId.get(id))
      .filter((e): e is El => !!e);
    const pending: El[] = [...refs.reverse(), ...Array.from(scope.children).reverse()];
    while (pending.length) {
      const current = pending.pop()!;
      if (memory.has(current)) continue;
      memory.add(current);
      if (tokens(current.getAttribute('itemprop')).length) results.push(current);
      if (!current.hasAttribute('itemscope')) {
        const kids = current.children;
        for (let i = kids.length - 1; i >= 0; i--) pending.push(kids[i]!);
      }
    }
    if (!refs.length) return results;
    order ??= treeOrder(root!);
    return results.sort((a, b) => (order!.get(a) ?? 0) - (order!.get(b) ?? 0));
  }

  function itemOf(el: El): Thing {
    const known = made.get(el);
    if (known) return known;
    budget.left--;
    const id = el.getAttribute('itemid');
    const thing: Thing = { source: 'microdata', types: tokens(el.getAttribute('itemtype')).map(localName), props: new Map(), text: collapse(el.textContent), ...(id ? { id: resolve(id) } : {}) };
    made.set(el, thing);
    building.add(el);
    for (const p of propertiesOf(el)) {
      if (budget.left <= 0) break;
      let value: ThingValue;
      if (p.hasAttribute('itemscope')) {
        if (building.has(p)) continue; // an item among its own properties: the standard calls it an error
        value = itemOf(p);
      } else value = collapse(propertyValue(p, resolve));
      for (const name of tokens(p.getAttribute('itemprop'))) addValue(thing, localName(name), value);
    }
    building.delete(el);
    return thing;
  }

  const top: Thing[] = [];
  const inside = new Set<Thing>();
  for (const el of doc.querySelectorAll('[itemscope]')) {
    if (budget.left <= 0) break;
    const t = itemOf(el);
    if (!el.hasAttribute('itemprop')) top.push(t);
  }
  // An item with itemprop that no item took as a property (an itemprop outside any item) stands on its own.
  for (const t of made.values()) for (const vs of t.props.values()) for (const v of vs) if (typeof v === 'object') inside.add(v);
  for (const [el, t] of made) if (el.hasAttribute('itemprop') && !inside.has(t)) top.push(t);
  return top;
}
