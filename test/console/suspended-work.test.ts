// What a suspended agent set going stops with it: the API keys it issued are refused like its secret, and its
// watches' checks, its timers (delay jobs) and the webhooks to its callbacks wait, keeping their attempts, until the
// suspension ends; then they run. Another agent's keys and work are untouched throughout.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

const OP = 'operator-token-for-the-suspended-work-tests';
const op = { 'x-operator-token': OP };
const HOUR = 3600_000;
let gw: TestGateway;
let site: http.Server;
let siteUrl: string;
const pages: Record<string, string> = {};
const hits: Record<string, number> = {};
const hooks: { status: number; body: any }[] = [];
let hookStatus = 200;
let bob: { handle: string; secret: string };
let alice: { handle: string; secret: string };

beforeAll(async () => {
  site = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const path = req.url ?? '';
      hits[path] = (hits[path] ?? 0) + 1;
      if (path === '/hook') {
        hooks.push({ status: hookStatus, body: JSON.parse(body) });
        return void res.writeHead(hookStatus).end();
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end(pages[path] ?? '');
    });
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  gw = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OP, GATEWAY_EGRESS_ALLOW: '127.0.0.1/32' } });
  [alice, bob] = [await register(gw.url, 'alice'), await register(gw.url, 'bob')];
});
afterAll(async () => {
  await gw?.cleanup();
  await new Promise((r) => site?.close(r));
});

const runDue = () => gw.gateway.registry.services.scheduler.runDue();
const suspend = async (handle: string, on: boolean) =>
  expect((await api(gw.url, 'POST', `/operator/agents/${handle}/${on ? 'suspend' : 'unsuspend'}`, { headers: op })).status).toBe(200);
const usage = (key: string) => api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } });
const convert = (key: string) => api(gw.url, 'POST', '/tools/base_convert', { headers: { 'x-api-key': key }, body: { value: '255', from_base: 10, to_base: 2 } });
const a2aSend = (key: string) =>
  api(gw.url, 'POST', '/a2a', {
    headers: { 'x-api-key': key },
    body: { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: `m-${Math.random()}`, role: 'user', parts: [{ kind: 'text', text: 'convert 255 to base 2' }] } } },
  });

describe('a suspended agent', () => {
  it('has the API keys it issued refused (403 agent_suspended) on REST and A2A until the suspension ends; other keys work', async () => {
    const bobs = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'bob@example.com' }, secret: bob.secret })).body.key as string;
    const alices = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'alice@example.com' }, secret: alice.secret })).body.key as string;
    const anyone = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'someone@example.com' } })).body.key as string;
    // Looked up (and cached) before the suspension: the suspension still applies at once on this instance.
    expect((await usage(bobs)).status).toBe(200);
    expect((await convert(bobs)).status).toBe(200);
    expect((await a2aSend(bobs)).body.result.status.state).toBe('completed');

    await suspend('bob', true);
    const refused = await usage(bobs);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('agent_suspended');
    const viaA2a = await a2aSend(bobs);
    expect(viaA2a.body.result).toBeUndefined();
    expect(viaA2a.body.error).toMatchObject({ code: -32000, data: { code: 'agent_suspended', status: 403 } });
    // The HTTP+JSON binding answers 403 as REST does.
    const viaRest = await api(gw.url, 'POST', '/a2a/message:send', {
      headers: { 'x-api-key': bobs, 'a2a-version': '1.0' },
      body: { message: { messageId: 'm-rest', role: 'ROLE_USER', parts: [{ text: 'convert 255 to base 2' }] } },
    });
    expect(viaRest.status).toBe(403);
    expect(viaRest.body.error.message).toMatch(/suspended/);
    // A paid call with the key is refused as the agent's own credentials are, not offered another way to pay (402).
    const paid = await convert(bobs);
    expect(paid.status).toBe(403);
    expect(paid.body.error.code).toBe('agent_suspended');
    for (const key of [alices, anyone]) {
      expect((await usage(key)).status).toBe(200);
      expect((await convert(key)).status).toBe(200);
      expect((await a2aSend(key)).body.result.status.state).toBe('completed');
    }

    await suspend('bob', false);
    expect((await usage(bobs)).status).toBe(200);
    expect((await convert(bobs)).body.value).toBe('11111111');
    expect((await a2aSend(bobs)).body.result.status.state).toBe('completed');
  });

  it('has its watch checks, its timer and its webhooks held while suspended, and run once it ends', async () => {
    pages['/bob'] = 'first';
    pages['/alice'] = 'first';
    const watch = await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/bob`, interval_hours: 1, callback_url: `${siteUrl}/hook` }, secret: bob.secret });
    const alicesWatch = await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/alice`, interval_hours: 1 }, secret: alice.secret });
    expect([watch.status, alicesWatch.status]).toEqual([201, 201]);
    await runDue();
    expect([hits['/bob'], hits['/alice']]).toEqual([1, 1]);

    // A change: its webhook fails (503) and waits for a retry (which the scheduler's own ticks may already make).
    hookStatus = 503;
    pages['/bob'] = 'second';
    gw.clock.advance(HOUR);
    await runDue();
    expect(hits['/bob']).toBe(2);
    await eventually(async () => expect(hooks.length).toBeGreaterThan(0));

    const timer = await api(gw.url, 'POST', '/jobs', { body: { type: 'delay', seconds: 600, callback_url: `${siteUrl}/hook` }, secret: bob.secret });
    expect(timer.status).toBe(202);
    await suspend('bob', true);
    // Whatever ran when the suspension began has finished: from here on, nothing of bob's may run.
    await runDue();
    const failed = hooks.length;
    expect(hooks.every((h) => h.status === 503 && h.body.event === 'watch.changed')).toBe(true);
    hookStatus = 200;
    pages['/bob'] = 'third';
    pages['/alice'] = 'second';
    // Past the watch's interval, the timer's due time and the webhook's backoff, twice over.
    for (let i = 0; i < 3; i++) {
      gw.clock.advance(HOUR);
      await runDue();
    }
    expect(hits['/bob']).toBe(2);
    expect(hooks).toHaveLength(failed);
    expect((await api(gw.url, 'GET', `/jobs/${timer.body.job_id}`)).body.status).toBe('queued');
    // Alice's watch runs on.
    expect(hits['/alice']).toBe(5);

    await suspend('bob', false);
    gw.clock.advance(61_000);
    await runDue();
    await runDue();
    expect(hits['/bob']).toBe(3);
    expect((await api(gw.url, 'GET', `/jobs/${timer.body.job_id}`)).body.status).toBe('succeeded');
    const watched = await api(gw.url, 'GET', `/watch/${watch.body.watch_id}`, { secret: bob.secret });
    expect(watched.body).toMatchObject({ checks: 3, changes: 2 });
    // The held delivery went out on its next attempt, beside the timer's and the new change's.
    await eventually(async () => expect(hooks.slice(failed).map((h) => h.status)).toEqual([200, 200, 200]));
    expect(hooks.slice(failed).map((h) => h.body.event).sort()).toEqual(['job.finished', 'watch.changed', 'watch.changed']);
    expect((await api(gw.url, 'GET', `/jobs/${timer.body.job_id}`)).body.callback.deliveries.map((d: { status: string }) => d.status)).toEqual(['delivered']);
  });
});
