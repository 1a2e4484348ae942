// The crawl's URLs (site.ts): a URL without its fragment, and the same-origin links of a page a crawler follows.
import type { parseHTML } from 'linkedom';

/** A URL without its fragment: the crawl's key for a page. */
export const key = (u: string | URL): string => {
  const x = new URL(u);
  x.hash = '';
  return x.href;
};

export /** Same-origin http(s) links of a page, resolved against it, without fragments. */
function linksOf(doc: ReturnType<typeof parseHTML>['document'], base: string, origin: string): string[] {
  const out = new Set<string>();
  for (const a of [...doc.querySelectorAll('a[href]')]) {
    const href = (a.getAttribute('href') ?? '').trim();
    if (!href || href.startsWith('#') || /^(mailto|tel|javascript|data):/i.test(href)) continue;
    const rel = (a.getAttribute('rel') ?? '').toLowerCase();
    if (rel.split(/\s+/).includes('nofollow')) continue;
    try {
      const u = new URL(href, base);
      if (u.origin === origin && (u.protocol === 'http:' || u.protocol === 'https:')) out.add(key(u));
    } catch {
      /* an unparsable href: the quick audit's link checks speak of links */
    }
  }
  return [...out];
}
