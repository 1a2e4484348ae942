import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

async function connect(headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'sse-test', version: '1.0.0' });
  await client.connect(
    new SSEClientTransport(new URL(`${gw.url}/mcp/sse`), {
      requestInit: { headers },
      eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as object), ...headers } }) },
    }),
  );
  return client;
}

describe('MCP over legacy SSE (official SDK client)', () => {
  it('initializes, lists tools, registers, then calls an owner tool with the secret', async () => {
    const anon = await connect();
    const names = (await anon.listTools()).tools.map((t) => t.name);
    expect(names).toContain('agent_register');
    const reg = await anon.callTool({ name: 'agent_register', arguments: { handle: 'sse-agent' } });
    const { secret } = reg.structuredContent as { secret: string };
    await anon.close();

    const owner = await connect({ authorization: `Bearer ${secret}` });
    const me = await owner.callTool({ name: 'whoami', arguments: {} });
    expect((me.structuredContent as { handle: string }).handle).toBe('sse-agent');
    await owner.close();
  });

  it('unknown session ids get 404', async () => {
    const r = await fetch(`${gw.url}/mcp/messages?sessionId=nope`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(r.status).toBe(404);
  });
});
