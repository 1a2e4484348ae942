// The deep audit's Lighthouse run (tools/commercial/seo/lighthouse.ts) when it cannot finish: no Chromium, a page
// that never answers within the run's budget, and the order's own deadline passing; each is a `why`, never a throw,
// and the next run still works (the queue and the browser are released).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgress, type Egress } from '../../src/egress/index.js';
import { runLighthouse } from '../../tools/commercial/seo/lighthouse.js';
import { CHROMIUM, hasChromium } from '../helpers/browser.js';
import { ENGINES_ONLY_ONCE } from '../helpers/each-store.js';

let site: http.Server;
let siteUrl: string;
let egress: Egress;

beforeAll(async () => {
  site = http.createServer((req, res) => {
    if (req.url === '/hangs') return; // never answers
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><head><title>Fine page</title></head><body><main><h1>Fine</h1></main></body></html>');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  egress = createEgress({ allow: ['127.0.0.1/32'] });
});
afterAll(async () => {
  await egress.close();
  site.closeAllConnections();
  site.close();
});

const settings = (timeoutMs: number) => ({ chromiumPath: CHROMIUM, timeoutMs, maxBytes: 10_000_000 });

// The engine alone (no store): the SQLite pass has run it on the same code.
describe.skipIf(ENGINES_ONLY_ONCE)('a Lighthouse run that cannot finish', () => {
  it('says it needs Chromium when there is none', async () => {
    const run = await runLighthouse(egress, `${siteUrl}/`, { ...settings(60_000), chromiumPath: null });
    expect(run).toEqual({ ran: false, why: expect.stringMatching(/^Lighthouse .* needs Chromium/) });
  });

  it.skipIf(!hasChromium)('stops at its budget on a page that never answers, then runs the next page', async () => {
    const stuck = await runLighthouse(egress, `${siteUrl}/hangs`, settings(6_000));
    expect(stuck.ran).toBe(false);
    expect(!stuck.ran && stuck.why).toMatch(/^Lighthouse (did not finish: it took longer than its 6 s budget|could not audit the page: NO_FCP)/);
    const next = await runLighthouse(egress, `${siteUrl}/`, settings(60_000));
    expect(next.ran).toBe(true);
  }, 90_000);

  it.skipIf(!hasChromium)('stops when the order’s own deadline passes', async () => {
    const run = await runLighthouse(egress, `${siteUrl}/hangs`, settings(60_000), AbortSignal.timeout(3_000));
    expect(run).toEqual({ ran: false, why: 'Lighthouse did not finish: the audit ran out of time; the other parts of the deep audit ran.' });
  }, 30_000);
});
