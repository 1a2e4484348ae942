// The MCP session tables are bounded: Streamable HTTP sessions (GATEWAY_MCP_MAX_SESSIONS) and legacy SSE streams
// (GATEWAY_MCP_MAX_SSE_SESSIONS) close the least recently used beyond the cap, and its client gets the protocol's
// "session not found" (404) and starts again; a session keeps GATEWAY_MCP_REPLAY_BYTES of events for resuming
// (the newest always) and subscribes to at most MAX_SUBSCRIPTIONS resources; what it keeps of its initialize is bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { MAX_INITIALIZE_PARAMS_BYTES } from '../../src/mcp/initialize-size.js';
import { MAX_SUBSCRIPTIONS } from '../../src/mcp/server.js';
import { SseReplay } from '../../src/mcp/sse-replay.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { eventually } from '../helpers/eventually.js';
import { register, startGateway, type TestGateway } from '../helpers/gateway.js';

const ACCEPT = 'application/json, text/event-stream';
const progressing = defineTool({
  name: 'cb_progress',
  toolset: 'cache-bounds-test',
  description: 'Reports progress, then answers with `text`.',
  input: z.object({ text: z.string() }),
  auth: 'public',
  handler: async (input, ctx) => {
    ctx.progress?.(1, 2);
    return { text: input.text };
  },
});

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_MCP_MAX_SESSIONS: '2', GATEWAY_MCP_MAX_SSE_SESSIONS: '1', GATEWAY_MCP_REPLAY_BYTES: '1' }, additions: { tools: [progressing] } });
});
afterAll(async () => gw.cleanup());

async function open(version = '2025-06-18', headers: Record<string, string> = {}): Promise<string> {
  const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const r = await fetch(`${gw.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, body: JSON.stringify(init) });
  expect(r.status).toBe(200);
  await r.text();
  const id = r.headers.get('mcp-session-id')!;
  await (await post(id, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
  return id;
}

const post = (session: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${gw.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': session, ...headers }, body: JSON.stringify(body) });

const ping = async (session: string) => {
  const r = await post(session, { jsonrpc: '2.0', id: 1, method: 'ping' });
  return { status: r.status, body: (await r.json()) as { result?: unknown; error?: { code: number; message: string } } };
};

describe('Streamable HTTP sessions at GATEWAY_MCP_MAX_SESSIONS', () => {
  it('closes the least recently used session; its client gets 404 "Session not found" and opens a new one', async () => {
    const a = await open();
    const b = await open();
    expect((await ping(a)).status).toBe(200); // a is now the most recently used
    const c = await open(); // the cap is 2: b goes
    expect(await ping(b)).toEqual({ status: 404, body: { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null } });
    expect((await ping(a)).status).toBe(200);
    expect((await ping(c)).status).toBe(200);
    // The client of b starts again, as the protocol tells it to.
    const again = await open();
    expect((await ping(again)).status).toBe(200);
    expect((await ping(a)).status).toBe(404);
  });

  it('ends the evicted session for good: a DELETE of it is 404 too, not an error', async () => {
    const a = await open();
    await open();
    await open();
    const r = await fetch(`${gw.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': a } });
    expect(r.status).toBe(404);
  });

  it('answers an unknown or malformed session id with 404, never 500', async () => {
    expect((await ping('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await ping('not-a-session')).status).toBe(404);
  });
});

/** A legacy SSE stream: its session id (from the endpoint event) and a way to see it end. */
async function sseStream(): Promise<{ id: string; ended: Promise<void>; close(): void }> {
  const ac = new AbortController();
  const res = await fetch(`${gw.url}/mcp/sse`, { headers: { accept: 'text/event-stream' }, signal: ac.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  while (!/sessionId=([\w-]+)/.test(buf)) buf += (await reader.read()).value ?? '';
  const id = /sessionId=([\w-]+)/.exec(buf)![1];
  const ended = (async () => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // aborted by the test
    }
  })();
  return { id, ended, close: () => ac.abort() };
}

const sseMessage = (id: string) =>
  fetch(`${gw.url}/mcp/messages?sessionId=${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });

describe('legacy SSE streams at GATEWAY_MCP_MAX_SSE_SESSIONS', () => {
  it('closes the least recently used stream for a new one; a message to it is 404', async () => {
    const first = await sseStream();
    expect((await sseMessage(first.id)).status).toBe(202);
    const second = await sseStream(); // the cap is 1
    await first.ended;
    expect((await sseMessage(first.id)).status).toBe(404);
    expect((await sseMessage(second.id)).status).toBe(202);
    second.close();
  });

  it('lets go of a stream as soon as its client closes it', async () => {
    const table = (gw.gateway as unknown as { sse: { size: number } }).sse;
    const s = await sseStream();
    expect(table.size).toBe(1);
    s.close();
    await eventually(async () => expect(table.size).toBe(0));
    expect((await sseMessage(s.id)).status).toBe(404);
  });
});

describe('events kept for resuming (GATEWAY_MCP_REPLAY_BYTES)', () => {
  const call = (session: string, id: number, text: string) =>
    post(session, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'cb_progress', arguments: { text }, _meta: { progressToken: `p${id}` } } }, { 'mcp-protocol-version': '2025-11-25' });
  const resume = (session: string, lastEventId: string) => fetch(`${gw.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': lastEventId } });
  const ids = (text: string) => [...text.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]);

  it('keeps the newest event whatever its size, so a client resuming gets the answer; older ones go', async () => {
    const session = await open('2025-11-25');
    const first = await (await call(session, 1, 'x'.repeat(5000))).text();
    const [priming] = ids(first);
    const replayed = await (await resume(session, priming)).text();
    expect(replayed).toContain('x'.repeat(5000));
    expect(replayed).not.toContain('notifications/progress'); // older than the answer: over the budget
    // A later call's events push the answer out; the finished stream is then forgotten, as after 256 events.
    await (await call(session, 2, 'later')).text();
    expect((await resume(session, priming)).status).toBe(400);
  });

  it('drops the oldest events past the budget (unit)', () => {
    const r = new SseReplay(150);
    const frames = [1, 2, 3].map((n) => r.frame(5, 'y'.repeat(40 + n)));
    expect(frames.every((f) => f.length > 40)).toBe(true);
    expect(r.since({ stream: 5, seq: 0 })).toEqual(frames.slice(1));
    expect(r.knows({ stream: 5, seq: 1 })).toBe(true);
  });
});

describe('subscriptions of one session', () => {
  it(`takes at most ${MAX_SUBSCRIPTIONS} resources, then refuses the next with -32602`, async () => {
    const a = await register(gw.url, 'cb-subscriber');
    const auth = { authorization: `Bearer ${a.secret}` };
    const session = await open('2025-06-18', auth);
    const subscribe = async (i: number) => (await (await post(session, { jsonrpc: '2.0', id: i, method: 'resources/subscribe', params: { uri: `memory://cb-subscriber/ns/k${i}` } }, auth)).json()) as any;
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) expect((await subscribe(i)).result).toEqual({});
    // The same one again is no new subscription.
    expect((await subscribe(0)).result).toEqual({});
    const over = await subscribe(MAX_SUBSCRIPTIONS);
    expect(over.error.code).toBe(-32602);
    expect(over.error.message).toContain(`${MAX_SUBSCRIPTIONS} resources`);
    // Unsubscribing one makes room.
    await (await post(session, { jsonrpc: '2.0', id: 'u', method: 'resources/unsubscribe', params: { uri: 'memory://cb-subscriber/ns/k1' } }, auth)).text();
    expect((await subscribe(MAX_SUBSCRIPTIONS)).result).toEqual({});
  });
});

