// The SEO audit's agreement with Lighthouse's SEO category (issue 43) on pages with known faults
// (test/fixtures/quality/seo: pages.json names each page, its status, headers, robots.txt and the audits its fault
// is built to fail). Each page is served from a loopback server of its own (robots.txt is per origin). The service
// audits it as its orders do: the page fetched through egress (fetch.ts), then the quick checks and the deep audit,
// which runs Lighthouse (SEO, performance, accessibility; mobile, simulated) in Chromium behind the browser proxy.
// Lighthouse's verdict is that run's: an SEO audit fails when it is in the report's failed audits; a page
// Lighthouse stops on for its error status (ERRORED_DOCUMENT_REQUEST) fails http-status-code. A page the service
// refuses is run through Lighthouse alone (runLighthouse, as the deep audit does). The findings are mapped to
// Lighthouse's audits by tools/commercial/seo/lighthouse-map.ts.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEgress, type Egress } from '../../src/egress/index.js';
import { GatewayError } from '../../src/errors.js';
import { auditPage } from '../../tools/commercial/seo/checks.js';
import { deepAudit } from '../../tools/commercial/seo/deep.js';
import { fetchPage } from '../../tools/commercial/seo/fetch.js';
import { runLighthouse } from '../../tools/commercial/seo/lighthouse.js';
import { LIGHTHOUSE_SEO_MAP } from '../../tools/commercial/seo/lighthouse-map.js';
import type { QualityReport } from './report.js';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures', 'quality', 'seo');
const CHROMIUM = process.env.GATEWAY_CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';

export interface FixturePage {
  name: string;
  file: string;
  path: string;
  status?: number;
  headers?: Record<string, string>;
  robots?: string;
  lighthouse_fails: string[];
  fault: string;
}

export function loadPages(): { defaultRobots: string; pages: FixturePage[] } {
  const j = JSON.parse(fs.readFileSync(path.join(DIR, 'pages.json'), 'utf8')) as { default_robots: string; pages: FixturePage[] };
  return { defaultRobots: j.default_robots, pages: j.pages };
}

export interface PageResult {
  page: string;
  /** Lighthouse's failed SEO audits. */
  lighthouse: string[];
  /** The quick audit's failed checks, or `order:<reason>` when the page was refused. */
  quick: string[];
  /** The deep audit's failed checks (page, site, content, Lighthouse's own checks), or the refusal. */
  deep: string[];
  /** Why Lighthouse did not run, when it did not. */
  lighthouse_error?: string;
}

