// One client's share of each table of held connections (GATEWAY_SESSIONS_PER_CLIENT): past it, its own least
// recently used MCP session or legacy SSE stream is closed, and its new A2A stream or 2026-07-28 subscriptions/listen
// stream is refused; another client's session or stream is never touched. A client is its address, an IPv6 client its /64 (test/auth/client-key.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { openStream, rpcRaw, userData } from '../a2a/rpc.js';
import { modernPost } from '../helpers/modern-mcp.js';

const SHARE = 2;
const ACCEPT = 'application/json, text/event-stream';
const VICTIM = { 'x-forwarded-for': '198.51.100.1' };
/** One client rotating through the addresses of its /64. */
const attacker = (n: number) => ({ 'x-forwarded-for': `2001:db8:9:9::${n.toString(16)}` });

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({
    env: {
      GATEWAY_TRUST_PROXY: 'true',
      GATEWAY_SESSIONS_PER_CLIENT: String(SHARE),
      GATEWAY_MCP_MAX_SESSIONS: '5',
      GATEWAY_MCP_MAX_SSE_SESSIONS: '5',
      GATEWAY_A2A_MAX_STREAMS: '5',
      // The streams this test aborts leave the client a connection that never sends a request; the stop waits for it.
      GATEWAY_SHUTDOWN_GRACE_MS: '300',
    },
  });
});
afterAll(async () => gw.cleanup());

async function openSession(headers: Record<string, string>): Promise<string> {
  const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const r = await fetch(`${gw.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, body: JSON.stringify(init) });
  expect(r.status).toBe(200);
  await r.text();
  return r.headers.get('mcp-session-id')!;
}

const ping = async (session: string, headers: Record<string, string>) =>
  (await fetch(`${gw.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': session, ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) })).status;

describe(`Streamable HTTP sessions, ${SHARE} per client`, () => {
  it("closes the client's own least recently used session past its share, never another client's", async () => {
    const victim = await openSession(VICTIM);
    const mine: string[] = [];
    for (let i = 1; i <= 8; i++) mine.push(await openSession(attacker(i)));
    expect(await ping(victim, VICTIM)).toBe(200);
    // Only the attacker's newest SHARE sessions are open, whichever of its addresses uses them.
    const open = [];
    for (const [i, s] of mine.entries()) open.push(await ping(s, attacker(100 + i)));
    expect(open).toEqual([...Array(8 - SHARE).fill(404), ...Array(SHARE).fill(200)]);
    // Using a session makes it the client's most recently used: the next one closes the other.
    expect(await ping(mine[6], attacker(1))).toBe(200);
    await openSession(attacker(9));
    expect(await ping(mine[6], attacker(1))).toBe(200);
    expect(await ping(mine[7], attacker(1))).toBe(404);
    // Another /64 is another client.
    const neighbour = await openSession({ 'x-forwarded-for': '2001:db8:9:a::1' });
    expect(await ping(neighbour, {})).toBe(200);
    expect(await ping(victim, VICTIM)).toBe(200);
  });
});

describe('a burst of concurrent opens from one client', () => {
  it("holds at most the share: the opens past it are refused with 429, and no other client's session is closed", async () => {
    const victim = await openSession(VICTIM);
    const init = { jsonrpc: '2.0', id: 'burst', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'burst', version: '1' } } };
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${gw.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...attacker(200 + i) }, body: JSON.stringify(init) }),
      ),
    );
    // Each open either took the place of one of the client's own (opened before it) or was refused.
    expect(burst.every((r) => r.status === 200 || r.status === 429), burst.map((r) => r.status).join(',')).toBe(true);
    for (const r of burst.filter((x) => x.status === 429)) {
      const body = (await r.json()) as { id: string; error: { code: number; message: string } };
      expect(body).toMatchObject({ id: 'burst', error: { code: -32000 } });
      expect(body.error.message).toContain('GATEWAY_SESSIONS_PER_CLIENT');
    }
    const opened = burst.filter((r) => r.status === 200).map((r) => r.headers.get('mcp-session-id')!);
    await Promise.all(burst.filter((r) => r.status === 200).map((r) => r.text()));
    const alive = [];
    for (const id of opened) if ((await ping(id, attacker(1))) === 200) alive.push(id);
    expect(alive.length).toBeLessThanOrEqual(SHARE);
    expect(alive.length).toBeGreaterThan(0);
    expect(await ping(victim, VICTIM)).toBe(200);
  });

  it('of legacy SSE streams holds at most the share too, and the other client keeps its stream', async () => {
    const victim = await sseStream(VICTIM);
    const burst = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const ac = new AbortController();
        const res = await fetch(`${gw.url}/mcp/sse`, { headers: { accept: 'text/event-stream', ...attacker(300 + i) }, signal: ac.signal });
        return { status: res.status, close: () => ac.abort() };
      }),
    );
    expect(burst.every((b) => b.status === 200 || b.status === 429)).toBe(true);
    const table = (gw.gateway as unknown as { sse: { size: number } }).sse;
    // The victim's stream and at most the attacker's share are held.
    expect(table.size).toBeLessThanOrEqual(1 + SHARE);
    expect(victim.ended()).toBe(false);
    expect(await sseMessage(victim.id)).toBe(202);
    for (const b of [...burst, victim]) b.close();
  });
});

