// The little of a DOM element the structured-data readers use (linkedom's elements have it).
export interface El {
  tagName: string;
  getAttribute(n: string): string | null;
  hasAttribute(n: string): boolean;
  textContent: string | null;
  children: ArrayLike<El>;
  parentElement: El | null;
  querySelectorAll(s: string): Iterable<El>;
}

export interface Doc {
  querySelectorAll(s: string): Iterable<El>;
  documentElement: El | null;
}

/** Every element under `root` in tree order, with its position (for sorting in tree order). */
export function treeOrder(root: El): Map<El, number> {
  const order = new Map<El, number>();
  const stack: El[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    order.set(el, order.size);
    const kids = Array.from(el.children);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return order;
}

export const tag = (el: El): string => el.tagName.toLowerCase();
export const tokens = (s: string | null): string[] => (s ?? '').trim().split(/\s+/).filter(Boolean);

/**
 * HTML attribute names are case-insensitive (typeOf is typeof, ItemScope itemscope) but linkedom keeps them as
 * written: they are lower-cased once, so that the readers' lookups find them.
 */
export function lowerCaseAttributes(doc: { querySelectorAll(s: string): Iterable<unknown> }): void {
  type Attr = { name: string; value: string };
  type Writable = { attributes: ArrayLike<Attr>; removeAttribute(n: string): void; setAttribute(n: string, v: string): void; hasAttribute(n: string): boolean };
  for (const el of doc.querySelectorAll('*') as Iterable<Writable>) {
    for (const a of Array.from(el.attributes)) {
      const lower = a.name.toLowerCase();
      if (lower === a.name) continue;
      const value = a.value;
      el.removeAttribute(a.name);
      if (!el.hasAttribute(lower)) el.setAttribute(lower, value);
    }
  }
}
