import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../src/egress/index.js';
import { ManualClock } from '../../src/clock.js';
import { api, register, startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';

let gw: TestGateway;
let site: http.Server;
let siteUrl: string;
const hooks: { headers: http.IncomingHttpHeaders; body: string }[] = [];
let hookStatus = 200;
/** Requests for /big/…: 400 KB of text each. */
let bigServed = 0;
/** Requests for /huge/…: 2 MB of text each, sent without a Content-Length (so only reading it finds it too large). */
let hugeServed = 0;

beforeAll(async () => {
  site = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url === '/hook') {
        hooks.push({ headers: req.headers, body });
        res.writeHead(hookStatus).end();
        return;
      }
      if (req.url === '/page.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":"bundle"}');
      if (req.url?.startsWith('/huge/')) {
        hugeServed++;
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.on('error', () => undefined);
        const chunk = 'h'.repeat(64 * 1024);
        let sent = 0;
        const more = () => {
          while (sent < 32 && !res.destroyed) {
            sent++;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        return more();
      }
      if (req.url?.startsWith('/big/')) {
        bigServed++;
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end('b'.repeat(400 * 1024));
      }
      if (req.url === '/img') return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      res.writeHead(404).end('missing');
    });
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  gw = await startGateway({ env: { GATEWAY_EGRESS_ALLOW: '127.0.0.1/32' } });
});
afterAll(async () => {
  await gw.cleanup();
  await new Promise((r) => site.close(r));
});

const runDue = () => gw.gateway.registry.services.scheduler.runDue();

/** An anonymous fetch_bundle job of `urls`, run to success. */
async function bundled(urls: string[]) {
  const r = await api(gw.url, 'POST', '/jobs', { body: { type: 'fetch_bundle', urls } });
  await runDue();
  return eventually(async () => {
    const j = await api(gw.url, 'GET', `/jobs/${r.body.job_id}`);
    expect(j.body.status).toBe('succeeded');
    return j.body;
  });
}

