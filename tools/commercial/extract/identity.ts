// Items that are the same thing by identifier: in RDF (which microdata and RDFa are written in, and JSON-LD
// read as) a node is its IRI, so every item with the same itemid, @id or RDFa subject describes one thing, and a
// link to that IRI (<link itemprop="hasPart" href="#book1">) points at it. Where an object is asked (records.ts),
// an item with an identifier is read as the union of every item of its syntax with that identifier, and a URL as
// the item it identifies. Where a text is asked, what the page wrote at that place stands for it (labelOf): a
// reference (<link itemprop="isPartOf" itemscope itemid="…">) is its URL, not the name found elsewhere.
import { allThings, type Thing, type ThingValue } from './things.js';

/** The key of an item's identifier within its syntax (a URL in microdata names microdata's items only). */
export const idKey = (source: string, id: string): string => `${source} ${id}`;

/** Every identified item (nested ones included) grouped by idKey, in the order met. */
function groupsById(roots: Thing[]): Map<string, Thing[]> {
  const groups = new Map<string, Thing[]>();
  for (const t of allThings(roots)) {
    if (!t.id) continue;
    const key = idKey(t.source, t.id);
    const group = groups.get(key);
    if (group) group.push(t);
    else groups.set(key, [t]);
  }
  return groups;
}

/** Each identifier's item by idKey: the item itself, or the union (types, properties) of the items sharing it. */
export function mergedById(roots: Thing[]): Map<string, Thing> {
  const byId = new Map<string, Thing>();
  for (const [key, group] of groupsById(roots)) {
    if (group.length === 1) {
      byId.set(key, group[0]!);
      continue;
    }
    // The item that describes the thing (most properties) leads, a reference to it (an itemid alone) follows: its
    // types and text come first where one is asked.
    group.sort((a, b) => b.props.size - a.props.size);
    const props = new Map<string, ThingValue[]>();
    for (const t of group) {
      for (const [name, values] of t.props) {
        const list = props.get(name) ?? [];
        for (const v of values) if (!list.includes(v)) list.push(v);
        props.set(name, list);
      }
    }
    const types = [...new Set(group.flatMap((t) => t.types))];
    byId.set(key, { ...group[0]!, types, props, text: group.find((t) => t.text)?.text });
  }
  return byId;
}

/** The item to read an object from: an item as all its identifier's items say, a URL as the item it identifies. */
export function itemFor(v: ThingValue, source: string, byId: Map<string, Thing> | undefined): Thing | undefined {
  if (typeof v === 'object') return (v.id && byId?.get(idKey(v.source, v.id))) || v;
  return typeof v === 'string' ? byId?.get(idKey(source, v)) : undefined;
}