describe(`what a session keeps of its initialize (${MAX_INITIALIZE_PARAMS_BYTES} bytes of params)`, () => {
  const initialize = (id: string, padding: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: { experimental: { pad: { text: 'x'.repeat(padding) } } }, clientInfo: { name: 'big', version: '1' } },
  });
  const sessions = async () => Number((await gw.gateway.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM mcp_sessions'))!.n);

  it('Streamable HTTP: larger params answer 400 -32602 with the id and open no session; params within it open one', async () => {
    const before = await sessions();
    const big = await fetch(`${gw.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT }, body: JSON.stringify(initialize('too-big', MAX_INITIALIZE_PARAMS_BYTES)) });
    expect(big.status).toBe(400);
    expect(big.headers.get('mcp-session-id')).toBeNull();
    const body = (await big.json()) as { id: string; error: { code: number; message: string } };
    expect(body).toMatchObject({ id: 'too-big', error: { code: -32602 } });
    expect(body.error.message).toContain(`at most ${MAX_INITIALIZE_PARAMS_BYTES}`);
    expect(await sessions()).toBe(before);
    const fits = await fetch(`${gw.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT }, body: JSON.stringify(initialize('fits', MAX_INITIALIZE_PARAMS_BYTES - 1000)) });
    expect(fits.status).toBe(200);
    expect(fits.headers.get('mcp-session-id')).toBeTruthy();
    await fits.text();
  });

  it('legacy SSE: the SDK client announcing too large capabilities gets -32602, and one within them connects', async () => {
    const connect = async (padding: number) => {
      const client = new Client({ name: 'big-sse', version: '1' }, { capabilities: { experimental: { pad: { text: 'x'.repeat(padding) } } } });
      await client.connect(new SSEClientTransport(new URL(`${gw.url}/mcp/sse`)));
      return client;
    };
    await expect(connect(MAX_INITIALIZE_PARAMS_BYTES)).rejects.toMatchObject({ code: -32602 });
    const ok = await connect(1000);
    expect((await ok.listTools()).tools.length).toBeGreaterThan(0);
    await ok.close();
  });
});
