// The per-agent storage budget end to end (issue 42, docs/decisions/storage-budget.md), on one gateway with a small
// budget (GATEWAY_AGENT_STORAGE_BYTES): every kind of row an agent causes counts, and a commercial account's orders
// count for the account; a write past the budget answers 413 naming it (quota storage_bytes, limit, used, size) and
// stores nothing, whatever the kind; reads go on; a delete gives room back; the gateway's own work on accepted rows is
// counted but never refused; another agent's budget is its own. Counters are read from the database.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_ROW_BYTES } from '../../src/storage-budget.js';
import { storageUsed } from '../../src/store/storage-budget.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { rpc, userText } from '../a2a/rpc.js';
import { RECOUNT } from './recount.js';

const LIMIT = 30_000;
const OPERATOR = 'operator-token-for-storage-budget-tests';

// A language model that never answers: an order stays in work, its row as placed.
const sockets = new Set<import('node:net').Socket>();
const silentLlm = http.createServer(() => undefined).on('connection', (s) => sockets.add(s));
await new Promise<void>((resolve) => silentLlm.listen(0, '127.0.0.1', resolve));

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({
    env: {
      GATEWAY_AGENT_STORAGE_BYTES: String(LIMIT),
      GATEWAY_OPERATOR_TOKEN: OPERATOR,
      LLM_BASE_URL: `http://127.0.0.1:${(silentLlm.address() as AddressInfo).port}/v1`,
      LLM_MODEL: 'silent',
      LLM_TIMEOUT_MS: '600000',
    },
  });
});
afterAll(async () => {
  await gw?.cleanup();
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => silentLlm.close(resolve));
});

const idOf = async (handle: string) => (await gw.gateway.db.get<{ id: string }>('SELECT id FROM agents WHERE handle = ?', [handle]))!.id;
const used = (ownerId: string) => storageUsed(gw.gateway.db, ownerId);
const recounted = async (ownerId: string) => Number((await gw.gateway.db.all<{ owner_id: string; bytes: number }>(RECOUNT)).find((r) => r.owner_id === ownerId)?.bytes ?? 0);
const rowsOf = async (table: string, column: string, id: string) => Number((await gw.gateway.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`, [id]))!.n);
/** A JSON string value of exactly `n` bytes (the quotes included). */
const sized = (n: number) => 'x'.repeat(n - 2);

type Agent = { handle: string; secret: string };
const asAgent = (a: Agent, method: string, path: string, body?: unknown) => api(gw.url, method, path, { secret: a.secret, body });

/** Every kind of write an agent makes that stores a row, against another agent `peer` and its post. */
const WRITES = (a: Agent, peer: string, postId: number, n: number) => ({
  memory: () => asAgent(a, 'PUT', `/memory/notes/k${n}`, { value: { text: `note ${n}`, pad: sized(50) } }),
  artifact: () => asAgent(a, 'POST', '/artifacts', { text: `artifact ${n} `.repeat(20), filename: `a${n}.txt`, content_type: 'text/plain' }),
  vault: () => asAgent(a, 'POST', '/vault', { name: `secret-${n}`, value: `value-${n}-${sized(40)}`, kind: 'token' }),
  post: () => asAgent(a, 'POST', '/wall', { text: `A post, number ${n}, long enough to count.` }),
  reaction: () => asAgent(a, 'POST', `/wall/${postId}/react`, { reaction: ['like', 'thanks', 'verified', 'insightful', 'reproduced'][n % 5] }),
  follow: () => asAgent(a, 'POST', `/follow/${peer}`),
  mail: () => asAgent(a, 'POST', '/mail', { to: peer, subject: `hello ${n}`, body: `A letter, number ${n}.` }),
  job: () => asAgent(a, 'POST', '/jobs', { type: 'delay', seconds: 3600 }),
  handoff: () => asAgent(a, 'POST', '/handoff', { task: `Check thing ${n} by hand`, context: { n } }),
  watch: () => asAgent(a, 'POST', '/watches', { url: `https://example.invalid/page-${n}`, interval_hours: 24 }),
});

