// POST /seo/audits {audit_type: deep} (issue 24) end to end on the commercial listener: a small website on loopback
// (allowed through GATEWAY_EGRESS_ALLOW) with a robots.txt naming a sitemap index, a sitemap with an orphan page,
// two pages sharing a title, two sharing a description, a broken link, a redirect chain and a page robots.txt keeps
// out; the exact site findings, the content analysis of a known text, the action plan's order; Lighthouse in
// Debian's Chromium (required where it is installed) with its three category scores and the known faults of a page,
// whose subresource on an address outside the egress policy (a server on 127.0.0.2) is refused and never reached;
// without Chromium the audit says Lighthouse was skipped and why; the order delivered and charged $30; a blocked
// URL fails the order and releases it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { hasChromium } from '../helpers/browser.js';
import { openAccount, orderSettles, revenueKey as key } from '../helpers/commerce.js';

const OPERATOR = 'operator-token-for-seo-deep-test';
const THIRTY_USD = 30_000_000;

let gw: TestGateway;
let site: http.Server;
let siteUrl: string;
/** A server outside the policy (only 127.0.0.1/32 is allowed): the browser must never reach it. */
let inside: http.Server;
let insideUrl: string;
let insideHits = 0;

/** A 1×1 transparent PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const DESC_HOME = 'Blue widgets for every room of the house, made to last and easy to fit.';
const DESC_SHARED = 'Everything about our widgets and the people who make them, in one place.';

const page = (title: string, description: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="description" content="${description}">` +
  `<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="canonical" href="${siteUrl}/">` +
  `</head><body>${body}</body></html>`;

const account = (email: string, credit: number) => openAccount(gw, email, { credit, operatorToken: OPERATOR, name: 'SEO Deep Co' });
const balanceOf = async (k: string): Promise<number> => (await api(gw.apiUrl, 'GET', '/usage', { headers: key(k) })).body.balance;
const settled = (k: string, id: string, status: string) => orderSettles(gw, k, id, status, { timeoutMs: 150_000 });

beforeAll(async () => {
  site = http.createServer((req, res) => {
    const html = { 'content-type': 'text/html; charset=utf-8' };
    const xml = { 'content-type': 'application/xml' };
    switch (req.url) {
      case '/robots.txt':
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nDisallow: /private\n\nSitemap: ${siteUrl}/sitemap-index.xml\n`);
      case '/sitemap-index.xml':
        return void res.writeHead(200, xml).end(`<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${siteUrl}/sitemap-pages.xml</loc></sitemap></sitemapindex>`);
      case '/sitemap-pages.xml':
        return void res
          .writeHead(200, xml)
          .end(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${['/', '/about', '/contact', '/orphan'].map((p) => `<url><loc>${siteUrl}${p}</loc></url>`).join('')}</urlset>`);
      case '/':
        // The known text: 8 sentences (the H1, two in the paragraph, five list items), 17 words, 19 syllables.
        return void res
          .writeHead(200, html)
          .end(
            page(
              'Blue Widgets for Every Home',
              DESC_HOME,
              '<h1>Blue widgets</h1><p>The cat sat on the mat. Blue widgets are good.</p>' +
                '<ul><li><a href="/about">Team</a></li><li><a href="/contact">Mail</a></li><li><a href="/missing">Lost</a></li><li><a href="/old">Old</a></li><li><a href="/private">Back</a></li></ul>',
            ),
          );
      case '/about':
        return void res.writeHead(200, html).end(page('Blue Widgets for Every Home', DESC_SHARED, '<h1>About</h1><p>We make widgets.</p><a href="/">Home page</a>'));
      case '/contact':
        return void res.writeHead(200, html).end(page('Contact the widget makers', DESC_SHARED, '<h1>Contact</h1><p>Write to us.</p><a href="/">Home page</a>'));
      case '/orphan':
        return void res.writeHead(200, html).end(page('A page nobody links to', DESC_HOME.replace('Blue', 'Red'), '<h1>Orphan</h1><a href="/">Home page</a>'));
      case '/old':
        return void res.writeHead(301, { location: '/older' }).end();
      case '/older':
        return void res.writeHead(301, { location: '/about' }).end();
      case '/lighthouse-faults':
        // For Lighthouse: an image without alt, a link saying "click here", and a pixel on an address it must not reach.
        return void res
          .writeHead(200, html)
          .end(page('Widget faults on show', DESC_HOME, `<main><h1>Faults</h1><p>Our widgets.</p><img src="/logo.png" width="10" height="10"><img alt="pixel" src="${insideUrl}/pixel.png" width="1" height="1"><a href="/about">click here</a></main>`));
      case '/logo.png':
        return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      case '/private':
        return void res.writeHead(200, html).end(page('Private', DESC_HOME, '<p>Private.</p>'));
      default:
        return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    }
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  inside = http.createServer((_req, res) => {
    insideHits++;
    res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  });
  await new Promise<void>((r) => inside.listen(0, '127.0.0.2', () => r()));
  insideUrl = `http://127.0.0.2:${(inside.address() as AddressInfo).port}`;
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  gw = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY: '100', GATEWAY_EGRESS_ALLOW: '127.0.0.1/32' } });
});
afterAll(async () => {
  await gw?.cleanup();
  site?.closeAllConnections();
  site?.close();
  inside?.close();
});

describe('the deep SEO audit', () => {
  it('reads robots.txt and the sitemaps, crawls the site, finds its faults, analyses the content and plans the fixes; delivered and charged $30', async () => {
    const k = await account('deep@example.com', 50_000_000);
    const r = await api(gw.apiUrl, 'POST', '/seo/audits', { body: { url: `${siteUrl}/`, audit_type: 'deep' }, headers: key(k) });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ service: 'seo.deep', price: { usd: '30', micro_usd: THIRTY_USD, price_id: 'seo.deep' } });
    const o = await settled(k, r.body.order_id, 'delivered');
    expect(o.payment).toMatchObject({ state: 'captured', charged_micro_usd: THIRTY_USD, charged_usd: '30' });
    expect(await balanceOf(k)).toBe(50_000_000 - THIRTY_USD);
    const a = o.result;
    expect(a.audit_type).toBe('deep');

    // robots.txt and the sitemap index followed to its urlset.
    expect(a.robots_txt).toMatchObject({ found: true, status: 200, sitemaps: [`${siteUrl}/sitemap-index.xml`], googlebot_allowed: true });
    expect(a.sitemap.files.map((f: any) => [f.url.slice(siteUrl.length), f.kind, f.urls])).toEqual([
      ['/sitemap-index.xml', 'sitemapindex', 1],
      ['/sitemap-pages.xml', 'urlset', 4],
    ]);
    expect(a.sitemap.urls).toBe(4);

    // The crawl: the page, its links (robots.txt keeps /private out), then the sitemap's orphan.
    const crawled = a.crawl.pages.map((p: any) => [p.url.slice(siteUrl.length), p.status]).sort();
    expect(crawled).toEqual([['/', 200], ['/about', 200], ['/contact', 200], ['/missing', 404], ['/old', 200], ['/orphan', 200]].sort());
    expect(a.crawl.robots_skipped).toEqual([`${siteUrl}/private`]);
    expect(a.crawl.stopped).toBe('done');

    const site = Object.fromEntries(a.site_checks.map((c: any) => [c.id, c]));
    expect(a.site_checks.map((c: any) => c.id)).toEqual(['robots_txt', 'robots_txt_valid', 'sitemap', 'broken_links', 'duplicate_titles', 'duplicate_descriptions', 'redirect_chains', 'orphan_pages']);
    expect(a.site_checks.filter((c: any) => !c.passed).map((c: any) => c.id)).toEqual(['broken_links', 'duplicate_titles', 'duplicate_descriptions', 'redirect_chains', 'orphan_pages']);
    expect(site.broken_links.evidence).toBe('1 broken: /missing (404, linked from /).');
    expect(site.duplicate_titles.evidence).toBe('"Blue Widgets for Every Home" on /, /about.');
    expect(site.duplicate_descriptions.evidence).toBe(`"${DESC_SHARED.slice(0, 60)}…" on /about, /contact.`);
    expect(site.redirect_chains.evidence).toBe('/old → /older → /about.');
    expect(site.orphan_pages.evidence).toBe('1 of the sitemap’s 4 pages linked from none of the 4 pages crawled: /orphan.');
    expect(site.robots_txt.evidence).toMatch(/Googlebot is allowed to fetch \/; Sitemap lines: .*sitemap-index\.xml\./);

    // Content analysis of the known text.
    expect(a.content).toMatchObject({ word_count: 17, sentence_count: 8, syllable_count: 19, readability: 'very easy', lang: 'en', keyword: 'blue', keyword_in_title: true, keyword_in_h1: true });
    // 206.835 − 1.015 × 17/8 − 84.6 × 19/17 = 110.1
    expect(a.content.flesch_reading_ease).toBe(110.1);
    expect(a.content.top_terms.slice(0, 3)).toEqual([
      { term: 'blue', count: 2, density_pct: 11.8 },
      { term: 'widgets', count: 2, density_pct: 11.8 },
      { term: 'cat', count: 1, density_pct: 5.9 },
    ]);
    expect(a.content_checks.map((c: any) => [c.id, c.passed])).toEqual([['word_count', false], ['readability', true], ['keyword_focus', true]]);

    // Every check listed with pass/fail and evidence.
    for (const c of [...a.checks, ...a.site_checks, ...a.content_checks, ...a.lighthouse_checks]) {
      expect(typeof c.passed).toBe('boolean');
      expect(c.evidence.length).toBeGreaterThan(3);
    }
    expect(a.checks).toHaveLength(20);

    // The plan: every failed check of the page, the site and the content, by impact × ease, then impact, then listing.
    const plan = a.action_plan.filter((p: any) => p.scope !== 'lighthouse');
    expect(plan.map((p: any) => p.check)).toEqual(['broken_links', 'https', 'duplicate_titles', 'orphan_pages', 'structured_data', 'duplicate_descriptions', 'redirect_chains', 'word_count', 'social_cards']);
    expect(plan.map((p: any) => p.priority)).toEqual([18, 16, 14, 12, 10, 10, 10, 5, 3]);
    for (let i = 1; i < a.action_plan.length; i++) expect(a.action_plan[i].priority).toBeLessThanOrEqual(a.action_plan[i - 1].priority);
    expect(a.action_plan.every((p: any) => p.fix.length > 10 && ['low', 'medium', 'high'].includes(p.effort))).toBe(true);
    expect(a.failed.length).toBe(a.action_plan.length);

    // Lighthouse: ran in Chromium with its three categories (where Chromium is installed), or said why not.
    if (!hasChromium) {
      expect(a.skipped).toEqual(['lighthouse']);
      expect(a.lighthouse).toBeNull();
      expect(a.skipped_why.lighthouse).toMatch(/needs Chromium/);
    } else {
      expect(a.skipped).toEqual([]);
      for (const cat of ['seo', 'performance', 'accessibility']) {
        expect(a.lighthouse.scores[cat]).toBeGreaterThanOrEqual(0);
        expect(a.lighthouse.scores[cat]).toBeLessThanOrEqual(100);
      }
      expect(a.lighthouse).toMatchObject({ final_url: `${siteUrl}/`, form_factor: 'mobile', blocked_requests: [] });
      expect(a.lighthouse_checks.map((c: any) => c.id)).toEqual(['lighthouse_seo', 'lighthouse_performance', 'lighthouse_accessibility']);
    }
  }, 180_000);

  it.skipIf(!hasChromium)('runs Lighthouse on the page in Chromium: its known faults found, its request to an address outside the policy refused and never made', async () => {
    const k = await account('deep-lighthouse@example.com', THIRTY_USD);
    const r = await api(gw.apiUrl, 'POST', '/seo/audits', { body: { url: `${siteUrl}/lighthouse-faults`, audit_type: 'deep' }, headers: key(k) });
    expect(r.status).toBe(202);
    const a = (await settled(k, r.body.order_id, 'delivered')).result;
    expect(a.skipped).toEqual([]);
    const lh = a.lighthouse;
    expect(lh.final_url).toBe(`${siteUrl}/lighthouse-faults`);
    const failed = lh.failed_audits.map((f: any) => `${f.category}:${f.id}`);
    expect(failed).toEqual(expect.arrayContaining(['accessibility:image-alt', 'seo:link-text']));
    expect(failed).not.toContain('seo:document-title');
    expect(failed).not.toContain('seo:meta-description');
    expect(failed).not.toContain('accessibility:html-has-lang');
    const checks = Object.fromEntries(a.lighthouse_checks.map((c: any) => [c.id, c]));
    expect(checks.lighthouse_seo).toMatchObject({ passed: false, evidence: expect.stringMatching(new RegExp(`^${lh.scores.seo}/100; failed: .*link-text \\(Links do not have descriptive text`)) });
    expect(checks.lighthouse_accessibility).toMatchObject({ passed: false, evidence: expect.stringContaining('image-alt (Image elements do not have `[alt]` attributes)') });
    expect(lh.scores.seo).toBeLessThan(90);
    expect(lh.scores.accessibility).toBeLessThan(90);
    expect(Object.keys(lh.metrics)).toEqual(['first_contentful_paint_ms', 'largest_contentful_paint_ms', 'total_blocking_time_ms', 'cumulative_layout_shift', 'speed_index_ms']);
    // The plan holds both failed Lighthouse categories with their fixes.
    expect(a.action_plan.filter((p: any) => p.scope === 'lighthouse').map((p: any) => p.check).sort()).toEqual(['lighthouse_accessibility', 'lighthouse_seo']);
    // The pixel on 127.0.0.2 went through the gateway's proxy, which refused it: the server was never reached.
    expect(lh.blocked_requests).toEqual([{ origin: insideUrl, reason: expect.stringMatching(/127\.0\.0\.2.*not a public address/) }]);
    expect(insideHits).toBe(0);
  }, 180_000);

  it('without Chromium, says Lighthouse was skipped and why, and delivers the rest', async () => {
    const bare = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_EGRESS_ALLOW: '127.0.0.1/32', GATEWAY_CHROMIUM_PATH: 'off' } });
    try {
      const k = await openAccount(bare, 'deep-nochrome@example.com', { credit: THIRTY_USD, operatorToken: OPERATOR, name: 'SEO Deep Co' });
      const r = await api(bare.apiUrl, 'POST', '/seo/audits', { body: { url: `${siteUrl}/`, audit_type: 'deep' }, headers: key(k) });
      const o = await orderSettles(bare, k, r.body.order_id, 'delivered', { timeoutMs: 150_000 });
      expect(o.payment).toMatchObject({ state: 'captured', charged_micro_usd: THIRTY_USD });
      expect(o.result).toMatchObject({ skipped: ['lighthouse'], lighthouse: null, lighthouse_checks: [] });
      expect(o.result.skipped_why.lighthouse).toMatch(/^Lighthouse .* needs Chromium, and this gateway has none .*GATEWAY_CHROMIUM_PATH.*; the other parts of the deep audit ran\.$/);
      expect(o.result.site_checks).toHaveLength(8);
    } finally {
      await bare.cleanup();
    }
  }, 180_000);

  it('fails the order and releases the $30 when the URL is blocked', async () => {
    const k = await account('deep-blocked@example.com', THIRTY_USD);
    const r = await api(gw.apiUrl, 'POST', '/seo/audits', { body: { url: 'http://10.1.2.3/', audit_type: 'deep' }, headers: key(k) });
    expect(r.status).toBe(202);
    const o = await settled(k, r.body.order_id, 'failed');
    expect(o).toMatchObject({ result: null, payment: { state: 'released', charged_micro_usd: 0 } });
    expect(await balanceOf(k)).toBe(THIRTY_USD);
  });

  it('answers 402 before anything is done when $30 cannot be held', async () => {
    const k = await account('deep-poor@example.com', 10_000_000);
    const r = await api(gw.apiUrl, 'POST', '/seo/audits', { body: { url: `${siteUrl}/`, audit_type: 'deep' }, headers: key(k) });
    expect(r.status).toBe(402);
    expect((await api(gw.apiUrl, 'GET', '/orders', { headers: key(k) })).body.orders).toEqual([]);
  });
});