/** A legacy SSE stream: its session id and a way to see it end. */
async function sseStream(headers: Record<string, string>): Promise<{ id: string; ended: () => boolean; close(): void }> {
  const ac = new AbortController();
  const res = await fetch(`${gw.url}/mcp/sse`, { headers: { accept: 'text/event-stream', ...headers }, signal: ac.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  while (!/sessionId=([\w-]+)/.test(buf)) buf += (await reader.read()).value ?? '';
  let ended = false;
  void (async () => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // aborted by the test
    }
    ended = true;
  })();
  return { id: /sessionId=([\w-]+)/.exec(buf)![1], ended: () => ended, close: () => ac.abort() };
}

const sseMessage = async (id: string) =>
  (await fetch(`${gw.url}/mcp/messages?sessionId=${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) })).status;

describe(`legacy SSE streams, ${SHARE} per client`, () => {
  it("closes the client's own oldest stream past its share; the other client's stream stays", async () => {
    const victim = await sseStream(VICTIM);
    const mine: Awaited<ReturnType<typeof sseStream>>[] = [];
    for (let i = 1; i <= 6; i++) mine.push(await sseStream(attacker(i)));
    await eventually(async () => expect(mine.slice(0, 6 - SHARE).every((s) => s.ended())).toBe(true));
    expect(victim.ended()).toBe(false);
    expect(await sseMessage(victim.id)).toBe(202);
    for (const s of mine.slice(0, 6 - SHARE)) expect(await sseMessage(s.id)).toBe(404);
    for (const s of mine.slice(6 - SHARE)) expect(await sseMessage(s.id)).toBe(202);
    for (const s of [victim, ...mine]) s.close();
  });
});

describe(`A2A streams, ${SHARE} per client`, () => {
  const longJob = () => userData('job_create', { type: 'delay', seconds: 600 });
  /** Whether a new stream is answered as one (the refusal is a JSON body); the stream is then closed. */
  const streamTaken = async (headers: Record<string, string>) => {
    const ac = new AbortController();
    const res = await fetch(`${gw.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'probe', method: 'message/stream', params: longJob() }),
      signal: ac.signal,
    });
    const taken = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
    ac.abort();
    return taken;
  };

  it('refuses a stream past the share with too_many_streams before any task; another client still opens one', async () => {
    const held = [];
    for (let i = 1; i <= SHARE; i++) {
      const s = await openStream(gw.url, 'message/stream', longJob(), attacker(i));
      await eventually(async () => expect(s.events.length).toBeGreaterThan(0));
      held.push(s);
    }
    const tasks = async () => Number((await gw.gateway.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM a2a_tasks'))!.n);
    const before = await tasks();
    const refused = await rpcRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 'over', method: 'message/stream', params: longJob() }), attacker(50));
    expect(refused.body).toMatchObject({ id: 'over', error: { code: -32004, data: { reason: 'too_many_streams', limit: SHARE } } });
    expect(refused.body.error.message).toContain('Your address');
    expect(await tasks()).toBe(before);

    const other = await openStream(gw.url, 'message/stream', longJob(), VICTIM);
    await eventually(async () => expect(other.events.length).toBeGreaterThan(0));
    expect(other.events[0].error).toBeUndefined();

    // A stream that ends gives its client the slot back.
    held[0].close();
    await eventually(async () => expect(await streamTaken(attacker(51))).toBe(true));
    for (const s of [...held, other]) s.close();
  });
});

describe(`2026-07-28 subscriptions/listen streams, ${SHARE} per client`, () => {
  let secret = '';
  beforeAll(async () => {
    secret = (await register(gw.url, 'share-listener')).secret;
  });
  /** A listen to the agent's own memory, which it may watch, so the stream stays open. */
  const listen = (headers: Record<string, string>, id: string) => {
    const ac = new AbortController();
    const subscribe = { notifications: { resourceSubscriptions: ['memory://share-listener/notes/today'] } };
    const res = modernPost(gw.url, 'subscriptions/listen', subscribe, { id, signal: ac.signal, headers: { authorization: `Bearer ${secret}`, ...headers } });
    return { res, close: () => ac.abort() };
  };

  it('refuses a listen past the share with 429 and the request id; another client still listens; a closed one makes room', async () => {
    const held = [listen(attacker(1), 'l1'), listen(attacker(2), 'l2')];
    for (const h of held) expect((await h.res).headers.get('content-type')).toContain('text/event-stream');
    const over = await listen(attacker(3), 'l3').res;
    expect(over.status).toBe(429);
    const body = (await over.json()) as { id: string; error: { code: number; message: string; data: unknown } };
    expect(body).toMatchObject({ id: 'l3', error: { code: -32000, data: { reason: 'too_many_streams', limit: SHARE } } });
    expect(body.error.message).toContain('Your address');

    const other = listen(VICTIM, 'v1');
    expect((await other.res).status).toBe(200);
    held[0].close();
    await eventually(async () => {
      const again = listen(attacker(4), 'l4');
      expect((await again.res).status).toBe(200);
      again.close();
    });
    for (const h of [...held, other]) h.close();
  });
});