describe('jobs', () => {
  it('lists the menu and validates input per type', async () => {
    const menu = await api(gw.url, 'GET', '/jobs');
    expect(menu.body.types.map((t: { type: string }) => t.type)).toEqual(['fetch_bundle', 'delay']);
    expect((await api(gw.url, 'POST', '/jobs', { body: { type: 'delay' } })).body.detail[0].loc).toEqual(['body', 'seconds']);
    expect((await api(gw.url, 'POST', '/jobs', { body: { type: 'delay', seconds: 31 * 86400 } })).status).toBe(422);
    expect((await api(gw.url, 'POST', '/jobs', { body: { type: 'fetch_bundle', urls: Array(21).fill('http://x.example/') } })).status).toBe(422);
    expect((await api(gw.url, 'POST', '/jobs', { body: { type: 'nope' } })).status).toBe(422);
  });

  it('a delay job is queued at once and finishes at its due time (moved clock)', async () => {
    const a = await register(gw.url, 'job-owner');
    const r = await api(gw.url, 'POST', '/jobs', { body: { type: 'delay', seconds: 3600 }, secret: a.secret });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ status: 'queued', poll_url: `${gw.url}/jobs/${r.body.job_id}` });
    await runDue();
    expect((await api(gw.url, 'GET', `/jobs/${r.body.job_id}`)).body.status).toBe('queued');
    gw.clock.advance(3600 * 1000);
    await runDue();
    const done = await api(gw.url, 'GET', `/jobs/${r.body.job_id}`);
    expect(done.body).toMatchObject({ status: 'succeeded', result: { waited_seconds: 3600 } });
    const tray = await api(gw.url, 'GET', '/notifications?kind=job', { secret: a.secret });
    expect(tray.body.notifications[0].data).toEqual({ job_id: r.body.job_id, status: 'succeeded' });
  });

  it('the owner can cancel a queued job; others cannot', async () => {
    const a = await register(gw.url, 'job-canceller');
    const b = await register(gw.url, 'job-stranger');
    const r = await api(gw.url, 'POST', '/jobs', { body: { type: 'delay', seconds: 60 }, secret: a.secret });
    expect((await api(gw.url, 'POST', `/jobs/${r.body.job_id}/cancel`, { secret: b.secret })).status).toBe(404);
    expect((await api(gw.url, 'POST', `/jobs/${r.body.job_id}/cancel`)).status).toBe(401);
    expect((await api(gw.url, 'POST', `/jobs/${r.body.job_id}/cancel`, { secret: a.secret })).body.status).toBe('canceled');
    expect((await api(gw.url, 'POST', `/jobs/${r.body.job_id}/cancel`, { secret: a.secret })).status).toBe(409);
    gw.clock.advance(120_000);
    await runDue();
    expect((await api(gw.url, 'GET', `/jobs/${r.body.job_id}`)).body.status).toBe('canceled');
  });

  it('fetch_bundle stores one artifact; a failing URL is recorded, not fatal', async () => {
    const r = await api(gw.url, 'POST', '/jobs', { body: { type: 'fetch_bundle', urls: [`${siteUrl}/page.json`, `${siteUrl}/img`, 'http://127.0.0.1:1/closed', `${siteUrl}/nothing`] } });
    await runDue();
    const job = await eventually(async () => {
      const j = await api(gw.url, 'GET', `/jobs/${r.body.job_id}`);
      expect(j.body.status).toBe('succeeded');
      return j.body;
    });
    expect(job.result.succeeded).toBe(2);
    expect(job.result.failed).toBe(2);
    expect(job.result.urls.map((u: { status: number | null }) => u.status)).toEqual([200, 200, null, 404]);
    expect(job.result.urls[2].error.code).toBe('connect');
    const bundle = (await (await fetch(job.result.artifact.url)).json()) as any;
    expect(bundle.items[0]).toMatchObject({ final_url: `${siteUrl}/page.json`, text: '{"hello":"bundle"}', content_type: 'application/json' });
    expect(bundle.items[1].base64).toBe(Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64'));
    expect(bundle.items[0].sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('fetch_bundle downloads no more than the bundle can keep: once its bytes are taken, the URLs left are listed unfetched', async () => {
    bigServed = 0;
    const urls = Array.from({ length: 12 }, (_, i) => `${siteUrl}/big/${i}`);
    const job = await bundled(urls);
    // An anonymous bundle keeps 1 MB: a URL is requested only while less than that has come in, 4 at a time, so at
    // most 1 MB plus the 4 in flight (of 400 KB) is downloaded; the rest are never requested.
    expect(bigServed).toBeLessThanOrEqual(Math.floor((1024 + 4 * 400) / 400));
    const items = job.result.urls as { url: string; ok: boolean; error?: { code: string; message: string } }[];
    expect(items.map((i) => i.url)).toEqual(urls);
    const unfetched = items.filter((i) => i.error?.message.startsWith('not fetched'));
    expect(unfetched.length).toBe(12 - bigServed);
    expect(unfetched.every((i) => i.error!.code === 'dropped' && !i.ok)).toBe(true);
    const artifact = await fetch(job.result.artifact.url);
    expect((await artifact.arrayBuffer()).byteLength).toBeLessThanOrEqual(1024 * 1024);
  });

  it('fetch_bundle counts the bytes of a body read and then refused as too large, so such URLs cannot download without end', async () => {
    hugeServed = 0;
    const urls = Array.from({ length: 12 }, (_, i) => `${siteUrl}/huge/${i}`);
    const job = await bundled(urls);
    // Each of the first four reads past 1 MB before it is refused; that is the anonymous bundle's whole size.
    expect(hugeServed).toBeLessThanOrEqual(4);
    const items = job.result.urls as { error?: { code: string; message: string } }[];
    expect(items.filter((i) => i.error?.code === 'too_large').length).toBe(hugeServed);
    expect(items.filter((i) => i.error?.message.startsWith('not fetched')).length).toBe(12 - hugeServed);
  });

  it('fires a signed callback with retries, and shows the delivery on the job', async () => {
    const a = await register(gw.url, 'job-hooked');
    const secret = (await api(gw.url, 'GET', '/agents/job-hooked/webhook-secret', { secret: a.secret })).body.secret;
    hooks.length = 0;
    hookStatus = 503;
    const r = await api(gw.url, 'POST', '/jobs', { body: { type: 'delay', seconds: 1, callback_url: `${siteUrl}/hook` }, secret: a.secret });
    gw.clock.advance(1000);
    await runDue();
    await eventually(async () => expect(hooks.length).toBe(1));
    hookStatus = 200;
    gw.clock.advance(15 * 60_000);
    await runDue();
    await eventually(async () => expect(hooks.length).toBe(2));
    const h = hooks[1];
    const ts = String(h.headers['x-gateway-timestamp']);
    expect(verifyWebhookSignature(secret, ts, h.body, String(h.headers['x-gateway-signature']), 1e9)).toBe(true);
    expect(verifyWebhookSignature('whsec_wrong', ts, h.body, String(h.headers['x-gateway-signature']), 1e9)).toBe(false);
    expect(JSON.parse(h.body)).toMatchObject({ event: 'job.finished', job_id: r.body.job_id, status: 'succeeded' });
    const job = await api(gw.url, 'GET', `/jobs/${r.body.job_id}`);
    expect(job.body.callback.deliveries[0].status).toBe('delivered');
    expect(job.body.callback.deliveries[0].attempts.map((x: { status: number }) => x.status)).toEqual([503, 200]);
    expect(JSON.stringify(job.body)).not.toContain(secret);
  });

  it('anonymous jobs get their own callback secret, once', async () => {
    hooks.length = 0;
    const r = await api(gw.url, 'POST', '/jobs', { body: { type: 'delay', seconds: 1, callback_url: `${siteUrl}/hook` } });
    expect(r.body.callback_secret).toMatch(/^whsec_/);
    gw.clock.advance(1000);
    await runDue();
    await runDue();
    await eventually(async () => expect(hooks.length).toBe(1));
    expect(verifyWebhookSignature(r.body.callback_secret, String(hooks[0].headers['x-gateway-timestamp']), hooks[0].body, String(hooks[0].headers['x-gateway-signature']), 1e9)).toBe(true);
    expect(JSON.stringify((await api(gw.url, 'GET', `/jobs/${r.body.job_id}`)).body)).not.toContain(r.body.callback_secret);
  });
});

describe('durability', () => {
  it('a delay job survives a restart of the gateway', async () => {
    const dir = tempDir();
    const clock = new ManualClock();
    const first = await startGateway({ dataDir: dir, clock });
    const r = await api(first.url, 'POST', '/jobs', { body: { type: 'delay', seconds: 600 } });
    await first.stop();
    clock.advance(601_000);
    const second = await startGateway({ dataDir: dir, clock });
    try {
      await second.gateway.registry.services.scheduler.runDue();
      expect((await api(second.url, 'GET', `/jobs/${r.body.job_id}`)).body.status).toBe('succeeded');
    } finally {
      await second.cleanup();
    }
  });

  it('two gateway processes on one database never run a job twice', async () => {
    const dir = tempDir();
    const clock = new ManualClock();
    const one = await startGateway({ dataDir: dir, clock });
    const two = await startGateway({ dataDir: dir, clock });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 60; i++) ids.push((await api(one.url, 'POST', '/jobs', { body: { type: 'delay', seconds: 5 } })).body.job_id);
      clock.advance(5000);
      const ran = await Promise.all([one.gateway.registry.services.scheduler.runDue(), two.gateway.registry.services.scheduler.runDue()]);
      expect(ran[0] + ran[1]).toBe(60);
      const rows = await one.gateway.db.all<{ attempts: number; status: string }>('SELECT attempts, status FROM jobs');
      expect(rows.every((r) => r.status === 'succeeded' && r.attempts === 1)).toBe(true);
      expect(rows).toHaveLength(60);
    } finally {
      await two.stop();
      await one.cleanup();
    }
  });
});
