// The deep audit's site part (docs/decisions/commercial-seo.md): the site's robots.txt (robots-parser) and its
// sitemaps (fast-xml-parser; found from robots.txt's Sitemap lines or at /sitemap.xml, indexes followed, bounded),
// and a bounded crawl of its internal pages through egress (every fetch and redirect SSRF-checked) under its
// robots.txt for the gateway's user agent, within a page count and a time budget. Site checks: duplicate titles
// and descriptions across the pages crawled, broken internal links (4xx/5xx), redirect chains (more than one hop),
// orphan pages (in the sitemap, linked from no page crawled).
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { parseHTML } from 'linkedom';
import type { Egress } from '../../../src/egress/index.js';
import { decode, kindOf } from '../../browse/content-type.js';
import { browseError } from '../../browse/errors.js';
import { Robots } from '../../browse/robots.js';
import { validateRobotsTxt, type RobotsError } from './robots-validate.js';
import { auditPage, type CheckResult, type Page } from './checks.js';
import { key, linksOf } from './site-links.js';

type RobotsRules = { isAllowed(url: string, ua?: string): boolean | undefined; getSitemaps(): string[] };
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, text: string) => RobotsRules;

/** The crawl's and the sitemaps' bounds. */
export const CRAWL_LIMITS = {
  pages: 25,
  budgetMs: 20_000,
  fetchTimeoutMs: 8_000,
  concurrency: 4,
  pageBytes: 2 * 1024 * 1024,
  sitemapFiles: 5,
  sitemapBytes: 5 * 1024 * 1024,
  sitemapUrls: 5_000,
  robotsBytes: 500 * 1024,
} as const;

export interface CrawledPage {
  url: string;
  final_url: string | null;
  status: number | null;
  redirects: string[];
  /** Why it has no status: blocked, timeout, robots… */
  error?: string;
  title?: string;
  description?: string;
  /** The quick audit's score and failed checks of this page (2xx HTML pages). */
  score?: number;
  failed?: string[];
}

export interface SiteAudit {
  robots_txt: { url: string; status: number | null; found: boolean; sitemaps: string[]; googlebot_allowed: boolean | null; errors: RobotsError[]; error?: string };
  sitemap: { files: { url: string; status: number | null; kind: 'urlset' | 'sitemapindex' | 'invalid' | 'unreachable'; urls: number; error?: string }[]; urls: number; truncated: boolean };
  crawl: { pages: CrawledPage[]; limit: number; budget_ms: number; elapsed_ms: number; stopped: 'done' | 'page_limit' | 'time_budget'; not_crawled: number; robots_skipped: string[] };
  checks: CheckResult[];
}

/** What to do about a failed site check. */
export const SITE_FIXES: Record<string, string> = {
  robots_txt_valid: 'Correct the robots.txt lines named in the evidence (known directives only, Allow/Disallow after a User-agent, patterns starting with / or *, absolute Sitemap URLs) and make it answer 2xx or 404, never 5xx.',
  robots_txt: 'Serve a /robots.txt that lets search engines in (no Disallow of the pages meant to be found) and names the sitemap with a Sitemap: line.',
  sitemap: 'Publish an XML sitemap (/sitemap.xml, named in robots.txt) listing every page meant to be found.',
  broken_links: 'Fix or remove the links to pages that answer 4xx/5xx (or restore the pages, or redirect them to their successors).',
  duplicate_titles: 'Give every page a title of its own that says what is on that page.',
  duplicate_descriptions: 'Write a meta description for each page of its own; leave it out rather than repeat one.',
  redirect_chains: 'Point links (and the first redirect) straight at the final URL: one hop at most.',
  orphan_pages: 'Link the sitemap’s orphan pages from related pages (or the navigation), or drop them from the sitemap if they are not meant to be found.',
};

const xml = new XMLParser({ ignoreAttributes: true, processEntities: true, htmlEntities: false, parseTagValue: false, trimValues: true, isArray: (n) => n === 'url' || n === 'sitemap' });

const list = (xs: string[], max = 5) => xs.slice(0, max).join(', ') + (xs.length > max ? ` and ${xs.length - max} more` : '');
const path = (u: string, origin: string) => (u.startsWith(origin) ? u.slice(origin.length) || '/' : u);

