// Page signals read the way Lighthouse reads them: indexing directives, language tags, images' text alternatives and
// the canonical URL (the quick audit's indexable, lang, hreflang, image_alt and canonical checks).
import { all, bad, list, ok, quote, type Doc, type El } from './page-dom.js';

/** noindex, none, or an unavailable_after date already past (as Lighthouse's is-crawlable reads directives). */
export function blocksIndexing(directives: string): boolean {
  if (/\b(noindex|none)\b/i.test(directives)) return true;
  const after = /unavailable_after\s*:\s*([^,]+)/i.exec(directives);
  const when = after ? Date.parse(after[1]!.trim()) : NaN;
  return !Number.isNaN(when) && when < Date.now();
}

export const LANG = /^([a-z]{2,3})(-[a-z]{4})?(-([a-z]{2}|\d{3}))?$/i;

/** An image's text alternative as axe's image-alt (Lighthouse) accepts it: alt (empty for decoration), an ARIA
 * label, a title, a presentational role, or hidden from assistive technology. */
export function hasTextAlternative(img: El): boolean {
  if (img.hasAttribute('alt')) return true;
  if ((img.getAttribute('aria-label') ?? '').trim() || (img.getAttribute('aria-labelledby') ?? '').trim() || (img.getAttribute('title') ?? '').trim()) return true;
  return ['presentation', 'none'].includes((img.getAttribute('role') ?? '').trim().toLowerCase()) || img.getAttribute('aria-hidden') === 'true';
}

/** One canonical URL, absolute, and not one of Lighthouse's common mistakes (the root for an inner page, another
 * language's page). Links in the body are not read, as search engines do not. */
export function canonicalVerdict(finalUrl: string, doc: Doc): { passed: boolean; evidence: string } {
  const links = all(doc, 'head link').filter((l) => (l.getAttribute('rel') ?? '').toLowerCase().split(/\s+/).includes('canonical'));
  const hrefs = links.map((l) => (l.getAttribute('href') ?? '').trim()).filter(Boolean);
  if (!hrefs.length) return bad(links.length ? 'The canonical link has no href.' : 'No <link rel="canonical">.');
  const urls = new Set<string>();
  for (const href of hrefs) {
    if (URL.canParse(href)) urls.add(new URL(href).href);
    else if (URL.canParse(href, finalUrl)) return bad(`The canonical URL is relative: ${quote(href)}; search engines want it absolute.`);
    else return bad(`The canonical href is not a URL: ${quote(href)}.`);
  }
  if (urls.size > 1) return bad(`${urls.size} different canonical URLs: ${list([...urls])}.`);
  const canonical = new URL([...urls][0]!);
  const here = new URL(finalUrl);
  const alternates = new Set(
    all(doc, 'head link[hreflang]')
      .filter((l) => (l.getAttribute('rel') ?? '').toLowerCase() === 'alternate' && URL.canParse(l.getAttribute('href') ?? '', finalUrl))
      .map((l) => new URL(l.getAttribute('href')!, finalUrl).href),
  );
  if (alternates.has(here.href) && alternates.has(canonical.href) && canonical.href !== here.href) return bad(`The canonical ${canonical.href} is another language's page (an hreflang alternate), not this one.`);
  if (canonical.origin === here.origin && canonical.pathname === '/' && here.pathname !== '/') return bad(`The canonical points at the site's root (${canonical.href}), not at this page.`);
  return ok(`Canonical: ${canonical.href}.`);
}
