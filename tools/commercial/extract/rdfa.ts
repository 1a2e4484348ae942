// RDFa as items: RDFa Lite 1.1 (vocab, typeof, property, resource, prefix) and the parts of RDFa Core 1.1 that
// schema.org's examples use beside it (rel with its pending links, about, href/src, content, datatype), walked as
// the processing rules walk the tree. typeof starts a new item: the value of the property (or rel) on the same
// element, or of an ancestor's rel still waiting for its object, or a top-level item otherwise; property adds a
// value to the current item: `content`, else (without datatype) the URL of resource, href or src, else a time's
// datetime, else the element's text. A literal does not stop the walk: properties inside it still belong to the
// current item. Terms, CURIEs (schema:name, with prefix or the usual schema/og prefixes) and URLs are read as
// their local names; nothing is expanded into triples.
import { tag, tokens, type Doc, type El } from './dom.js';
import { addValue, collapse, localName, type Thing, type ThingValue } from './things.js';

interface Context {
  subject: Thing | null;
  /** Inside an element with `vocab`: a property outside any item is the page's own (RDFa's initial subject). */
  vocab: boolean;
  /** rel names waiting for the next item below to be their value (RDFa's incomplete triples). */
  pending: string[];
}

function literal(el: El, resolve: (href: string) => string): string {
  if (el.hasAttribute('content')) return el.getAttribute('content') ?? '';
  if (!el.hasAttribute('datatype')) {
    for (const a of ['resource', 'href', 'src']) if (el.hasAttribute(a)) return resolve(el.getAttribute(a)!);
  }
  if (tag(el) === 'time' && el.hasAttribute('datetime')) return el.getAttribute('datetime') ?? '';
  return el.textContent ?? '';
}

export function rdfaThings(doc: Doc, resolve: (href: string) => string, budget: { left: number }): Thing[] {
  const root = doc.documentElement;
  if (!root) return [];
  const top: Thing[] = [];
  // The page itself, the subject of properties outside any item (under a vocab: OpenGraph's <meta property> in
  // the head has none, and is read as OpenGraph).
  const pageThing: Thing = { source: 'rdfa', types: [], props: new Map() };
  const link = (ctx: Context, names: string[], value: ThingValue): boolean => {
    if (!ctx.subject || !names.length) return false;
    for (const n of names) addValue(ctx.subject, localName(n), value);
    return true;
  };
  // Iterative, so that a deep page cannot overflow the stack.
  const stack: [El, Context][] = [[root, { subject: null, vocab: false, pending: [] }]];
  while (stack.length) {
    const [el, parent] = stack.pop()!;
    const vocab = parent.vocab || el.hasAttribute('vocab');
    const ctx: Context = { ...parent, vocab, subject: parent.subject ?? (vocab ? pageThing : null) };
    const props = tokens(el.getAttribute('property'));
    const rels = tokens(el.getAttribute('rel'));
    const hasRev = el.hasAttribute('rev');
    let child: Context = { subject: parent.subject, vocab, pending: [] };
    if (el.hasAttribute('typeof') && budget.left > 0) {
      budget.left--;
      const about = el.getAttribute('resource') ?? el.getAttribute('about') ?? (props.length || rels.length ? (el.getAttribute('href') ?? el.getAttribute('src')) : null);
      const thing: Thing = { source: 'rdfa', types: tokens(el.getAttribute('typeof')).map(localName), props: new Map(), text: collapse(el.textContent), ...(about ? { id: resolve(about) } : {}) };
      const linked = props.length ? link(ctx, props, thing) : rels.length ? link(ctx, rels, thing) : !hasRev && link(ctx, ctx.pending, thing);
      if (!linked) top.push(thing);
      child = { subject: thing, vocab, pending: [] };
    } else {
      if (props.length) link(ctx, props, collapse(literal(el, resolve)));
      if (rels.length) {
        const target = el.getAttribute('resource') ?? el.getAttribute('href') ?? el.getAttribute('src');
        if (target !== null) link(ctx, rels, resolve(target));
        else child.pending = rels;
      } else if (ctx.pending.length && !el.hasAttribute('about')) child.pending = ctx.pending; // still waiting for an item
    }
    const kids = Array.from(el.children);
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i]!, child]);
  }
  if (pageThing.props.size) top.push(pageThing);
  return top;
}
