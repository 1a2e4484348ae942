// POST /seo/audits (issue 24, the quick audit) end to end on the commercial listener: a small website on loopback
// (allowed through GATEWAY_EGRESS_ALLOW) with a page of known faults and a clean page; the exact checks failed,
// the exact score and the order of the top fixes; the order delivered and charged $10; a blocked or unreachable
// URL fails the order and releases it; 422 on a bad URL or an unknown audit type before any hold; another
// account cannot read the order. The deep audit is test/commerce/seo-deep.test.ts.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { openAccount, orderSettles, revenueKey as key } from '../helpers/commerce.js';
import { ROOT } from '../helpers/paths.js';

const OPERATOR = 'operator-token-for-seo-test';
const fixture = (name: string) => fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'seo', name), 'utf8');
const FAULTY = fixture('faulty.html');
const CLEAN = fixture('clean.html');
const TEN_USD = 10_000_000;

let gw: TestGateway;
let site: http.Server;
let siteUrl: string;

const account = (email: string, credit: number) => openAccount(gw, email, { credit, operatorToken: OPERATOR, name: 'SEO Co' });
const balanceOf = async (k: string): Promise<number> => (await api(gw.apiUrl, 'GET', '/usage', { headers: key(k) })).body.balance;

/** Polls the order until it is `status`, moving the gateway's clock on so retries come due. */
const settled = (k: string, id: string, status: string, advanceMs = 0) => orderSettles(gw, k, id, status, { timeoutMs: 15_000, advanceMs });

beforeAll(async () => {
  site = http.createServer((req, res) => {
    const html = { 'content-type': 'text/html; charset=utf-8' };
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
    // A chain of two redirects before the faulty page (on loopback there is no HTTPS to redirect to).
    if (req.url === '/old') return void res.writeHead(301, { location: '/older' }).end();
    if (req.url === '/older') return void res.writeHead(301, { location: '/faulty' }).end();
    if (req.url === '/faulty') return void res.writeHead(200, { ...html, 'x-robots-tag': 'noindex, nofollow' }).end(FAULTY.replaceAll('SELF', `${siteUrl}/faulty`));
    if (req.url === '/clean') return void res.writeHead(200, html).end(CLEAN.replaceAll('SELF', `${siteUrl}/clean`));
    if (req.url === '/private') return void res.writeHead(200, html).end(CLEAN);
    res.writeHead(404).end('not here');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  gw = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY: '100', GATEWAY_EGRESS_ALLOW: '127.0.0.1/32' } });
});
afterAll(async () => {
  await gw?.cleanup();
  site?.closeAllConnections();
  site?.close();
});

