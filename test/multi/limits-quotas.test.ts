// Per-agent and per-account quotas under 50 concurrent requests (issue 42): live watches, artifact bytes, memory
// entries, memory bytes and a prepaid balance holding orders. Each lets exactly as many through as there is room
// for, on one gateway and across three instances on one PostgreSQL, and answers the rest as one request past it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { MAX_LIVE_WATCHES } from '../../tools/watches/index.js';
import { api, register } from '../helpers/gateway.js';
import { BURST, burst, OPERATOR, onEachCluster, statusCounts } from './limits-cluster.js';

// A language model that never answers: orders stay in work, so no hold is released during the burst.
const sockets = new Set<import('node:net').Socket>();
const silentLlm = http.createServer(() => undefined).on('connection', (s) => sockets.add(s));
await new Promise<void>((resolve) => silentLlm.listen(0, '127.0.0.1', resolve));
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => silentLlm.close(resolve));
});

const MEMORY_ENTRIES = 20;
const MEMORY_BYTES = 4000;
const ARTIFACT_BYTES = 1000;
const ORDER_PRICE = 5_000_000; // copy.ad, in micro-dollars

const env = {
  GATEWAY_MEMORY_MAX_ENTRIES: String(MEMORY_ENTRIES),
  GATEWAY_MEMORY_MAX_BYTES: String(MEMORY_BYTES),
  GATEWAY_ARTIFACT_MAX_BYTES: String(ARTIFACT_BYTES),
  GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY: '100',
  LLM_BASE_URL: `http://127.0.0.1:${(silentLlm.address() as AddressInfo).port}/v1`,
  LLM_MODEL: 'silent',
  LLM_TIMEOUT_MS: '600000',
};

/** A JSON string value of exactly `n` bytes (the quotes included). */
const sized = (n: number) => 'x'.repeat(n - 2);

onEachCluster('quotas', env, (cluster) => {
  it(`live watches per agent: ${MAX_LIVE_WATCHES} of 50 concurrent creations pass, the rest 409`, async () => {
    const a = await register(cluster().next(), 'watch-burst');
    const calls = await burst(BURST, (i) => api(cluster().next(), 'POST', '/watches', { secret: a.secret, body: { url: `https://example.invalid/page-${i}`, interval_hours: 24 } }));
    expect(statusCounts(calls)).toEqual({ 201: MAX_LIVE_WATCHES, 409: BURST - MAX_LIVE_WATCHES });
    expect(calls.find((c) => c.status === 409)!.body.error).toMatchObject({ code: 'conflict', limit: MAX_LIVE_WATCHES });
    expect((await api(cluster().next(), 'GET', '/watches/watch-burst', { secret: a.secret })).body.watches).toHaveLength(MAX_LIVE_WATCHES);
  });

  it(`artifact bytes per agent: 10 uploads of 100 bytes of 50 concurrent pass, the rest 413`, async () => {
    const a = await register(cluster().next(), 'artifact-burst');
    const upload = () => api(cluster().next(), 'POST', '/artifacts', { secret: a.secret, body: { text: 'x'.repeat(100), filename: 'a.txt', content_type: 'text/plain' } });
    const calls = await burst(BURST, upload);
    expect(statusCounts(calls)).toEqual({ 201: ARTIFACT_BYTES / 100, 413: BURST - ARTIFACT_BYTES / 100 });
    expect(calls.find((c) => c.status === 413)!.body.error).toMatchObject({ code: 'payload_too_large', quota: 'artifact_bytes', limit: ARTIFACT_BYTES, size: 100 });
  });

  it(`memory entries per agent: ${MEMORY_ENTRIES} of 50 concurrent new keys pass, the rest 413`, async () => {
    const a = await register(cluster().next(), 'entries-burst');
    const calls = await burst(BURST, (i) => api(cluster().next(), 'PUT', `/memory/burst/k${i}`, { secret: a.secret, body: { value: i } }));
    expect(statusCounts(calls)).toEqual({ 200: MEMORY_ENTRIES, 413: BURST - MEMORY_ENTRIES });
    expect(calls.find((c) => c.status === 413)!.body.error).toMatchObject({ code: 'payload_too_large', limit: MEMORY_ENTRIES });
    expect((await api(cluster().next(), 'GET', '/memory/stats?handle=entries-burst', { secret: a.secret })).body.entries).toBe(MEMORY_ENTRIES);
  });

  it('memory bytes per agent: 10 writes of 400 bytes of 50 concurrent pass, the rest 413', async () => {
    const a = await register(cluster().next(), 'bytes-burst');
    const calls = await burst(BURST, (i) => api(cluster().next(), 'PUT', `/memory/burst/b${i}`, { secret: a.secret, body: { value: sized(400) } }));
    expect(statusCounts(calls)).toEqual({ 200: MEMORY_BYTES / 400, 413: BURST - MEMORY_BYTES / 400 });
    expect(calls.find((c) => c.status === 413)!.body.error).toMatchObject({ code: 'payload_too_large', quota: 'memory_bytes', limit: MEMORY_BYTES, size: 400 });
  });

  it('order holds on a prepaid balance: 10 orders of 50 concurrent are placed, the rest 402, never overdrawn', async () => {
    const signup = await api(cluster().nextApi(), 'POST', '/signup', { body: { email: 'holds@example.com', name: 'Holds Co' } });
    expect(signup.status).toBe(201);
    const key = { 'x-revenue-key': signup.body.key as string };
    const credit = await api(cluster().next(), 'POST', '/operator/credits', { body: { email: 'holds@example.com', amount: 10 * ORDER_PRICE, reason: 'test' }, headers: { 'x-operator-token': OPERATOR } });
    expect(credit.status).toBe(201);
    const order = () => api(cluster().nextApi(), 'POST', '/copy/orders', { body: { type: 'ad', brief: 'A courier in town', platform: 'Facebook' }, headers: key });
    const calls = await burst(BURST, order);
    expect(statusCounts(calls)).toEqual({ 202: 10, 402: BURST - 10 });
    expect(calls.find((c) => c.status === 402)!.body.error.message).toMatch(/prepaid balance \(\$0\) does not cover this order/);
    const usage = (await api(cluster().nextApi(), 'GET', '/usage', { headers: key })).body;
    expect(usage).toMatchObject({ balance: 0, open_orders: 10, held: { micro_usd: 10 * ORDER_PRICE } });
  });
});
