// Raw Streamable HTTP checks: what the transport must refuse, sessions, toolset filter and cursor paging.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_MCP_PAGE_SIZE: '3', GATEWAY_MCP_MAX_SESSIONS: '5' } });
});
afterAll(async () => gw.cleanup());

const ACCEPT = 'application/json, text/event-stream';
const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

async function post(body: unknown, headers: Record<string, string> = {}, query = ''): Promise<Response> {
  return fetch(`${gw.url}/mcp${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function openSession(query = ''): Promise<string> {
  const r = await post(init, {}, query);
  expect(r.status).toBe(200);
  const id = r.headers.get('mcp-session-id');
  expect(id).toBeTruthy();
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id! });
  return id!;
}

describe('Streamable HTTP transport rules', () => {
  it('answers initialize with a negotiated version and a session id', async () => {
    const r = await post(init);
    const body = (await r.json()) as any;
    expect(body.result.protocolVersion).toBe('2025-06-18');
    expect(body.result.serverInfo.name).toBe('agent-gateway');
    const unknown = await post({ ...init, params: { ...init.params, protocolVersion: '1999-01-01' } });
    expect(((await unknown.json()) as any).result.protocolVersion).toMatch(/^20\d\d-/);
  });

  it('refuses bad Accept (406), bad Content-Type (415), bad JSON (400 -32700)', async () => {
    expect((await post(init, { accept: 'application/json' })).status).toBe(406);
    expect((await post(init, { 'content-type': 'text/plain' })).status).toBe(415);
    const bad = await post('{nope');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.code).toBe(-32700);
  });

  it('requires a known session for everything after initialize', async () => {
    const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
    expect((await post(ping)).status).toBe(400);
    expect((await post(ping, { 'mcp-session-id': 'no-such-session' })).status).toBe(404);
    const id = await openSession();
    const ok = await post(ping, { 'mcp-session-id': id });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).result).toEqual({});
    expect((await post(ping, { 'mcp-session-id': id, 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
    const notif = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id });
    expect(notif.status).toBe(202);
    const del = await fetch(`${gw.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': id } });
    expect(del.status).toBe(200);
    expect((await post(ping, { 'mcp-session-id': id })).status).toBe(404);
  });

  it('refuses a foreign Host or Origin (DNS rebinding)', async () => {
    const http = await import('node:http');
    const port = new URL(gw.url).port;
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(JSON.stringify(init));
      });
    expect(await status({ host: 'evil.example.com' })).toBe(403);
    expect(await status({ host: `127.0.0.1:${port}`, origin: 'http://evil.example.com' })).toBe(403);
    expect(await status({ host: `localhost:${port}`, origin: `http://localhost:${port}` })).toBe(200);
  });

  it('caps open sessions, evicting the least recently used', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await openSession());
    const ping = { jsonrpc: '2.0', id: 9, method: 'ping' };
    expect((await post(ping, { 'mcp-session-id': ids[0] })).status).toBe(404);
    expect((await post(ping, { 'mcp-session-id': ids[6] })).status).toBe(200);
  });
});

describe('tools/list paging and toolsets', () => {
  it('pages with nextCursor until every tool is seen, and rejects a bad cursor', async () => {
    const client = new Client({ name: 'pager', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp?toolsets=all`)));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      expect(page.tools.length).toBeLessThanOrEqual(3);
      seen.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(['gateway_info', 'agent_register', 'identity_card']));
    await expect(client.listTools({ cursor: 'garbage!' })).rejects.toThrow(/cursor/i);
    await client.close();
  });

  it('narrows to ?toolsets= for the session', async () => {
    const client = new Client({ name: 'narrow', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp?toolsets=gateway`)));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['gateway_info', 'tools_find']);
    await expect(client.callTool({ name: 'agent_register', arguments: { handle: 'nope-nope' } })).rejects.toThrow(/not found/);
    await client.close();
  });

  it('reports tool errors as isError results with the REST error body', async () => {
    const client = new Client({ name: 'errs', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`)));
    const r = await client.callTool({ name: 'agent_register', arguments: { handle: 'x' } });
    expect(r.isError).toBe(true);
    const body = r.structuredContent as any;
    expect(body.status).toBe(422);
    expect(body.detail[0].loc).toEqual(['handle']);
    const res = await client.listResources();
    expect(res.resources.map((x) => x.uri)).toContain('gateway://info');
    const read = await client.readResource({ uri: 'gateway://info' });
    expect(JSON.parse((read.contents[0] as { text: string }).text).version).toBe('1.6.0');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('get_started');
    await client.close();
  });

  it('refuses arguments a tool does not declare (422, named), as REST refuses unknown body fields', async () => {
    const client = new Client({ name: 'strict', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp?toolsets=all`)));
    const r = await client.callTool({ name: 'slugify', arguments: { text: 'Hello World', seperator: '_' } });
    expect(r.isError).toBe(true);
    expect((r.structuredContent as any).status).toBe(422);
    expect((r.structuredContent as any).detail).toEqual([{ loc: ['seperator'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }]);
    const { tools } = await client.listTools({}).then(async (first) => {
      const all = [...first.tools];
      for (let cursor = first.nextCursor; cursor; ) {
        const next = await client.listTools({ cursor });
        all.push(...next.tools);
        cursor = next.nextCursor;
      }
      return { tools: all };
    });
    expect(tools.find((t) => t.name === 'slugify')!.inputSchema.additionalProperties).toBe(false);
    expect((await client.callTool({ name: 'slugify', arguments: { text: 'Hello World' } })).isError).toBeFalsy();
    await client.close();
  });
});
