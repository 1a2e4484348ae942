import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { tempDir, storeEnv } from '../helpers/gateway.js';
import { MAIN } from '../helpers/paths.js';

const dataDir = tempDir();
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** How a host spawns the built entry as its stdio server (the same for both SDK lines' transports). */
const server = (env: Record<string, string>) => ({
  command: process.execPath,
  args: [MAIN, 'mcp'],
  env: { PATH: process.env.PATH ?? '', GATEWAY_DATA_DIR: dataDir, ...storeEnv(dataDir), LOG_LEVEL: 'warn', ...env },
  stderr: 'pipe' as const,
});

async function spawnClient(env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport(server(env)));
  return client;
}

describe('MCP over stdio (official SDK client, spawned built entry)', () => {
  it('initializes, lists tools, registers, then acts as owner with AGENT_SECRET', async () => {
    const anon = await spawnClient({});
    expect(anon.getServerVersion()?.name).toBe('agent-gateway');
    const names = (await anon.listTools()).tools.map((t) => t.name);
    // The default surface lists the first tools; the rest (agent_delete below) stay callable.
    expect(names).toEqual(expect.arrayContaining(['agent_register', 'whoami', 'tools_find']));
    expect(names).not.toContain('agent_delete');
    const reg = await anon.callTool({ name: 'agent_register', arguments: { handle: 'stdio-agent' } });
    const { secret } = reg.structuredContent as { secret: string };
    const denied = await anon.callTool({ name: 'whoami', arguments: {} });
    expect(denied.isError).toBe(true);
    await anon.close();

    const owner = await spawnClient({ AGENT_HANDLE: 'stdio-agent', AGENT_SECRET: secret });
    const me = await owner.callTool({ name: 'whoami', arguments: {} });
    expect(me.isError).toBeFalsy();
    expect((me.structuredContent as { handle: string }).handle).toBe('stdio-agent');
    const other = await owner.callTool({ name: 'agent_delete', arguments: { handle: 'someone-else' } });
    expect(other.isError).toBe(true);
    expect((other.structuredContent as any).error.code).toBe('forbidden');
    await owner.close();
  });

  it('narrows tools with GATEWAY_MCP_TOOLSETS', async () => {
    const client = await spawnClient({ GATEWAY_MCP_TOOLSETS: 'gateway' });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(['gateway_info', 'tools_find']);
    const r = await client.callTool({ name: 'agent_register', arguments: { handle: 'hidden-tool' } }).catch((e: Error) => e);
    expect(r).toBeInstanceOf(Error);
    await client.close();
  });

  it('serves the 2026-07-28 era to the v2 client pinned to it, acting as the agent of AGENT_SECRET', async () => {
    const spawnV2 = async (mode: 'legacy' | { pin: string }, env: Record<string, string> = {}) => {
      const client = new ClientV2({ name: 'stdio-v2', version: '1.0.0' }, { versionNegotiation: { mode } });
      await client.connect(new StdioClientTransportV2(server(env)));
      return client;
    };
    const modern = await spawnV2({ pin: '2026-07-28' });
    expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const reg = await modern.callTool({ name: 'agent_register', arguments: { handle: 'stdio-modern' } });
    const { secret } = reg.structuredContent as { secret: string };
    await modern.close();

    const owner = await spawnV2({ pin: '2026-07-28' }, { AGENT_SECRET: secret });
    const me = await owner.callTool({ name: 'whoami', arguments: {} });
    expect((me.structuredContent as { handle: string }).handle).toBe('stdio-modern');
    await expect(owner.readResource({ uri: 'memory://nobody/none/none' })).rejects.toMatchObject({ code: -32602 });
    await owner.close();

    // The same build keeps the 2025 era for a client that opens with initialize. A missing resource is -32602
    // with the URI in `data` here too: SDK v2 answers it so on every revision (docs/decisions/mcp-eras.md).
    const legacy = await spawnV2('legacy', { AGENT_SECRET: secret });
    expect(legacy.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect((await legacy.callTool({ name: 'whoami', arguments: {} })).structuredContent).toMatchObject({ handle: 'stdio-modern' });
    await expect(legacy.readResource({ uri: 'memory://nobody/none/none' })).rejects.toMatchObject({ code: -32602, data: { uri: 'memory://nobody/none/none' } });
    await legacy.close();
  });
});
