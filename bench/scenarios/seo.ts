// Issue 24 target: a quick SEO audit of a loopback page ≤ 300 ms. Measured twice: the engine alone (the 19
// checks on the page's linkedom DOM, the score and the fixes) in this process, and the order end to end on the
// built gateway's commercial listener: POST /seo/audits (held), the order's work (robots.txt, the page through
// egress, the checks), captured, polled with GET /orders/{id} until delivered; sequential, after a warm-up.
// The deep audit is measured the same way, informative (no target): robots.txt, /sitemap.xml (404 here), a crawl
// of the fixture's same-origin links (every URL answers the page), content analysis, Lighthouse in Chromium when
// the machine has it (seconds: it dominates), the plan.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { auditPage } from '../../tools/commercial/seo/checks.js';
import { commercialAccount, pct, requestJson as call, timeSequential } from '../lib/commercial.js';
import { BENCH_OPERATOR_TOKEN, ROOT, freePort, startGateway } from '../lib/processes.js';

const PAGE = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'seo', 'faulty.html'), 'utf8');

export async function seo(): Promise<string> {
  const page = { url: 'http://127.0.0.1/faulty', finalUrl: 'http://127.0.0.1/faulty', status: 200, redirects: [], headers: { 'x-robots-tag': 'noindex' }, html: PAGE, bytes: PAGE.length, elapsedMs: 3 };
  const engine = await timeSequential(() => auditPage(page), { warmup: 20, runs: 200 });

  const site = http.createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-robots-tag': 'noindex' }).end(PAGE);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const apiPort = await freePort();
  const gw = await startGateway({ GATEWAY_API_PORT: String(apiPort), GATEWAY_OPERATOR_TOKEN: BENCH_OPERATOR_TOKEN, GATEWAY_EGRESS_ALLOW: '127.0.0.1/32' });
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const { key } = await commercialAccount(gw, apiUrl, 'bench-seo@example.com', 1_000_000_000);
  const audit = async (audit_type: 'quick' | 'deep' = 'quick') => {
    const placed = await call('POST', apiUrl, '/seo/audits', { url: `${siteUrl}/page`, audit_type }, { 'x-revenue-key': key });
    if (placed.status !== 202) throw new Error(`POST /seo/audits answered ${placed.status}: ${JSON.stringify(placed.body)}`);
    for (;;) {
      const o = await call('GET', apiUrl, `/orders/${placed.body.order_id}`, undefined, { 'x-revenue-key': key });
      if (o.body.status === 'delivered') return o.body;
      if (o.body.status === 'failed') throw new Error(`the audit failed: ${o.body.error}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  let first: any;
  let deepFirst: any;
  let e2e: number[] = [];
  let deep: number[] = [];
  try {
    first = await audit();
    e2e = await timeSequential(() => audit(), { warmup: 10, runs: 50 });
    deepFirst = await audit('deep');
    deep = await timeSequential(() => audit('deep'), { warmup: 0, runs: 3 });
  } finally {
    await gw.stop();
    site.closeAllConnections();
    site.close();
  }
  return [
    '## SEO audit (issue 24)',
    `- quick audit of a ${(PAGE.length / 1024).toFixed(1)} KiB loopback page (test/fixtures/seo/faulty.html, no redirect; score ${first.result.score}, ${first.result.checks.length} checks):`,
    `  - engine alone (linkedom DOM, 20 checks, score, fixes): p50 ${pct(engine, 50).toFixed(2)} ms, p99 ${pct(engine, 99).toFixed(2)} ms`,
    `  - order end to end (POST /seo/audits held → work: robots.txt, page through egress, checks → captured → GET /orders/{id} delivered; sequential): p50 ${pct(e2e, 50).toFixed(1)} ms, p99 ${pct(e2e, 99).toFixed(1)} ms (target ≤ 300 ms)`,
    `  - charged per audit: $${first.payment.charged_usd}`,
    `- deep audit of the same page (order end to end; ${deepFirst.result.crawl.pages.length} URLs crawled, ${deepFirst.result.action_plan.length} plan items, Lighthouse ${deepFirst.result.skipped.includes('lighthouse') ? 'skipped' : `ran in ${deepFirst.result.lighthouse.duration_ms} ms`}; informative, no target): p50 ${pct(deep, 50).toFixed(1)} ms, p99 ${pct(deep, 99).toFixed(1)} ms; charged $${deepFirst.payment.charged_usd}`,
  ].join('\n');
}