function locs(items: unknown): string[] {
  if (!Array.isArray(items)) return [];
  return items.map((i) => (i && typeof i === 'object' ? (i as Record<string, unknown>).loc : undefined)).filter((l): l is string => typeof l === 'string' && l.length > 0);
}

interface Budget {
  deadline: number;
  signal?: AbortSignal;
}

const remaining = (b: Budget, cap: number) => Math.max(0, Math.min(cap, b.deadline - Date.now()));

/** robots.txt read for the analysis (the crawl's verdicts are browse's Robots, cached). */
async function readRobots(egress: Egress, origin: string, pageUrl: string, b: Budget): Promise<{ info: SiteAudit['robots_txt']; sitemaps: string[] }> {
  const url = `${origin}/robots.txt`;
  try {
    const res = await egress.fetch(url, { maxBytes: CRAWL_LIMITS.robotsBytes, totalTimeoutMs: remaining(b, CRAWL_LIMITS.fetchTimeoutMs), signal: b.signal });
    if (res.status < 200 || res.status > 299) return { info: { url, status: res.status, found: false, sitemaps: [], googlebot_allowed: res.status >= 500 ? false : true, errors: [] }, sitemaps: [] };
    const text = res.body.toString('utf8');
    const rules = robotsParser(url, text);
    const sitemaps = rules.getSitemaps();
    return { info: { url, status: res.status, found: true, sitemaps, googlebot_allowed: rules.isAllowed(pageUrl, 'Googlebot') !== false, errors: validateRobotsTxt(text) }, sitemaps };
  } catch (err) {
    return { info: { url, status: null, found: false, sitemaps: [], googlebot_allowed: null, errors: [], error: browseError(err).message }, sitemaps: [] };
  }
}

/** The sitemaps' page URLs (same origin only), following sitemap indexes breadth first within the file bound. */
async function readSitemaps(egress: Egress, origin: string, start: string[], b: Budget): Promise<{ info: SiteAudit['sitemap']; urls: string[] }> {
  const queue = start.length ? [...start] : [`${origin}/sitemap.xml`];
  const seen = new Set<string>();
  const files: SiteAudit['sitemap']['files'] = [];
  const urls = new Set<string>();
  let truncated = false;
  while (queue.length && files.length < CRAWL_LIMITS.sitemapFiles && remaining(b, 1) > 0) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    try {
      const res = await egress.fetch(url, { maxBytes: CRAWL_LIMITS.sitemapBytes, totalTimeoutMs: remaining(b, CRAWL_LIMITS.fetchTimeoutMs), signal: b.signal });
      if (res.status < 200 || res.status > 299) {
        files.push({ url, status: res.status, kind: 'unreachable', urls: 0, error: `answered ${res.status}` });
        continue;
      }
      // A gzipped sitemap (sitemap.xml.gz) is read too, its output bounded like the file.
      let doc: Record<string, Record<string, unknown> | undefined>;
      try {
        const body = res.body[0] === 0x1f && res.body[1] === 0x8b ? gunzipSync(res.body, { maxOutputLength: CRAWL_LIMITS.sitemapBytes }) : res.body;
        doc = xml.parse(body.toString('utf8'), true) as typeof doc;
      } catch (err) {
        files.push({ url, status: res.status, kind: 'invalid', urls: 0, error: `not readable XML: ${(err as Error).message.split('\n')[0]}` });
        continue;
      }
      if (doc.sitemapindex) {
        const children = locs(doc.sitemapindex.sitemap);
        files.push({ url, status: res.status, kind: 'sitemapindex', urls: children.length });
        queue.push(...children.filter((c) => !seen.has(c)));
      } else if (doc.urlset) {
        const pages = locs(doc.urlset.url);
        files.push({ url, status: res.status, kind: 'urlset', urls: pages.length });
        for (const p of pages) {
          if (urls.size >= CRAWL_LIMITS.sitemapUrls) {
            truncated = true;
            break;
          }
          try {
            if (new URL(p).origin === origin) urls.add(key(p));
          } catch {
            /* not a URL: not a page */
          }
        }
      } else {
        files.push({ url, status: res.status, kind: 'invalid', urls: 0, error: 'neither a <urlset> nor a <sitemapindex>' });
      }
    } catch (err) {
      files.push({ url, status: null, kind: 'unreachable', urls: 0, error: browseError(err).message });
    }
  }
  if (queue.length) truncated = true;
  return { info: { files, urls: urls.size, truncated }, urls: [...urls] };
}

