// The storage budget under 50 concurrent writes (issue 42): it lets exactly as many through as there is room for and
// answers the rest 413, on one gateway (the run's store) and across three instances on one PostgreSQL. The usage a
// refusal reports is read with the owner's counter locked, so a last write past it shows the final count.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { STORAGE_ROW_BYTES } from '../../src/storage-budget.js';
import { api, register } from '../helpers/gateway.js';
import { BURST, burst, OPERATOR, onEachCluster, statusCounts } from '../multi/limits-cluster.js';

// A language model that never answers: orders stay in work, each row as placed.
const sockets = new Set<import('node:net').Socket>();
const silentLlm = http.createServer(() => undefined).on('connection', (s) => sockets.add(s));
await new Promise<void>((resolve) => silentLlm.listen(0, '127.0.0.1', resolve));
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => silentLlm.close(resolve));
});

const VALUE = 400;
const CHARGE = VALUE + STORAGE_ROW_BYTES;
const FITS = 10;
const LIMIT = FITS * CHARGE;

/** A JSON string value of exactly `n` bytes (the quotes included). */
const sized = (n: number) => 'x'.repeat(n - 2);

const env = {
  GATEWAY_AGENT_STORAGE_BYTES: String(LIMIT),
  GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY: '100',
  LLM_BASE_URL: `http://127.0.0.1:${(silentLlm.address() as AddressInfo).port}/v1`,
  LLM_MODEL: 'silent',
  LLM_TIMEOUT_MS: '600000',
};

onEachCluster('storage budget', env, (cluster) => {
  it(`memory: ${FITS} of 50 concurrent writes fit the budget, the rest 413`, async () => {
    const a = await register(cluster().next(), 'budget-burst');
    const calls = await burst(BURST, (i) => api(cluster().next(), 'PUT', `/memory/burst/k${i}`, { secret: a.secret, body: { value: sized(VALUE) } }));
    expect(statusCounts(calls)).toEqual({ 200: FITS, 413: BURST - FITS });
    expect(calls.find((c) => c.status === 413)!.body.error).toMatchObject({ code: 'payload_too_large', quota: 'storage_bytes', limit: LIMIT, size: CHARGE });
    const probe = await api(cluster().next(), 'PUT', '/memory/burst/probe', { secret: a.secret, body: { value: 1 } });
    expect(probe.body.error).toMatchObject({ quota: 'storage_bytes', used: LIMIT });
  });

  it('mixed kinds (memory, artifacts, vault entries) at once never take an agent past its budget', async () => {
    const a = await register(cluster().next(), 'budget-mixed');
    const kinds = [
      (i: number) => api(cluster().next(), 'PUT', `/memory/mixed/k${i}`, { secret: a.secret, body: { value: sized(VALUE) } }),
      (i: number) => api(cluster().next(), 'POST', '/artifacts', { secret: a.secret, body: { text: 'y'.repeat(VALUE), filename: `a${i}.txt`, content_type: 'text/plain' } }),
      (i: number) => api(cluster().next(), 'POST', '/vault', { secret: a.secret, body: { name: `s${i}`, value: 'z'.repeat(VALUE), kind: 'token' } }),
    ];
    const calls = await burst(BURST, (i) => kinds[i % kinds.length](i));
    expect(calls.filter((c) => ![200, 201, 413].includes(c.status))).toEqual([]);
    expect(statusCounts(calls)[413]).toBeGreaterThan(0);
    const probe = await api(cluster().next(), 'PUT', '/memory/mixed/probe', { secret: a.secret, body: { value: sized(LIMIT) } });
    const { used } = probe.body.error;
    expect(used).toBeLessThanOrEqual(LIMIT);
    // Full: no room left for the smallest of the three, a memory write (some of its 17 were refused, so at some point
    // there was no room for one, and usage only grew after).
    expect(used + CHARGE).toBeGreaterThan(LIMIT);
  });

  it("orders: an account's 50 concurrent orders stop at its budget, nothing held for the refused ones", async () => {
    const signup = await api(cluster().nextApi(), 'POST', '/signup', { body: { email: 'budget-burst@example.com', name: 'Burst Co' } });
    expect(signup.status).toBe(201);
    const key = { 'x-revenue-key': signup.body.key as string };
    const price = 5_000_000; // copy.ad
    await api(cluster().next(), 'POST', '/operator/credits', { body: { email: 'budget-burst@example.com', amount: BURST * price, reason: 'test' }, headers: { 'x-operator-token': OPERATOR } });
    const order = () => api(cluster().nextApi(), 'POST', '/copy/orders', { body: { type: 'ad', brief: 'A courier in town', platform: 'Facebook' }, headers: key });
    const calls = await burst(BURST, order);
    const placed = statusCounts(calls)[202];
    expect(statusCounts(calls)).toEqual({ 202: placed, 413: BURST - placed });
    const refusal = (await order()).body.error;
    expect(refusal).toMatchObject({ quota: 'storage_bytes', limit: LIMIT });
    // Every order is the same row: the account holds exactly `placed` of them, and one more would not fit.
    expect(refusal.used).toBe(placed * refusal.size);
    expect(refusal.used + refusal.size).toBeGreaterThan(LIMIT);
    const usage = (await api(cluster().nextApi(), 'GET', '/usage', { headers: key })).body;
    expect(usage).toMatchObject({ open_orders: placed, held: { micro_usd: placed * price } });
  });
});
