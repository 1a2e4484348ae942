// SSE resumability on 2025-era Streamable HTTP sessions (SEP-1699): priming event with an id and `retry`, an id
// on every event, a long call's stream let go after GATEWAY_MCP_POLL_AFTER_MS, replay after Last-Event-ID; only
// for sessions at 2025-11-25 or later, and plain calls still answer with JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

const POLL_AFTER_MS = 100;
const RETRY_MS = 250;
const slow = defineTool({
  name: 'sr_slow',
  toolset: 'sse-resume-test',
  description: 'Answers after `ms`, reporting progress first.',
  input: z.object({ ms: z.number().int().min(0).max(2000) }),
  auth: 'public',
  handler: async (input, ctx) => {
    ctx.progress?.(1, 2);
    await new Promise((resolve) => setTimeout(resolve, input.ms));
    return { slept: input.ms };
  },
});

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_MCP_POLL_AFTER_MS: String(POLL_AFTER_MS), GATEWAY_MCP_SSE_RETRY_MS: String(RETRY_MS) }, additions: { tools: [slow] } });
});
afterAll(async () => gw.cleanup());

const ACCEPT = 'application/json, text/event-stream';

async function openSession(version: string): Promise<string> {
  const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const r = await fetch(`${gw.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT }, body: JSON.stringify(init) });
  const id = r.headers.get('mcp-session-id')!;
  expect(((await r.json()) as any).result.protocolVersion).toBe(version);
  await fetch(`${gw.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': id }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  return id;
}

const call = (session: string, ms: number, progress = false) =>
  fetch(`${gw.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': session },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'sr_slow', arguments: { ms }, ...(progress ? { _meta: { progressToken: 'p' } } : {}) } }),
  });

const resume = (session: string, lastEventId: string) =>
  fetch(`${gw.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': lastEventId } });

interface SseEvent {
  id?: string;
  retry?: number;
  data: string;
}

/** The events of a whole SSE body (the server ends it). */
async function events(r: Response): Promise<SseEvent[]> {
  const text = await r.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const e: SseEvent = { data: '' };
      for (const line of block.split('\n')) {
        const [k, ...rest] = line.split(': ');
        const v = rest.join(': ');
        if (k === 'id') e.id = v;
        if (k === 'retry') e.retry = Number(v);
        if (k === 'data' || line === 'data:') e.data = v;
      }
      return e;
    });
}

describe('a 2025-11-25 session', () => {
  it('lets a long call go after the priming event, and answers it on the GET with Last-Event-ID', async () => {
    const session = await openSession('2025-11-25');
    const r = await call(session, 400);
    expect(r.headers.get('content-type')).toBe('text/event-stream');
    const first = await events(r);
    expect(first).toEqual([{ id: expect.stringMatching(/^\d+-1$/), retry: RETRY_MS, data: '' }]);
    const again = await resume(session, first[0].id!);
    expect(again.status).toBe(200);
    const rest = await events(again);
    expect(rest).toHaveLength(1);
    expect(JSON.parse(rest[0].data)).toMatchObject({ id: 7, result: { structuredContent: { slept: 400 } } });
    expect(rest[0].id).toMatch(/^\d+-2$/);
  });

  it('replays the answer to a client that comes back after it was sent', async () => {
    const session = await openSession('2025-11-25');
    const [priming] = await events(await call(session, 150));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const rest = await events(await resume(session, priming.id!));
    expect(JSON.parse(rest.at(-1)!.data)).toMatchObject({ id: 7, result: { structuredContent: { slept: 150 } } });
  });

  it('gives every event of an upgraded stream an id, the priming event first', async () => {
    const session = await openSession('2025-11-25');
    const all = await events(await call(session, 0, true));
    expect(all[0]).toMatchObject({ data: '', retry: RETRY_MS });
    expect(all.map((e) => e.id)).toEqual(all.map((_, i) => expect.stringMatching(new RegExp(`^\\d+-${i + 1}$`))));
    expect(JSON.parse(all[1].data).method).toBe('notifications/progress');
    expect(JSON.parse(all.at(-1)!.data)).toMatchObject({ id: 7, result: { structuredContent: { slept: 0 } } });
  });

  it('keeps the JSON fast path for a plain call', async () => {
    const session = await openSession('2025-11-25');
    const r = await call(session, 0);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(((await r.json()) as any).result.structuredContent).toEqual({ slept: 0 });
  });

  it('refuses a Last-Event-ID this session never sent, or one that is not an event id, with 400', async () => {
    const session = await openSession('2025-11-25');
    expect((await resume(session, '999-1')).status).toBe(400);
    expect((await resume(session, 'not-an-id')).status).toBe(400);
  });
});

describe('an older session (2025-06-18)', () => {
  it('is neither primed nor let go: its clients cannot resume, so the long call answers on its own exchange', async () => {
    const session = await openSession('2025-06-18');
    const r = await call(session, 300);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(((await r.json()) as any).result.structuredContent).toEqual({ slept: 300 });
    const withProgress = await events(await call(session, 0, true));
    expect(withProgress.every((e) => e.id === undefined && e.data !== '')).toBe(true);
    expect((await resume(session, '1-1')).status).toBe(400);
  });
});
