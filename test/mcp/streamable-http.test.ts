import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

async function connect(headers: Record<string, string> = {}, query = ''): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp${query}`), { requestInit: { headers } }));
  return client;
}

describe('MCP over Streamable HTTP (official SDK client)', () => {
  it('initializes, lists tools, registers and calls an owner tool with the secret', async () => {
    const anon = await connect();
    expect(anon.getServerVersion()?.name).toBe('agent-gateway');
    const tools = await anon.listTools();
    const names = tools.tools.map((t) => t.name);
    expect(names).toContain('agent_register');
    expect(names).toContain('whoami');
    const reg = await anon.callTool({ name: 'agent_register', arguments: { handle: 'mcp-http-agent' } });
    expect(reg.isError).toBeFalsy();
    const { secret, handle } = reg.structuredContent as { secret: string; handle: string };
    expect(handle).toBe('mcp-http-agent');

    const denied = await anon.callTool({ name: 'whoami', arguments: {} });
    expect(denied.isError).toBe(true);
    expect((denied.structuredContent as any).error.code).toBe('unauthorized');
    await anon.close();

    const owner = await connect({ authorization: `Bearer ${secret}` });
    const me = await owner.callTool({ name: 'whoami', arguments: {} });
    expect(me.isError).toBeFalsy();
    expect((me.structuredContent as any).handle).toBe('mcp-http-agent');
    await owner.close();
  });
});