/**
 * Audits the site of a fetched page: robots.txt, sitemaps, a bounded crawl from the page (its links first, then
 * the sitemap's pages), and the site checks.
 */
export async function auditSite(egress: Egress, page: Page, now: number, signal?: AbortSignal): Promise<SiteAudit> {
  const started = Date.now();
  const b: Budget = { deadline: started + CRAWL_LIMITS.budgetMs, signal };
  const origin = new URL(page.finalUrl).origin;
  const robots = await readRobots(egress, origin, page.finalUrl, b);
  const sitemap = await readSitemaps(egress, origin, robots.sitemaps, b);
  const verdicts = new Robots(egress, CRAWL_LIMITS.fetchTimeoutMs);

  // The crawl: the audited page is page 1 (fetched already); links found are crawled before the sitemap's pages.
  const pages = new Map<string, CrawledPage>();
  const linkedFrom = new Map<string, Set<string>>(); // target → pages linking to it
  const queue: string[] = [];
  const queued = new Set<string>();
  const robotsSkipped: string[] = [];
  const enqueue = (u: string) => {
    if (!queued.has(u)) {
      queued.add(u);
      queue.push(u);
    }
  };
  const record = (url: string, p: CrawledPage, html: string | null) => {
    pages.set(url, p);
    if (html === null || p.status === null || p.status < 200 || p.status > 299) return;
    const { document: doc } = parseHTML(html);
    const quick = auditPage({ url, finalUrl: p.final_url!, status: p.status, redirects: p.redirects, headers: {}, html, bytes: Buffer.byteLength(html), elapsedMs: 0 });
    p.title = (doc.querySelector('title')?.textContent ?? '').replace(/\s+/g, ' ').trim();
    p.description = ([...doc.querySelectorAll('meta')].find((m) => (m.getAttribute('name') ?? '').toLowerCase() === 'description')?.getAttribute('content') ?? '').trim();
    p.score = quick.score;
    p.failed = quick.failed;
    const from = p.final_url!;
    for (const l of linksOf(doc, from, origin)) {
      let set = linkedFrom.get(l);
      if (!set) linkedFrom.set(l, (set = new Set()));
      set.add(key(url));
      enqueue(l);
    }
  };
  const start = key(page.url);
  queued.add(start);
  queued.add(key(page.finalUrl));
  record(start, { url: start, final_url: page.finalUrl, status: page.status, redirects: page.redirects }, page.html);
  const sitemapUrls = [...sitemap.urls];
  let stopped: SiteAudit['crawl']['stopped'] = 'done';

  const next = (): string | undefined => {
    if (queue.length) return queue.shift();
    while (sitemapUrls.length) {
      const s = sitemapUrls.shift()!;
      if (!queued.has(s)) {
        queued.add(s);
        return s;
      }
    }
    return undefined;
  };
  let inFlight = 0;
  const crawlOne = async (url: string) => {
    try {
      await verdicts.check(new URL(url), now, signal);
    } catch (err) {
      if (err instanceof Error && 'code' in err && err.code === 'forbidden') {
        robotsSkipped.push(url);
        return;
      }
      pages.set(url, { url, final_url: null, status: null, redirects: [], error: browseError(err).message });
      return;
    }
    try {
      const res = await egress.fetch(url, { maxBytes: CRAWL_LIMITS.pageBytes, totalTimeoutMs: remaining(b, CRAWL_LIMITS.fetchTimeoutMs), headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' }, signal });
      const p: CrawledPage = { url, final_url: res.url, status: res.status, redirects: res.redirects };
      const ct = res.headers['content-type'] ?? '';
      const kind = kindOf(ct.split(';')[0]!.trim().toLowerCase(), res.body);
      record(url, p, kind === 'html' && new URL(res.url).origin === origin ? decode(res.body, ct, kind) : null);
    } catch (err) {
      pages.set(url, { url, final_url: null, status: null, redirects: [], error: browseError(err).message });
    }
  };
  await new Promise<void>((resolve) => {
    const pump = () => {
      while (inFlight < CRAWL_LIMITS.concurrency) {
        if (pages.size + inFlight >= CRAWL_LIMITS.pages) {
          if (queue.length || sitemapUrls.some((s) => !queued.has(s))) stopped = 'page_limit';
          break;
        }
        if (Date.now() >= b.deadline) {
          stopped = 'time_budget';
          break;
        }
        const url = next();
        if (url === undefined) break;
        inFlight++;
        void crawlOne(url).finally(() => {
          inFlight--;
          pump();
        });
      }
      if (inFlight === 0) resolve();
    };
    pump();
  });
  const notCrawled = queue.length + sitemapUrls.filter((s) => !queued.has(s)).length;

  // Site checks over the pages crawled.
  const crawled = [...pages.values()];
  const ok = crawled.filter((p) => p.status !== null && p.status >= 200 && p.status <= 299 && p.title !== undefined);
  // A page reached under two URLs (a redirect to a page crawled too) counts once.
  const byFinal = new Map<string, CrawledPage>();
  for (const p of ok) if (!byFinal.has(key(p.final_url!))) byFinal.set(key(p.final_url!), p);
  const dupes = (field: 'title' | 'description') => {
    const groups = new Map<string, string[]>();
    for (const [u, p] of byFinal) {
      const v = p[field];
      if (!v) continue;
      groups.set(v, [...(groups.get(v) ?? []), path(u, origin)]);
    }
    return [...groups.entries()].filter(([, us]) => us.length > 1);
  };
  const dupTitles = dupes('title');
  const dupDescriptions = dupes('description');
  const broken = crawled.filter((p) => p.status !== null && p.status >= 400);
  const chains = crawled.filter((p) => p.redirects.length > 1);
  // Orphans: a sitemap page that no crawled page links to (under the URL listed or one redirecting to it).
  const linkedTargets = new Set<string>();
  for (const [target, from] of linkedFrom) {
    if (![...from].some((f) => f !== target)) continue;
    linkedTargets.add(target);
    const p = pages.get(target);
    if (p?.final_url) linkedTargets.add(key(p.final_url));
  }
  const orphans = sitemap.urls.filter((u) => !linkedTargets.has(u) && u !== start && u !== key(page.finalUrl));
  const nCrawled = crawled.length;
  const linksOfBroken = (p: CrawledPage) => [...(linkedFrom.get(p.url) ?? [])].map((f) => path(f, origin));

  const checks: CheckResult[] = [
    {
      id: 'robots_txt',
      title: 'A robots.txt that lets search engines reach the page',
      weight: 4,
      effort: 'low',
      // No robots.txt (4xx) lets crawlers fetch everything, as Google and Lighthouse read it; a 5xx keeps them out.
      passed: robots.info.googlebot_allowed === true,
      evidence: robots.info.found
        ? `${robots.info.url} answered ${robots.info.status}; Googlebot is ${robots.info.googlebot_allowed ? '' : 'not '}allowed to fetch ${path(page.finalUrl, origin)}; ` +
          (robots.info.sitemaps.length ? `Sitemap lines: ${list(robots.info.sitemaps)}.` : 'no Sitemap line.')
        : robots.info.status !== null
          ? `${robots.info.url} answered ${robots.info.status}${robots.info.status >= 500 ? ' (a server error: crawlers treat the whole site as disallowed)' : ' (no robots.txt: crawlers may fetch every page)'}.`
          : `${robots.info.url} could not be fetched: ${robots.info.error}`,
    },
    {
      id: 'robots_txt_valid',
      title: 'robots.txt is valid',
      weight: 4,
      effort: 'low',
      passed: robots.info.status !== null && robots.info.status < 500 && !robots.info.errors.length,
      evidence:
        robots.info.status === null
          ? `${robots.info.url} could not be fetched: ${robots.info.error}`
          : robots.info.status >= 500
            ? `${robots.info.url} answered ${robots.info.status}.`
            : !robots.info.found
              ? `${robots.info.url} answered ${robots.info.status}: no robots.txt, nothing to misread.`
              : robots.info.errors.length
                ? `${robots.info.errors.length} line${robots.info.errors.length > 1 ? 's' : ''} crawlers may misread: ${list(robots.info.errors.map((e) => `line ${e.line} ${JSON.stringify(e.text.trim())} (${e.message})`))}.`
                : `${robots.info.url}: every line is valid.`,
    },
    {
      id: 'sitemap',
      title: 'An XML sitemap that lists the site’s pages',
      weight: 6,
      effort: 'medium',
      passed: sitemap.info.urls > 0,
      evidence: sitemap.info.files.length
        ? `${sitemap.info.files.map((f) => `${f.url}: ${f.kind === 'urlset' ? `${f.urls} URLs` : f.kind === 'sitemapindex' ? `an index of ${f.urls} sitemaps` : f.error}`).join('; ')}` +
          `${robots.sitemaps.length ? ' (from robots.txt)' : ' (no Sitemap line in robots.txt; /sitemap.xml tried)'}; ${sitemap.info.urls} pages of this origin${sitemap.info.truncated ? ' (bounded: not all read)' : ''}.`
        : 'No sitemap could be read within the time budget.',
    },
    {
      id: 'broken_links',
      title: 'No internal link to a page answering 4xx/5xx',
      weight: 9,
      effort: 'medium',
      passed: broken.length === 0,
      evidence: broken.length
        ? `${broken.length} broken: ${list(broken.map((p) => `${path(p.url, origin)} (${p.status}${linksOfBroken(p).length ? `, linked from ${list(linksOfBroken(p), 3)}` : ', in the sitemap'})`))}.`
        : `None among the ${nCrawled} URLs crawled${notCrawled ? ` (${notCrawled} more not checked: the page limit)` : ''}.`,
    },
    {
      id: 'duplicate_titles',
      title: 'No two pages share a title',
      weight: 7,
      effort: 'medium',
      passed: dupTitles.length === 0,
      evidence: dupTitles.length ? `${dupTitles.map(([t, us]) => `${JSON.stringify(t)} on ${us.join(', ')}`).join('; ')}.` : `${byFinal.size} pages, each with a title of its own (or none).`,
    },
    {
      id: 'duplicate_descriptions',
      title: 'No two pages share a meta description',
      weight: 5,
      effort: 'medium',
      passed: dupDescriptions.length === 0,
      evidence: dupDescriptions.length ? `${dupDescriptions.map(([t, us]) => `${JSON.stringify(t.length > 60 ? `${t.slice(0, 60)}…` : t)} on ${us.join(', ')}`).join('; ')}.` : `${byFinal.size} pages, no description repeated.`,
    },
    {
      id: 'redirect_chains',
      title: 'No internal URL redirects more than once',
      weight: 5,
      effort: 'medium',
      passed: chains.length === 0,
      evidence: chains.length ? `${chains.map((p) => [path(p.url, origin), ...p.redirects.map((r) => path(r, origin))].join(' → ')).join('; ')}.` : `None among the ${nCrawled} URLs crawled.`,
    },
    {
      id: 'orphan_pages',
      title: 'Every sitemap page is linked from a page of the site',
      weight: 6,
      effort: 'medium',
      passed: orphans.length === 0,
      evidence: !sitemap.info.urls
        ? 'No sitemap to compare the links with.'
        : orphans.length
          ? `${orphans.length} of the sitemap’s ${sitemap.info.urls} pages linked from none of the ${byFinal.size} pages crawled: ${list(orphans.map((u) => path(u, origin)))}.`
          : `All ${sitemap.info.urls} sitemap pages are linked from the ${byFinal.size} pages crawled.`,
    },
  ];

  return {
    robots_txt: robots.info,
    sitemap: sitemap.info,
    crawl: { pages: crawled, limit: CRAWL_LIMITS.pages, budget_ms: CRAWL_LIMITS.budgetMs, elapsed_ms: Date.now() - started, stopped, not_crawled: notCrawled, robots_skipped: robotsSkipped },
    checks,
  };
}
