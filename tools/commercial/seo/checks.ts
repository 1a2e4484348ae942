// The quick audit's checks (docs/decisions/commercial-seo.md): each reads the fetched page (its DOM by linkedom,
// its headers, its redirects and timing) and says pass or fail with the evidence. Each has a weight by impact;
// the weights sum to 100, so the score is the weights of the checks passed. The fixes are the failed checks
// ordered by weight × ease (ease 3 for a quick edit of the page's head, 1 for work on the site itself).
import { parseHTML } from 'linkedom';
import { EASE, type CheckResult, type Effort, type QuickAudit } from './audit-types.js';
import { isValidLang } from 'lighthouse/third-party/axe/valid-langs.js';
import { itemProblems } from './json-ld.js';
import { isVagueText, judgedLink, uncrawlable } from './links.js';
import { all, bad, list, metaContent, ok, quote, text, type Doc, type El } from './page-dom.js';
import { blocksIndexing, canonicalVerdict, hasTextAlternative, LANG } from './page-signals.js';

export type { CheckResult, Effort, Fix, QuickAudit } from './audit-types.js';

/** What the audit reads of one fetched page. */
export interface Page {
  /** The URL asked for. */
  url: string;
  /** The URL answered at, after redirects. */
  finalUrl: string;
  status: number;
  /** URLs redirected to, in order. */
  redirects: string[];
  /** Response headers, lower-case names. */
  headers: Record<string, string>;
  html: string;
  /** Bytes of the HTML document as sent. */
  bytes: number;
  /** Time from the first request to the last byte, redirects included. */
  elapsedMs: number;
}

interface Ctx {
  page: Page;
  doc: Doc;
}

interface CheckDef {
  id: string;
  title: string;
  weight: number;
  effort: Effort;
  fix: string;
  run(c: Ctx): { passed: boolean; evidence: string };
}

/** Limits the checks hold pages to (the decisions doc gives the reasons). */
export const LIMITS = { titleMin: 10, titleMax: 60, descriptionMin: 50, descriptionMax: 160, maxRedirects: 1, htmlBytes: 100 * 1024, responseMs: 800 } as const;