/** Serves one fixture page at its path, robots.txt, and a small page for any other path (its links). */
async function serve(p: FixturePage, defaultRobots: string): Promise<{ origin: string; close(): void }> {
  const html = fs.readFileSync(path.join(DIR, p.file), 'utf8');
  let origin = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(p.robots ?? defaultRobots);
    if (url.pathname === p.path) return void res.writeHead(p.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...p.headers }).end(html.replaceAll('{{origin}}', origin).replaceAll('{{path}}', p.path));
    if (/\.(png|ico)$/.test(url.pathname)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><title>Northwind Outfitters: ${url.pathname}</title></head><body><h1>${url.pathname}</h1></body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const settings = { chromiumPath: CHROMIUM, timeoutMs: 90_000, maxBytes: 30 * 1024 * 1024 };

/** One page: the service's audits and Lighthouse's verdict. */
async function auditFixture(egress: Egress, p: FixturePage, defaultRobots: string): Promise<PageResult> {
  const site = await serve(p, defaultRobots);
  const url = `${site.origin}${p.path}`;
  try {
    let page;
    try {
      page = await fetchPage(egress, url, Date.now());
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      const refusal = `order:${String(err.extra.reason ?? err.code)}`;
      const lh = await runLighthouse(egress, url, settings);
      const lighthouse = lh.ran ? lh.report.failed_audits.filter((a) => a.category === 'seo').map((a) => a.id) : lighthouseStop(lh.why);
      return { page: p.name, lighthouse, quick: [refusal], deep: [refusal], ...(lh.ran ? {} : { lighthouse_error: lh.why }) };
    }
    const quick = auditPage(page).failed;
    const deep = await deepAudit(egress, page, Date.now(), settings);
    const lighthouse = deep.lighthouse ? deep.lighthouse.failed_audits.filter((a) => a.category === 'seo').map((a) => a.id) : [];
    return { page: p.name, lighthouse, quick, deep: deep.failed, ...(deep.lighthouse ? {} : { lighthouse_error: deep.skipped_why.lighthouse }) };
  } finally {
    site.close();
  }
}

/** Lighthouse stops on a document with an error status: that is its http-status-code audit failing. */
function lighthouseStop(why: string): string[] {
  return /ERRORED_DOCUMENT_REQUEST/.test(why) ? ['http-status-code'] : [];
}

/** Every fixture page audited by the service and by Lighthouse, one at a time (one Chromium at a time). */
export async function auditFixtures(only?: string[]): Promise<PageResult[]> {
  const { defaultRobots, pages } = loadPages();
  const egress = createEgress({ allow: ['127.0.0.1/32'] });
  try {
    const out: PageResult[] = [];
    for (const p of pages) if (!only || only.includes(p.name)) out.push(await auditFixture(egress, p, defaultRobots));
    return out;
  } finally {
    await egress.close();
  }
}

export interface AgreementRow {
  audit: string;
  findings: string[];
  /** Pages where Lighthouse fails the audit. */
  fails: string[];
  /** Of those, pages where the service reports one of its findings. */
  matched: string[];
  /** Pages where Lighthouse passes it and the service reports one of its findings anyway. */
  extra: string[];
}

/** Whether Lighthouse gave a verdict on this audit for the page: it ran, or it stopped on the page's error status
 * (a verdict on http-status-code only). */
function judged(r: PageResult, audit: string): boolean {
  if (!r.lighthouse_error) return true;
  return /ERRORED_DOCUMENT_REQUEST/.test(r.lighthouse_error) && audit === 'http-status-code';
}

/** The agreement table: per Lighthouse SEO audit, where it fails, where the service matches, where it over-reports. */
export function agreement(results: PageResult[]): AgreementRow[] {
  return LIGHTHOUSE_SEO_MAP.filter((m) => !m.manual).map((m) => {
    const reports = (r: PageResult) => [...r.quick, ...r.deep].some((f) => m.findings.includes(f));
    const fails = results.filter((r) => r.lighthouse.includes(m.audit));
    const passes = results.filter((r) => judged(r, m.audit) && !r.lighthouse.includes(m.audit));
    return {
      audit: m.audit,
      findings: m.findings,
      fails: fails.map((r) => r.page),
      matched: fails.filter(reports).map((r) => r.page),
      extra: passes.filter(reports).map((r) => r.page),
    };
  });
}

export async function measure(): Promise<QualityReport[]> {
  if (!fs.existsSync(CHROMIUM)) {
    return [{ title: 'SEO: agreement with Lighthouse’s SEO category', rows: [], notes: [`Not measured: no Chromium at ${CHROMIUM}.`] }];
  }
  const results = await auditFixtures();
  const rows = agreement(results);
  const { pages } = loadPages();
  const same = (a: string[], b: string[]) => [...a].sort().join() === [...b].sort().join();
  const unplanned = results.filter((r) => !same(pages.find((p) => p.name === r.page)!.lighthouse_fails, r.lighthouse));
  const agreed = rows.filter((r) => r.matched.length === r.fails.length && !r.extra.length).length;
  return [
    {
      title: 'SEO: agreement with Lighthouse’s SEO category',
      rows: rows.map((r) => ({
        'Lighthouse audit': r.audit,
        'service findings': r.findings.join(', '),
        'pages where it fails': r.fails.join(', ') || '—',
        'matched by the service': `${r.matched.length}/${r.fails.length}`,
        'reported where Lighthouse passes': r.extra.join(', ') || '0',
      })),
      notes: [
        `${agreed} of ${rows.length} scored SEO audits agree on all ${results.length} pages (test/fixtures/quality/seo); structured-data is manual in Lighthouse and not compared.`,
        ...results.filter((r) => r.lighthouse_error && !/ERRORED_DOCUMENT_REQUEST/.test(r.lighthouse_error)).map((r) => `${r.page}: Lighthouse did not run to the end: ${r.lighthouse_error}`),
        ...unplanned.map((r) => `${r.page}: Lighthouse failed ${r.lighthouse.join(', ') || 'nothing'}, not the audits its fault was built for (${pages.find((p) => p.name === r.page)!.lighthouse_fails.join(', ') || 'none'}).`),
        'Per page (service findings): ' + results.map((r) => `${r.page}: quick [${r.quick.join(', ')}], deep adds [${r.deep.filter((f) => !r.quick.includes(f)).join(', ')}]`).join('; '),
      ],
    },
  ];
}
