// The items a page describes in structured data, one shape for every syntax (JSON-LD, microdata, RDFa): an item's
// types, its identifier, and its properties, each a list of values (text, a number or boolean from JSON-LD, or a
// nested item). The parsers (jsonld.ts, microdata.ts, rdfa.ts) make them; records.ts fills fields from them.

export type ThingSource = 'json-ld' | 'microdata' | 'rdfa';
export type ThingValue = string | number | boolean | Thing;

export interface Thing {
  source: ThingSource;
  /** Local type names: "Person" for https://schema.org/Person. */
  types: string[];
  /** itemid, @id or RDFa resource: an absolute URL when the page's URL is known. */
  id?: string;
  /** Property name (local: "name" for https://schema.org/name or schema:name) → its values in document order. */
  props: Map<string, ThingValue[]>;
  /** The item's own text (its element's, whitespace collapsed), what stands for it when it has no name. */
  text?: string;
}

export const isThing = (v: unknown): v is Thing => typeof v === 'object' && v !== null && 'props' in v;

export const collapse = (s: string | null | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim();

/** "https://schema.org/Person", "schema:Person", "http://schema.org/name#x" → the last name in it. */
export function localName(term: string): string {
  const t = term.trim();
  const cut = Math.max(t.lastIndexOf('/'), t.lastIndexOf('#'), /^[A-Za-z][\w.-]*:(?!\/\/)/.test(t) ? t.indexOf(':') : -1);
  return cut >= 0 ? t.slice(cut + 1) : t;
}

export function addValue(thing: Thing, prop: string, value: ThingValue): void {
  const list = thing.props.get(prop);
  if (list) list.push(value);
  else thing.props.set(prop, [value]);
}

/** A URL as the page means it: resolved against its base when one is known, else as written. */
export function resolver(base: string | undefined): (href: string) => string {
  return (href) => {
    const h = href.trim();
    if (!base) return h;
    try {
      return new URL(h, base).href;
    } catch {
      return h;
    }
  };
}

/** What stands for an item where a text is asked: its name, else its URL, identifier, value or own text. */
export function labelOf(t: Thing): string | number | boolean | undefined {
  for (const key of ['name', 'url', '@value']) {
    const v = t.props.get(key)?.find((x) => !isThing(x));
    if (v !== undefined && v !== '') return v as string | number | boolean;
  }
  return t.id ?? (t.text || undefined);
}

/** Every item, nested ones included, each once (an item may be the value of several properties). */
export function allThings(roots: Thing[]): Thing[] {
  const seen = new Set<Thing>();
  const walk = (t: Thing) => {
    if (seen.has(t)) return;
    seen.add(t);
    for (const vs of t.props.values()) for (const v of vs) if (isThing(v)) walk(v);
  };
  roots.forEach(walk);
  return [...seen];
}