export const CHECKS: CheckDef[] = [
  {
    id: 'status',
    title: 'The page answers 200',
    weight: 10,
    effort: 'medium',
    fix: 'Serve the page with status 200 (not another 2xx such as 203 or 204).',
    run: ({ page }) => (page.status === 200 ? ok(`${page.finalUrl} answered 200.`) : bad(`${page.finalUrl} answered ${page.status}.`)),
  },
  {
    id: 'indexable',
    title: 'Search engines may index the page (robots meta and X-Robots-Tag)',
    weight: 10,
    effort: 'low',
    fix: 'Remove noindex (or none) from the robots meta tag and the X-Robots-Tag header if the page should be found.',
    run: ({ page, doc }) => {
      const found: string[] = [];
      const header = page.headers['x-robots-tag'];
      if (header && blocksIndexing(header)) found.push(`X-Robots-Tag: ${header}`);
      for (const name of ['robots', 'googlebot']) for (const c of metaContent(doc, 'name', name)) if (blocksIndexing(c)) found.push(`<meta name="${name}" content="${c}">`);
      return found.length ? bad(`Not indexable: ${found.join('; ')}.`) : ok(`No noindex in the robots meta tag${header ? ` or X-Robots-Tag (${header})` : ' and no X-Robots-Tag'}.`);
    },
  },
  {
    id: 'title',
    title: `A title of ${LIMITS.titleMin}–${LIMITS.titleMax} characters`,
    weight: 9,
    effort: 'low',
    fix: `Give the page one <title> of ${LIMITS.titleMin} to ${LIMITS.titleMax} characters that says what it is about.`,
    run: ({ doc }) => {
      const t = text(doc.querySelector('head title') ?? doc.querySelector('title'));
      if (!t) return bad('No <title>, or an empty one.');
      const n = [...t].length;
      if (n < LIMITS.titleMin || n > LIMITS.titleMax) return bad(`The title is ${n} characters: ${quote(t)}.`);
      return ok(`The title is ${n} characters: ${quote(t)}.`);
    },
  },
  {
    id: 'https',
    title: 'Served over HTTPS',
    weight: 8,
    effort: 'medium',
    fix: 'Serve the page over HTTPS and redirect HTTP to it in one hop.',
    run: ({ page }) => (new URL(page.finalUrl).protocol === 'https:' ? ok(`Answered at ${page.finalUrl}.`) : bad(`Answered over plain HTTP at ${page.finalUrl}.`)),
  },
  {
    id: 'meta_description',
    title: `A meta description of ${LIMITS.descriptionMin}–${LIMITS.descriptionMax} characters`,
    weight: 7,
    effort: 'low',
    fix: `Add <meta name="description"> of ${LIMITS.descriptionMin} to ${LIMITS.descriptionMax} characters summing up the page (it is the snippet under the title in results).`,
    run: ({ doc }) => {
      const d = metaContent(doc, 'name', 'description')[0];
      if (!d) return bad('No <meta name="description">, or an empty one.');
      const n = [...d].length;
      if (n < LIMITS.descriptionMin || n > LIMITS.descriptionMax) return bad(`The description is ${n} characters: ${quote(d)}.`);
      return ok(`The description is ${n} characters.`);
    },
  },
  {
    id: 'h1',
    title: 'Exactly one H1',
    weight: 6,
    effort: 'low',
    fix: 'Use exactly one <h1>, naming the page’s subject; make other headings H2 to H6.',
    run: ({ doc }) => {
      const h1s = all(doc, 'h1').map((h) => text(h));
      if (h1s.length === 1) return ok(`One H1: ${quote(h1s[0]!)}.`);
      return bad(h1s.length ? `${h1s.length} H1s: ${list(h1s.map((h) => quote(h, 40)))}.` : 'No H1.');
    },
  },
  {
    id: 'viewport',
    title: 'A mobile viewport',
    weight: 6,
    effort: 'low',
    fix: 'Add <meta name="viewport" content="width=device-width, initial-scale=1">.',
    run: ({ doc }) => {
      const v = metaContent(doc, 'name', 'viewport')[0];
      if (!v) return bad('No <meta name="viewport">.');
      return /width\s*=\s*device-width/i.test(v) ? ok(`viewport: ${v}.`) : bad(`The viewport does not follow the device width: ${v}.`);
    },
  },
  {
    id: 'redirects',
    title: `At most ${LIMITS.maxRedirects} redirect before the page`,
    weight: 5,
    effort: 'medium',
    fix: 'Link and redirect straight to the final URL: a chain of redirects slows crawling and loses link signals.',
    run: ({ page }) => {
      const chain = [page.url, ...page.redirects].join(' → ');
      if (!page.redirects.length) return ok('No redirect.');
      return page.redirects.length <= LIMITS.maxRedirects ? ok(`One redirect: ${chain}.`) : bad(`${page.redirects.length} redirects: ${chain}.`);
    },
  },
  {
    id: 'canonical',
    title: 'One canonical URL',
    weight: 5,
    effort: 'low',
    fix: 'Add one <link rel="canonical" href="…"> in the head with the page’s absolute preferred URL (not a relative one, not the site’s root for an inner page).',
    run: ({ page, doc }) => canonicalVerdict(page.finalUrl, doc),
  },
  {
    id: 'structured_data',
    title: 'JSON-LD that parses and has its type’s required properties',
    weight: 5,
    effort: 'medium',
    fix: 'Add schema.org JSON-LD (<script type="application/ld+json">) that is valid JSON and has the required properties of its @type.',
    run: ({ doc }) => {
      const blocks = all(doc, 'script').filter((s) => (s.getAttribute('type') ?? '').trim().toLowerCase() === 'application/ld+json');
      if (!blocks.length) return bad('No JSON-LD.');
      const problems: string[] = [];
      const types: string[] = [];
      blocks.forEach((b, i) => {
        let data: unknown;
        try {
          data = JSON.parse(b.textContent ?? '');
        } catch (err) {
          problems.push(`block ${i + 1} is not JSON (${(err as Error).message})`);
          return;
        }
        for (const item of ([] as unknown[]).concat(data)) {
          const t = (item as Record<string, unknown> | null)?.['@type'];
          if (typeof t === 'string') types.push(t);
        }
        itemProblems(data, `block ${i + 1}`, problems);
      });
      return problems.length ? bad(`${list(problems)}.`) : ok(`${blocks.length} JSON-LD block${blocks.length > 1 ? 's' : ''}${types.length ? ` (${list(types)})` : ''}, complete.`);
    },
  },
  {
    id: 'image_alt',
    title: 'Every image has alt text',
    weight: 5,
    effort: 'medium',
    fix: 'Give every <img> an alt attribute: what the image shows, or alt="" for a decorative one.',
    run: ({ doc }) => {
      const imgs = all(doc, 'img');
      const missing = imgs.filter((i) => !hasTextAlternative(i)).map((i) => i.getAttribute('src') ?? '(no src)');
      if (!imgs.length) return ok('No images.');
      return missing.length ? bad(`${missing.length} of ${imgs.length} images have no alt: ${list(missing)}.`) : ok(`All ${imgs.length} images have alt.`);
    },
  },
  {
    id: 'response_time',
    title: `The page arrives within ${LIMITS.responseMs} ms`,
    weight: 4,
    effort: 'high',
    fix: 'Make the server answer faster (caching, a CDN, less work per request).',
    run: ({ page }) => {
      const ms = Math.round(page.elapsedMs);
      return ms <= LIMITS.responseMs ? ok(`${ms} ms to the last byte.`) : bad(`${ms} ms to the last byte.`);
    },
  },
  {
    id: 'link_text',
    title: 'Links say where they go',
    weight: 3,
    effort: 'medium',
    fix: 'Give every link text (or an aria-label, or an image alt) that names its target, not “click here”.',
    run: ({ page, doc }) => {
      // As Lighthouse's link-text: nofollow, javascript:, mailto: and same-page links are not judged.
      const links = all(doc, 'a[href]').filter((a) => judgedLink(a, page.finalUrl));
      const poor: string[] = [];
      for (const a of links) {
        const label = text(a) || (a.getAttribute('aria-label') ?? '').trim() || (a.getAttribute('title') ?? '').trim() || ([...a.querySelectorAll('img[alt]')] as El[]).map((i) => (i.getAttribute('alt') ?? '').trim()).join(' ').trim();
        const lang = a.closest('[lang]')?.getAttribute('lang') ?? null;
        if (!label) poor.push(`${a.getAttribute('href')} (no text)`);
        else if (isVagueText(text(a) || label, lang)) poor.push(`${a.getAttribute('href')} (${quote(label)})`);
      }
      if (!links.length) return ok('No links.');
      return poor.length ? bad(`${poor.length} of ${links.length} links: ${list(poor)}.`) : ok(`All ${links.length} links have descriptive text.`);
    },
  },
  {
    id: 'crawlable_anchors',
    title: 'Links are anchors a crawler can follow',
    weight: 3,
    effort: 'medium',
    fix: 'Make every link an <a href="…"> with a real URL; a javascript:void(0) href, or a click handler with no href, is invisible to crawlers (use a <button> for actions).',
    run: ({ page, doc }) => {
      const anchors = all(doc, 'a');
      const bad_: string[] = [];
      for (const a of anchors) {
        const why = uncrawlable(a, page.finalUrl);
        if (why) bad_.push(`${quote(text(a) || (a.getAttribute('href') ?? '(no href)'), 40)} (${why})`);
      }
      if (!anchors.length) return ok('No anchors.');
      return bad_.length ? bad(`${bad_.length} of ${anchors.length} anchors cannot be crawled: ${list(bad_)}.`) : ok(`All ${anchors.length} anchors can be crawled.`);
    },
  },
  {
    id: 'heading_order',
    title: 'Headings descend without skipping a level',
    weight: 3,
    effort: 'medium',
    fix: 'Order headings H1 → H2 → H3 without skipping a level (an H4 under an H2 needs an H3 between).',
    run: ({ doc }) => {
      const levels = all(doc, 'h1,h2,h3,h4,h5,h6').map((h) => ({ level: Number(h.tagName.slice(1)), text: text(h) }));
      const skips: string[] = [];
      let prev = 0;
      for (const h of levels) {
        if (prev && h.level > prev + 1) skips.push(`H${prev} → H${h.level} (${quote(h.text, 40)})`);
        prev = h.level;
      }
      if (!levels.length) return bad('No headings.');
      return skips.length ? bad(`Skipped levels: ${list(skips)}.`) : ok(`${levels.length} headings in order: ${levels.map((h) => `H${h.level}`).join(' ')}.`);
    },
  },
  {
    id: 'duplicate_tags',
    title: 'One title and one description, not the same text',
    weight: 3,
    effort: 'low',
    fix: 'Keep one <title> and one meta description per page, each written for its purpose (not copies of each other).',
    run: ({ doc }) => {
      const titles = all(doc, 'title').map((t) => text(t));
      const descriptions = metaContent(doc, 'name', 'description');
      const problems: string[] = [];
      if (titles.length > 1) problems.push(`${titles.length} <title> elements`);
      if (descriptions.length > 1) problems.push(`${descriptions.length} meta descriptions`);
      if (titles[0] && descriptions[0] && titles[0].toLowerCase() === descriptions[0].toLowerCase()) problems.push('the description repeats the title');
      return problems.length ? bad(`${problems.join('; ')}.`) : ok(`${titles.length} title, ${descriptions.length} description${titles.length && descriptions.length ? ', different' : ''}.`);
    },
  },
  {
    id: 'lang',
    title: 'The page’s language is declared',
    weight: 3,
    effort: 'low',
    fix: 'Declare the language on the root element: <html lang="en">.',
    run: ({ doc }) => {
      const lang = (doc.documentElement?.getAttribute('lang') ?? '').trim();
      if (!lang) return bad('No lang on <html>.');
      return LANG.test(lang) ? ok(`lang="${lang}".`) : bad(`lang="${lang}" is not a language tag.`);
    },
  },
  {
    id: 'social_cards',
    title: 'OpenGraph and Twitter cards',
    weight: 1,
    effort: 'low',
    fix: 'Add og:title, og:description, og:image and twitter:card meta tags so shared links show a card.',
    run: ({ doc }) => {
      const need = [
        ['property', 'og:title'],
        ['property', 'og:description'],
        ['property', 'og:image'],
        ['name', 'twitter:card'],
      ] as const;
      // Sites write OpenGraph with name= as often as property=, and Twitter's with property=: either is read.
      const has = (n: string) => [...metaContent(doc, 'property', n), ...metaContent(doc, 'name', n)].some(Boolean);
      const missing = need.filter(([, n]) => !has(n)).map(([, n]) => n);
      return missing.length ? bad(`Missing ${missing.join(', ')}.`) : ok('og:title, og:description, og:image and twitter:card are set.');
    },
  },
  {
    id: 'hreflang',
    title: 'hreflang alternates are valid',
    weight: 3,
    effort: 'medium',
    fix: 'Give each language version a <link rel="alternate" hreflang="…" href="…"> with a valid language code and an absolute URL, including one for the page itself.',
    run: ({ page, doc }) => {
      // Alternates in the head (Lighthouse ignores those in the body, as search engines do).
      const alts = all(doc, 'head link[hreflang]').filter((l) => (l.getAttribute('rel') ?? '').toLowerCase().split(/\s+/).includes('alternate'));
      if (!alts.length) return ok('No hreflang alternates (a single-language page needs none).');
      const problems: string[] = [];
      const seen = new Set<string>();
      let self = false;
      const here = new URL(page.finalUrl).href;
      for (const l of alts) {
        const code = (l.getAttribute('hreflang') ?? '').trim();
        const href = (l.getAttribute('href') ?? '').trim();
        if (code.toLowerCase() !== 'x-default' && !(LANG.test(code) && isValidLang(code.split('-')[0]!.toLowerCase()))) problems.push(`hreflang="${code}" is not a language code`);
        if (seen.has(code.toLowerCase())) problems.push(`hreflang="${code}" twice`);
        seen.add(code.toLowerCase());
        if (!/^https?:\/\//i.test(href)) problems.push(`${code}: href ${quote(href)} is not absolute`);
        else if (new URL(href).href === here) self = true;
      }
      if (!self) problems.push('no alternate points at the page itself');
      return problems.length ? bad(`${list(problems)}.`) : ok(`${alts.length} alternates: ${[...seen].join(', ')}.`);
    },
  },
  {
    id: 'page_weight',
    title: `The HTML is at most ${LIMITS.htmlBytes / 1024} KiB`,
    weight: 1,
    effort: 'high',
    fix: 'Trim the HTML: move inline scripts, styles and data to cached files, and remove unused markup.',
    run: ({ page, doc }) => {
      const refs = `${all(doc, 'script[src]').length} scripts, ${all(doc, 'link[rel~="stylesheet"]').length} stylesheets and ${all(doc, 'img').length} images referenced`;
      const kib = (page.bytes / 1024).toFixed(1);
      return page.bytes <= LIMITS.htmlBytes ? ok(`${kib} KiB of HTML; ${refs}.`) : bad(`${kib} KiB of HTML; ${refs}.`);
    },
  },
];


/** Runs every check on the page: the score, each check with its evidence, and the five fixes worth most. */
export function auditPage(page: Page): QuickAudit {
  const { document: doc } = parseHTML(page.html);
  const c: Ctx = { page, doc };
  const checks: CheckResult[] = CHECKS.map((d) => {
    let r: { passed: boolean; evidence: string };
    try {
      r = d.run(c);
    } catch (err) {
      r = bad(`The check could not read the page: ${(err as Error).message}.`);
    }
    return { id: d.id, title: d.title, passed: r.passed, weight: d.weight, effort: d.effort, evidence: r.evidence };
  });
  const total = CHECKS.reduce((s, d) => s + d.weight, 0);
  const passed = checks.filter((r) => r.passed).reduce((s, r) => s + r.weight, 0);
  const failed = checks.filter((r) => !r.passed);
  const fixes = failed
    .map((r, i) => ({ r, i, priority: r.weight * EASE[r.effort] }))
    // Highest priority first; then the heavier check; then the table's order (stable).
    .sort((a, b) => b.priority - a.priority || b.r.weight - a.r.weight || a.i - b.i)
    .slice(0, 5)
    .map(({ r, priority }) => ({ check: r.id, title: r.title, fix: CHECKS.find((d) => d.id === r.id)!.fix, weight: r.weight, effort: r.effort, priority, evidence: r.evidence }));
  return { score: Math.round((100 * passed) / total), checks, failed: failed.map((r) => r.id), top_fixes: fixes };
}
