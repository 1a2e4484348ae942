// Every response carries exactly one X-Request-Id, whichever way it is sent: a JSON answer (one-call head), an
// error with headers of its own, an HTML page, a plain-text handler, the MCP SDK's transport, a streamed file.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.cleanup());

/** The raw response head: status, and every header line as sent (duplicates kept). */
function rawHead(path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; lines: [string, string][] }> {
  return new Promise((resolve, reject) => {
    const req = http.request(gw.url + path, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const lines: [string, string][] = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, lines }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const ids = (lines: [string, string][]) => lines.filter(([k]) => k.toLowerCase() === 'x-request-id').map(([, v]) => v);
const named = (lines: [string, string][], name: string) => lines.filter(([k]) => k.toLowerCase() === name).map(([, v]) => v);

describe('the request id', () => {
  it('is on every kind of response, once, and echoes a valid id the client sent', async () => {
    const agent = await register(gw.url, 'request-id-agent');
    const put = await api(gw.url, 'POST', '/artifacts', { secret: agent.secret, raw: 'file body', headers: { 'content-type': 'text/plain' } });
    expect(put.status).toBe(201);
    const artifactPath = new URL(put.body.url).pathname;
    const cases: [string, Parameters<typeof rawHead>[1], number][] = [
      ['/agents/request-id-agent', {}, 200],
      ['/no/such/route', {}, 404],
      ['/agents/me', {}, 401], // an error with a WWW-Authenticate header of its own
      ['/connect', { headers: { accept: 'text/html' } }, 200],
      ['/metrics', {}, 200],
      [artifactPath, {}, 200],
      [
        '/mcp',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
        },
        200,
      ],
      [
        // A plain 2026-07-28 tools/call, answered by the direct path.
        '/mcp',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'base64' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: {
              name: 'base64',
              arguments: { action: 'encode', text: 'hi' },
              _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} },
            },
          }),
        },
        200,
      ],
      ['/a2a', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"nope"}' }, 200],
    ];
    for (const [path, opts, status] of cases) {
      const r = await rawHead(path, opts);
      expect(r.status, path).toBe(status);
      expect(ids(r.lines), path).toHaveLength(1);
      expect(ids(r.lines)[0], path).toMatch(/^[\w.:-]{1,64}$/);
    }
    const unauthorized = await rawHead('/agents/me');
    expect(named(unauthorized.lines, 'www-authenticate')).toHaveLength(1);
    expect(named(unauthorized.lines, 'content-type')).toEqual(['application/json; charset=utf-8']);
    const echoed = await rawHead('/agents/request-id-agent', { headers: { 'x-request-id': 'client-chosen.42' } });
    expect(ids(echoed.lines)).toEqual(['client-chosen.42']);
    const refused = await rawHead('/agents/request-id-agent', { headers: { 'x-request-id': 'no spaces "or quotes"' } });
    expect(ids(refused.lines)).toHaveLength(1);
    expect(ids(refused.lines)[0]).not.toContain(' ');
  });
});