describe('storage budget, one gateway', () => {
  it('charges every kind of row an agent causes, and an account its orders', async () => {
    const a = await register(gw.url, 'budget-keeper');
    const peer = await register(gw.url, 'budget-peer');
    const postId = (await asAgent(peer, 'POST', '/wall', { text: 'something to react to' })).body.post_id as number;
    const id = await idOf(a.handle);
    const writes = WRITES(a, peer.handle, postId, 1);
    let before = await used(id);
    expect(before).toBe(0);
    for (const [kind, write] of Object.entries(writes)) {
      const r = await write();
      expect(r.status, `${kind}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
      const now = await used(id);
      expect(now - before, kind).toBeGreaterThanOrEqual(STORAGE_ROW_BYTES);
      before = now;
    }
    // A rewrite keeps the replaced value in the history: both count.
    const rewrite = await asAgent(a, 'PUT', '/memory/notes/k1', { value: sized(300) });
    expect(rewrite.status).toBe(200);
    expect(await used(id)).toBe(before + 300 + STORAGE_ROW_BYTES);
    // An A2A task sent with the agent's secret is the agent's.
    before = await used(id);
    const task = await rpc(gw.url, 'message/send', userText('convert 255 to base 2'), { authorization: `Bearer ${a.secret}` });
    expect(task.body.result.kind).toBe('task');
    expect(await used(id)).toBeGreaterThan(before + STORAGE_ROW_BYTES);
    expect(await used(id)).toBe(await recounted(id));
    // The peer's post and the mail it received are not the keeper's: only what it sent counts for it.
    expect(await used(await idOf(peer.handle))).toBe(Buffer.byteLength('something to react to') + STORAGE_ROW_BYTES);
    // Each sees its own figure in its memory stats, and not the other's.
    const held = await used(id);
    expect((await asAgent(a, 'GET', `/memory/stats?handle=${a.handle}`)).body.storage).toEqual({ used_bytes: held, limit_bytes: LIMIT, remaining_bytes: LIMIT - held });
    expect((await asAgent(peer, 'GET', `/memory/stats?handle=${peer.handle}`)).body.storage.used_bytes).toBe(Buffer.byteLength('something to react to') + STORAGE_ROW_BYTES);
    expect((await asAgent(peer, 'GET', `/memory/stats?handle=${a.handle}`)).status).toBe(403);

    const signup = await api(gw.apiUrl, 'POST', '/signup', { body: { email: 'budget@example.com', name: 'Budget Co' } });
    const key = { 'x-revenue-key': signup.body.key as string };
    await api(gw.url, 'POST', '/operator/credits', { body: { email: 'budget@example.com', amount: 50_000_000, reason: 'test' }, headers: { 'x-operator-token': OPERATOR } });
    const order = await api(gw.apiUrl, 'POST', '/copy/orders', { body: { type: 'ad', brief: 'A courier in town', platform: 'Facebook' }, headers: key });
    expect(order.status).toBe(202);
    const account = (await gw.gateway.db.get<{ id: string }>("SELECT id FROM revenue_accounts WHERE email = 'budget@example.com'"))!.id;
    expect(await used(account)).toBeGreaterThan(STORAGE_ROW_BYTES);
    expect(await used(account)).toBe(await recounted(account));
  });

  it('refuses every kind of write past the budget with 413 naming it, stores nothing, and still serves reads', async () => {
    const a = await register(gw.url, 'budget-full');
    const peer = await register(gw.url, 'budget-full-peer');
    const postId = (await asAgent(peer, 'POST', '/wall', { text: 'react here' })).body.post_id as number;
    const id = await idOf(a.handle);
    // One value leaves 200 bytes: less than any row's 256.
    const fill = await asAgent(a, 'PUT', '/memory/big/one', { value: sized(LIMIT - 200 - STORAGE_ROW_BYTES) });
    expect(fill.status).toBe(200);
    expect(await used(id)).toBe(LIMIT - 200);

    const refusals = { ...WRITES(a, peer.handle, postId, 2), rewrite: () => asAgent(a, 'PUT', '/memory/big/one', { value: sized(LIMIT - 200 - STORAGE_ROW_BYTES + 10) }) };
    for (const [kind, write] of Object.entries(refusals)) {
      const r = await write();
      expect(r.status, `${kind}: ${JSON.stringify(r.body)}`).toBe(413);
      expect(r.body.error, kind).toMatchObject({ code: 'payload_too_large', quota: 'storage_bytes', limit: LIMIT, used: LIMIT - 200 });
      expect(r.body.error.size, kind).toBeGreaterThan(200);
      expect(r.body.error.message, kind).toMatch(/storage budget allows \(GATEWAY_AGENT_STORAGE_BYTES/);
    }
    const task = await rpc(gw.url, 'message/send', userText('convert 255 to base 2'), { authorization: `Bearer ${a.secret}` });
    expect(task.body.error.data).toMatchObject({ code: 'payload_too_large', status: 413, quota: 'storage_bytes', limit: LIMIT, used: LIMIT - 200 });

    // Nothing was stored, of any kind.
    expect(await used(id)).toBe(LIMIT - 200);
    expect(await used(id)).toBe(await recounted(id));
    for (const [table, column] of [['artifacts', 'agent_id'], ['vault_entries', 'agent_id'], ['wall_posts', 'agent_id'], ['wall_reactions', 'agent_id'], ['follows', 'follower_id'], ['mail', 'from_id'], ['jobs', 'agent_id'], ['handoffs', 'agent_id'], ['watches', 'agent_id'], ['a2a_tasks', 'agent_id']]) {
      expect(await rowsOf(table, column, id), table).toBe(0);
    }
    expect(await rowsOf('memory_entries', 'agent_id', id)).toBe(1);
    expect((await asAgent(a, 'GET', '/memory/big/one')).body.version).toBe(1);

    // Reads are never refused.
    for (const path of ['/memory/big/one', '/artifacts', '/vault', '/mail/inbox', `/wall/${postId}`, '/memory/stats']) {
      expect((await asAgent(a, 'GET', path)).status, path).toBe(200);
    }
    // The owner sees where it stands, as the budget counts it.
    expect((await asAgent(a, 'GET', `/memory/stats?handle=${a.handle}`)).body.storage).toEqual({ used_bytes: LIMIT - 200, limit_bytes: LIMIT, remaining_bytes: 200 });
  });

  it('gives the bytes back on a delete, and the write then passes', async () => {
    const fullId = await idOf('budget-full');
    const b = await register(gw.url, 'budget-freed');
    const bid = await idOf(b.handle);
    await asAgent(b, 'PUT', '/memory/big/one', { value: sized(LIMIT - 200 - STORAGE_ROW_BYTES) });
    expect((await asAgent(b, 'POST', '/wall', { text: 'no room yet' })).status).toBe(413);
    expect((await asAgent(b, 'DELETE', '/memory/big/one')).status).toBe(200);
    expect(await used(bid)).toBe(0);
    expect((await asAgent(b, 'POST', '/wall', { text: 'room now' })).status).toBe(201);
    expect(await used(bid)).toBe(Buffer.byteLength('room now') + STORAGE_ROW_BYTES);
    // The agent filled in the test before is untouched by all of this.
    expect(await used(fullId)).toBe(LIMIT - 200);
  });

  it("counts the gateway's own work on an accepted row without refusing it", async () => {
    const a = await register(gw.url, 'budget-handoff');
    const id = await idOf(a.handle);
    const handoff = await asAgent(a, 'POST', '/handoff', { task: 'Sign the form' });
    expect(handoff.status).toBe(202);
    const room = LIMIT - (await used(id));
    await asAgent(a, 'PUT', '/memory/big/one', { value: sized(room - 100 - STORAGE_ROW_BYTES) });
    expect(await used(id)).toBe(LIMIT - 100);
    // The operator's result (about 1 KB) is written whatever the owner holds: the handoff was accepted when made.
    const done = await api(gw.url, 'POST', `/operator/handoffs/${handoff.body.handoff_id}/complete`, { body: { result: { note: sized(1000) } }, headers: { 'x-operator-token': OPERATOR } });
    expect(done.status).toBe(200);
    expect(await used(id)).toBeGreaterThan(LIMIT);
    expect(await used(id)).toBe(await recounted(id));
    expect((await asAgent(a, 'PUT', '/memory/small/one', { value: 1 })).status).toBe(413);
  });

  it("keeps each agent's budget its own: a full agent does not stop another, whose refusal shows only its own usage", async () => {
    const full = await register(gw.url, 'budget-first');
    const other = await register(gw.url, 'budget-second');
    await asAgent(full, 'PUT', '/memory/big/one', { value: sized(LIMIT - 100 - STORAGE_ROW_BYTES) });
    expect((await asAgent(full, 'PUT', '/memory/n/k', { value: 1 })).status).toBe(413);
    expect((await asAgent(other, 'PUT', '/memory/n/k', { value: sized(1000) })).status).toBe(200);
    expect((await asAgent(other, 'POST', '/wall', { text: 'still room here' })).status).toBe(201);
    const otherUsed = await used(await idOf(other.handle));
    expect(otherUsed).toBe(1000 + Buffer.byteLength('still room here') + 2 * STORAGE_ROW_BYTES);
    const refused = await asAgent(other, 'PUT', '/memory/n/huge', { value: sized(LIMIT) });
    expect(refused.status).toBe(413);
    expect(refused.body.error).toMatchObject({ quota: 'storage_bytes', used: otherUsed, size: LIMIT + STORAGE_ROW_BYTES });
  });
});
