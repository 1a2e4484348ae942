// A session opened on one instance and used on another is rebuilt there for its client, within that client's share
// (GATEWAY_SESSIONS_PER_CLIENT): past it, the client's own least recently used session is closed; a burst of
// rebuilds that finds nothing of its own left to close answers 429, and the session lives on to be used again.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

const ACCEPT = 'application/json, text/event-stream';
const CLIENT = { 'x-forwarded-for': '198.51.100.40' };

let first: TestGateway;
let second: TestGateway;
beforeAll(async () => {
  first = await startGateway({ env: { GATEWAY_TRUST_PROXY: 'true', GATEWAY_SESSIONS_PER_CLIENT: '2' } });
  second = await startGateway({ dataDir: first.dataDir, env: { GATEWAY_TRUST_PROXY: 'true', GATEWAY_SESSIONS_PER_CLIENT: '1' } });
});
afterAll(async () => {
  await second?.stop();
  await first?.cleanup();
});

const post = (gw: TestGateway, body: unknown, session?: string) =>
  fetch(`${gw.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...CLIENT, ...(session ? { 'mcp-session-id': session } : {}) },
    body: JSON.stringify(body),
  });

async function openSession(gw: TestGateway): Promise<string> {
  const r = await post(gw, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  expect(r.status).toBe(200);
  await r.text();
  return r.headers.get('mcp-session-id')!;
}

const ping = async (gw: TestGateway, session: string) => {
  const r = await post(gw, { jsonrpc: '2.0', id: 1, method: 'ping' }, session);
  return { status: r.status, body: (await r.json()) as { error?: { code: number; message: string } } };
};

it('rebuilds within the share: a burst past it gets 429, never 404, and the refused session is served when retried', async () => {
  const a = await openSession(first);
  const b = await openSession(first);
  const held = await openSession(second);
  // Closing the session that makes room takes a moment, as a busy database's write does: the other rebuild, past the
  // share meanwhile, finds nothing of its client's left to close.
  const store = (second.gateway as unknown as { streamable: { opts: { store: { close(id: string): Promise<void> } } } }).streamable.opts.store;
  const close = store.close.bind(store);
  store.close = async (id) => (await new Promise((r) => setTimeout(r, 300)), close(id));
  const burst = await Promise.all([ping(second, a), ping(second, b)]);
  expect(burst.map((r) => r.status).sort()).toEqual([200, 429]);
  const refused = burst.find((r) => r.status === 429)!;
  expect(refused.body.error).toMatchObject({ code: -32000 });
  expect(refused.body.error!.message).toContain('GATEWAY_SESSIONS_PER_CLIENT');
  // The session the client held on the second instance made room for the rebuild; the refused one lives on.
  expect((await ping(second, held)).status).toBe(404);
  const retried = burst[0].status === 429 ? a : b;
  expect((await ping(second, retried)).status).toBe(200);
});
