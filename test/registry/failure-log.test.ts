// A call that fails inside the gateway answers internal_error (500) with nothing of the failure in it, and logs it once, with the
// request's id (the X-Request-Id the caller got back), so an operator can find the cause of a user's 500.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../../src/log.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

const boom = defineTool({
  name: 'test_boom',
  // In the toolbelt so that a REST /batch may call it (no REST route of its own).
  toolset: 'toolbelt',
  description: 'Fails inside (test fixture).',
  input: z.object({}),
  auth: 'public',
  handler: () => {
    throw new Error('disk on fire at /srv/private/path');
  },
});

const lines: Record<string, unknown>[] = [];
const failures = () => lines.filter((l) => l.msg === 'tool failed' || l.msg === 'a2a request failed');
let gw: TestGateway;
beforeAll(async () => {
  const log = createLogger('info', { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
  gw = await startGateway({ additions: { tools: [boom] }, log });
});
afterAll(async () => gw.cleanup());

const batch = (headers: Record<string, string>) =>
  fetch(`${gw.url}/batch`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ calls: [{ tool: 'test_boom' }] }) });

describe('a failure inside a tool', () => {
  it('over REST: an internal error without internals, one log line with the request id the caller was given', async () => {
    lines.length = 0;
    const res = await batch({ 'x-request-id': 'support-ticket-42' });
    expect(res.headers.get('x-request-id')).toBe('support-ticket-42');
    const text = await res.text();
    expect(JSON.parse(text).results[0].error).toMatchObject({ code: 'internal_error', status: 500 });
    expect(text).not.toContain('disk on fire');
    expect(failures()).toHaveLength(1);
    expect(failures()[0]).toMatchObject({ tool: 'test_boom', id: 'support-ticket-42', err: { message: 'disk on fire at /srv/private/path' } });
    // The access line names the same id.
    expect(lines.find((l) => l.msg === 'request' && l.route === '/batch')).toMatchObject({ id: 'support-ticket-42' });
  });

  it('with no id sent, the one the gateway made up is both in the header and in the log line', async () => {
    lines.length = 0;
    const res = await batch({});
    const id = res.headers.get('x-request-id');
    expect(id).toBeTruthy();
    expect(failures()).toEqual([expect.objectContaining({ tool: 'test_boom', id })]);
  });

  it('over MCP: the tool call POST’s id', async () => {
    const client = new Client({ name: 'failure-log', version: '1' });
    let lastId: string | null = null;
    const transport = new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), {
      fetch: async (url, init) => {
        const r = await fetch(url, init);
        lastId = r.headers.get('x-request-id');
        return r;
      },
    });
    await client.connect(transport);
    lines.length = 0;
    const r = await client.callTool({ name: 'test_boom', arguments: {} });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).not.toContain('disk on fire');
    expect(lastId).toBeTruthy();
    expect(failures()).toEqual([expect.objectContaining({ tool: 'test_boom', id: lastId })]);
    await client.close();
  });

  it('over A2A: a data part naming the tool', async () => {
    lines.length = 0;
    const res = await fetch(`${gw.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'a2a-ticket-7' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: { message: { kind: 'message', role: 'user', messageId: 'm1', parts: [{ kind: 'data', data: { tool: 'test_boom', arguments: {} } }] } },
      }),
    });
    expect(JSON.stringify(await res.json())).not.toContain('disk on fire');
    expect(failures().length).toBeGreaterThan(0);
    for (const l of failures()) expect(l.id).toBe('a2a-ticket-7');
  });
});
