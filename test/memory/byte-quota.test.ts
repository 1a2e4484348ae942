// The per-agent byte quota of memory (issue 26, GATEWAY_MEMORY_MAX_BYTES): a write that would take an agent's
// values past it is refused with 413 naming the quota, the usage and the write's size; another agent is not
// affected; shrinking always passes; a bulk put past it writes nothing; concurrent writes at the edge take exactly
// the room there is (the database decides, in the write's own trigger).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_MEMORY_MAX_BYTES: '1000' } });
});
afterAll(async () => gw.cleanup());

/** A JSON string value of exactly `n` bytes (the quotes included). */
const sized = (n: number) => 'x'.repeat(n - 2);
const put = (secret: string, key: string, bytes: number) => api(gw.url, 'PUT', `/memory/q/${key}`, { secret, body: { value: sized(bytes) } });

describe('memory byte quota', () => {
  it('refuses a write past the quota with its figures, spares other agents, and lets the agent shrink or delete', async () => {
    const a = await register(gw.url, 'quota-a');
    const b = await register(gw.url, 'quota-b');
    expect((await put(a.secret, 'k1', 600)).status).toBe(200);
    expect((await put(a.secret, 'k2', 300)).status).toBe(200);
    const over = await put(a.secret, 'k3', 200);
    expect(over.status).toBe(413);
    expect(over.body.error).toMatchObject({ code: 'payload_too_large', quota: 'memory_bytes', limit: 1000, used: 900, size: 200 });
    expect(over.body.error.message).toMatch(/quota of 1000 bytes/);
    expect(over.body.error.message).toMatch(/holds 900 bytes/);
    expect((await api(gw.url, 'GET', '/memory/q/k3', { secret: a.secret })).status).toBe(404);
    // Growing an existing value past it is refused too; rewriting it smaller passes.
    expect((await put(a.secret, 'k1', 800)).status).toBe(413);
    expect((await put(a.secret, 'k1', 100)).status).toBe(200);
    expect((await put(a.secret, 'k3', 200)).status).toBe(200);
    // The other agent has its own quota.
    expect((await put(b.secret, 'k1', 900)).status).toBe(200);
    // Deleting frees room.
    expect((await put(a.secret, 'k4', 500)).status).toBe(413);
    await api(gw.url, 'DELETE', '/memory/q/k2', { secret: a.secret });
    expect((await put(a.secret, 'k4', 500)).status).toBe(200);
  });

  it('a bulk put past the quota writes nothing and names the item', async () => {
    const c = await register(gw.url, 'quota-bulk');
    const items = [0, 1, 2].map((i) => ({ namespace: 'q', key: `b${i}`, value: sized(400) }));
    const r = await api(gw.url, 'POST', '/memory/bulk/put', { secret: c.secret, body: { items } });
    expect(r.status).toBe(413);
    expect(r.body.error.item).toBe(2);
    expect((await api(gw.url, 'GET', '/memory/q/b0', { secret: c.secret })).status).toBe(404);
  });

  it('concurrent writes at the edge: exactly as many pass as there is room for', async () => {
    const d = await register(gw.url, 'quota-edge');
    expect((await put(d.secret, 'base', 600)).status).toBe(200);
    const racing = await Promise.all(Array.from({ length: 6 }, (_, i) => put(d.secret, `r${i}`, 100)));
    expect(racing.filter((r) => r.status === 200)).toHaveLength(4);
    expect(racing.filter((r) => r.status === 413)).toHaveLength(2);
    expect((await api(gw.url, 'GET', '/memory/stats?handle=quota-edge', { secret: d.secret })).body).toMatchObject({ entries: 5 });
  });
});