describe('the quick SEO audit', () => {
  it('finds the known faults of a page: the exact checks failed, the score and the top 5 fixes; delivered and charged $10', async () => {
    const k = await account('faulty@example.com', 50_000_000);
    const r = await api(gw.apiUrl, 'POST', '/seo/audits', { body: { url: `${siteUrl}/old`, audit_type: 'quick' }, headers: key(k) });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ service: 'seo.quick', price: { usd: '10', micro_usd: TEN_USD, price_id: 'seo.quick' } });
    expect(r.headers.get('location')).toBe(`${gw.apiUrl}/orders/${r.body.order_id}`);
    const o = await settled(k, r.body.order_id, 'delivered');
    expect(o.payment).toMatchObject({ state: 'captured', charged_micro_usd: TEN_USD, charged_usd: '10' });
    expect(await balanceOf(k)).toBe(50_000_000 - TEN_USD);
    const a = o.result;
    expect(a.final_url).toBe(`${siteUrl}/faulty`);
    expect(a.page.redirects).toEqual([`${siteUrl}/older`, `${siteUrl}/faulty`]);
    expect([...a.failed].sort()).toEqual(['h1', 'heading_order', 'https', 'image_alt', 'indexable', 'meta_description', 'redirects', 'structured_data', 'viewport'].sort());
    // 100 less the failed weights: 10 + 7 + 6 + 6 + 8 + 5 + 5 + 5 + 3.
    expect(a.score).toBe(45);
    expect(a.top_fixes.map((f: any) => f.check)).toEqual(['indexable', 'meta_description', 'h1', 'viewport', 'https']);
    expect(a.top_fixes.map((f: any) => f.priority)).toEqual([30, 21, 18, 18, 16]);
    // Every check is listed, with its evidence.
    expect(a.checks).toHaveLength(20);
    expect(a.checks.reduce((s: number, c: any) => s + c.weight, 0)).toBe(100);
    const ev = Object.fromEntries(a.checks.map((c: any) => [c.id, c.evidence]));
    for (const c of a.checks) expect(c.evidence.length).toBeGreaterThan(3);
    expect(ev.indexable).toMatch(/X-Robots-Tag: noindex, nofollow/);
    expect(ev.h1).toMatch(/2 H1s/);
    expect(ev.heading_order).toMatch(/H2 → H4/);
    expect(ev.image_alt).toMatch(/2 of 3 images have no alt: \/blue\.png, \/red\.png/);
    expect(ev.structured_data).toMatch(/block 1 is not JSON/);
    expect(ev.redirects).toMatch(/2 redirects/);
    expect(ev.meta_description).toMatch(/No <meta name="description">/);
    expect(ev.viewport).toMatch(/No <meta name="viewport">/);
    expect(ev.canonical).toBe(`Canonical: ${siteUrl}/faulty.`);
  });

  it('passes a clean page on every check but HTTPS (loopback is plain HTTP): score 92', async () => {
    const k = await account('clean@example.com', TEN_USD);
    const r = await api(gw.apiUrl, 'POST', '/seo/audits', { body: { url: `${siteUrl}/clean` }, headers: key(k) });
    expect(r.status).toBe(202);
    const o = await settled(k, r.body.order_id, 'delivered');
    expect(o.result.failed).toEqual(['https']);
    expect(o.result.score).toBe(92);
    expect(o.result.top_fixes.map((f: any) => f.check)).toEqual(['https']);
    const ev = Object.fromEntries(o.result.checks.map((c: any) => [c.id, c.evidence]));
    expect(ev.hreflang).toBe('3 alternates: en-gb, de, x-default.');
    expect(ev.structured_data).toBe('1 JSON-LD block (Product), complete.');
    expect(await balanceOf(k)).toBe(0);
  });

  it('fails the order and releases it when the URL is blocked, kept out by robots.txt or unreachable: nothing charged', async () => {
    const k = await account('blocked@example.com', TEN_USD);
    const blocked = await api(gw.apiUrl, 'POST', '/seo/audits', { body: { url: 'http://10.1.2.3/page' }, headers: key(k) });
    expect(blocked.status).toBe(202);
    const b = await settled(k, blocked.body.order_id, 'failed');
    expect(b).toMatchObject({ result: null, payment: { state: 'released', charged_micro_usd: 0 } });
    expect(await balanceOf(k)).toBe(TEN_USD);

    const robots = await api(gw.apiUrl, 'POST', '/seo/audits', { body: { url: `${siteUrl}/private` }, headers: key(k) });
    const rb = await settled(k, robots.body.order_id, 'failed');
    expect(rb.error).toMatch(/robots\.txt/);

    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const unreachable = await api(gw.apiUrl, 'POST', '/seo/audits', { body: { url: `http://127.0.0.1:${port}/x` }, headers: key(k) });
    expect(unreachable.status).toBe(202);
    // Unreachable is worth another try: the scheduler tries three times, then the order fails, released.
    const u = await settled(k, unreachable.body.order_id, 'failed', 60_000);
    expect(u).toMatchObject({ result: null, payment: { state: 'released', charged_micro_usd: 0 } });
    expect(await balanceOf(k)).toBe(TEN_USD);
  });

  it('answers 422 to a bad URL and to an unknown audit type before anything is held', async () => {
    const k = await account('bad@example.com', 100_000_000);
    for (const url of ['not a url', 'ftp://example.com/x', '/relative']) {
      const r = await api(gw.apiUrl, 'POST', '/seo/audits', { body: { url }, headers: key(k) });
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', 'url']);
    }
    expect((await api(gw.apiUrl, 'POST', '/seo/audits', { body: { url: `${siteUrl}/clean`, audit_type: 'full' }, headers: key(k) })).status).toBe(422);
    expect(await balanceOf(k)).toBe(100_000_000);
    expect((await api(gw.apiUrl, 'GET', '/orders', { headers: key(k) })).body.orders).toEqual([]);
  });

  it('keeps the order from another account, and asks for a key', async () => {
    const k = await account('owner@example.com', TEN_USD);
    const other = await account('stranger@example.com', 0);
    const r = await api(gw.apiUrl, 'POST', '/seo/audits', { body: { url: `${siteUrl}/clean` }, headers: key(k) });
    await settled(k, r.body.order_id, 'delivered');
    expect((await api(gw.apiUrl, 'GET', `/orders/${r.body.order_id}`, { headers: key(other) })).status).toBe(404);
    expect((await api(gw.apiUrl, 'POST', '/seo/audits', { body: { url: `${siteUrl}/clean` } })).status).toBe(401);
  });
});
