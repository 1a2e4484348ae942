// Protocol edges the official clients and the conformance suite hit (issue 41): a GET on /mcp from a 2026-07-28
// client is 405 (that revision opens no GET stream), and malformed params in the 2025 era are -32602 Invalid
// params with a readable message, never -32603 Internal error with zod's issue dump; a malformed initialize opens
// no session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeIssues } from '../../src/mcp/params-checked-server.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

async function post(body: unknown, session?: string) {
  const r = await fetch(`${gw.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}) },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  // An answer may come as one SSE event.
  const json = text === '' ? null : text.startsWith('{') ? JSON.parse(text) : JSON.parse(/^data: (.*)$/m.exec(text)![1]);
  return { status: r.status, session: r.headers.get('mcp-session-id'), body: json };
}

const sessions = async () => Number((await gw.gateway.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM mcp_sessions'))?.n ?? 0);

describe('MCP protocol edges', () => {
  it('answers a 2026-07-28 GET with 405 and Allow: POST; a 2025-era GET still needs its session', async () => {
    const modern = await fetch(`${gw.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' } });
    expect(modern.status).toBe(405);
    expect(modern.headers.get('allow')).toBe('POST');
    expect(((await modern.json()) as { error: { message: string } }).error.message).toMatch(/no GET stream/);
    const legacy = await fetch(`${gw.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-06-18' } });
    expect(legacy.status).toBe(400);
  });

  it('refuses initialize without params with -32602 and opens no session', async () => {
    const before = await sessions();
    const r = await post({ jsonrpc: '2.0', id: 1, method: 'initialize' });
    expect(r.status).toBe(400);
    expect(r.session).toBeNull();
    expect(r.body.error.code).toBe(-32602);
    expect(await sessions()).toBe(before);
  });

  it('answers malformed params with -32602 and a readable message, on a live session', async () => {
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'edges', version: '1' } } });
    const s = init.session!;
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, s);
    const cases: [unknown, RegExp][] = [
      [{ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'uuid', arguments: 'oops' } }, /tools\/call: params\.arguments: expected record/],
      [{ jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 42 } }, /prompts\/get: params\.name: expected string/],
      [{ jsonrpc: '2.0', id: 4, method: 'completion/complete', params: { ref: 'x' } }, /completion\/complete: params\./],
      [{ jsonrpc: '2.0', id: 5, method: 'resources/subscribe', params: {} }, /resources\/subscribe: params\.uri: expected string/],
    ];
    for (const [message, text] of cases) {
      const r = await post(message, s);
      expect(r.body.error.code, JSON.stringify(message)).toBe(-32602);
      expect(r.body.error.message).toMatch(text);
      expect(r.body.error.message).not.toMatch(/"code": "invalid_type"|^MCP error/);
    }
    // The session still works.
    const ok = await post({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'uuid', arguments: {} } }, s);
    expect(ok.body.result.isError).toBeFalsy();
  });

  it('describes at most three issues, each by its path', () => {
    expect(describeIssues([{ path: ['params', 'a'], message: 'Invalid input: expected string' }, { message: 'bad' }])).toBe('params.a: expected string; params: bad');
    expect(describeIssues(Array.from({ length: 5 }, (_, i) => ({ path: [`p${i}`], message: 'x' }))).split('; ')).toHaveLength(3);
  });
});
