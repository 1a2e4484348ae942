// The default tool list is small (a host loads every definition into the model's context on every turn), the rest is
// one tools_find away in both eras and on stdio, with the official SDK clients: a lasting connection's list grows
// and the client hears notifications/tools/list_changed; a stateless request gets the definitions to call at once.
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { register, startGateway, storeEnv, tempDir, type TestGateway } from '../helpers/gateway.js';
import { everyTool, type ToolLister } from '../helpers/list-tools.js';
import { MAIN } from '../helpers/paths.js';

const MODERN = '2026-07-28';
const LIMIT_BYTES = 32 * 1024;
let gw: TestGateway;
let secret: string;
const dataDir = tempDir();

beforeAll(async () => {
  gw = await startGateway();
  secret = (await register(gw.url, 'surface-agent')).secret;
});
afterAll(async () => {
  await gw.cleanup();
  fs.rmSync(dataDir, { recursive: true, force: true });
});


const names = (tools: { name: string }[]) => tools.map((t) => t.name);
const structured = (r: unknown) => (r as { structuredContent: Record<string, any> }).structuredContent;
const stdioEnv = (env: Record<string, string> = {}) => ({ PATH: process.env.PATH ?? '', GATEWAY_DATA_DIR: dataDir, ...storeEnv(dataDir), LOG_LEVEL: 'warn', ...env });

describe('the default tools/list', () => {
  it('fits in 32 KB of JSON over all pages, in both eras, and every description says what the tool is for', async () => {
    const v1 = new ClientV1({ name: 'size-v1', version: '1' });
    await v1.connect(new TransportV1(new URL(`${gw.url}/mcp`)));
    const v2 = new ClientV2({ name: 'size-v2', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await v2.connect(new TransportV2(new URL(`${gw.url}/mcp`)));
    for (const client of [v1, v2] as ToolLister[]) {
      const tools = await everyTool(client);
      expect(JSON.stringify(tools).length).toBeLessThanOrEqual(LIMIT_BYTES);
      expect(names(tools)).toEqual(expect.arrayContaining(['memory', 'agent_register', 'whoami', 'start', 'gateway_info', 'tools_find', 'research', 'browse']));
      for (const t of tools) expect(t.description?.length ?? 0, t.name).toBeGreaterThan(40);
      // Everything else is still there for those who ask for it.
      const all = new ClientV1({ name: 'all', version: '1' });
      await all.connect(new TransportV1(new URL(`${gw.url}/mcp?toolsets=all`)));
      expect((await everyTool(all)).length).toBeGreaterThan(tools.length * 5);
      await all.close();
    }
    await Promise.all([v1.close(), v2.close()]);
  });

  it('takes the toolsets from X-MCP-Toolsets when the URL has none', async () => {
    const client = new ClientV2({ name: 'header', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new TransportV2(new URL(`${gw.url}/mcp`), { requestInit: { headers: { 'x-mcp-toolsets': 'wall' } } }));
    const listed = names(await everyTool(client));
    expect(listed).toContain('wall_post');
    expect(listed.every((n) => n.startsWith('wall_'))).toBe(true);
    await client.close();
  });
});

describe('tools_find on a 2025-era session (v1 client over Streamable HTTP)', () => {
  it('finds tools by need, enables their toolsets, and announces the wider list', async () => {
    const client = new ClientV1({ name: 'finder', version: '1' });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    await client.connect(new TransportV1(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    expect(names(await everyTool(client))).not.toContain('wall_post');

    const found = structured(await client.callTool({ name: 'tools_find', arguments: { need: 'publish a post on the public wall' } }));
    expect(names(found.tools)).toContain('wall_post');
    expect(found.tools.find((t: { name: string }) => t.name === 'wall_post').input_schema.type).toBe('object');
    expect(found.enabled).toContain('wall');
    expect(found.listed).toBe(true);
    await eventually(async () => expect(changed).toBeGreaterThan(0));
    expect(names(await everyTool(client))).toContain('wall_post');
    const posted = await client.callTool({ name: 'wall_post', arguments: { text: 'found through tools_find' } });
    expect(posted.isError).toBeFalsy();

    // Asking again enables nothing new and announces nothing.
    const before = changed;
    expect(structured(await client.callTool({ name: 'tools_find', arguments: { toolset: 'wall' } })).enabled).toEqual([]);
    expect(changed).toBe(before);
    await client.close();
  });

  it('widens a narrowed session: calls outside the chosen toolsets are refused until tools_find enables them', async () => {
    const client = new ClientV1({ name: 'narrow', version: '1' });
    await client.connect(new TransportV1(new URL(`${gw.url}/mcp?toolsets=gateway`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
    await expect(client.callTool({ name: 'memory_put', arguments: { namespace: 'n', key: 'k', value: 1 } })).rejects.toThrow(/not found/);
    expect(structured(await client.callTool({ name: 'tools_find', arguments: { toolset: 'memory' } })).enabled).toEqual(['memory']);
    const put = await client.callTool({ name: 'memory_put', arguments: { namespace: 'n', key: 'k', value: 1 } });
    expect(put.isError).toBeFalsy();
    await client.close();
  });

  it('answers bad input with a 422 that says what to give', async () => {
    const client = new ClientV1({ name: 'bad', version: '1' });
    await client.connect(new TransportV1(new URL(`${gw.url}/mcp`)));
    const none = await client.callTool({ name: 'tools_find', arguments: {} });
    expect(none.isError).toBe(true);
    expect(structured(none)).toMatchObject({ status: 422 });
    const unknown = await client.callTool({ name: 'tools_find', arguments: { toolset: 'no-such-set' } });
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(structured(unknown))).toMatch(/Toolsets: .*memory/);
    await client.close();
  });
});

describe('tools_find on the stateless 2026-07-28 era over HTTP', () => {
  it('answers definitions to call at once, and says the list stays as it is', async () => {
    const client = new ClientV2({ name: 'modern-finder', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new TransportV2(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
    const found = structured(await client.callTool({ name: 'tools_find', arguments: { need: 'share a memory entry with another agent' } }));
    expect(names(found.tools)).toContain('memory_share');
    expect(found).toMatchObject({ enabled: [], listed: false });
    expect(names(await everyTool(client))).not.toContain('memory_share');
    const put = await client.callTool({ name: 'memory_put', arguments: { namespace: 'modern', key: 'k', value: 'v' } });
    expect(put.isError).toBeFalsy();
    await client.close();
  });
});

describe('tools_find over stdio', () => {
  it('2025 era (v1 client): the list grows and the client hears list_changed', async () => {
    const client = new ClientV1({ name: 'stdio-v1', version: '1' });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    await client.connect(new StdioV1({ command: process.execPath, args: [MAIN, 'mcp'], env: stdioEnv(), stderr: 'pipe' }));
    expect(names(await everyTool(client))).not.toContain('watch_create');
    const found = structured(await client.callTool({ name: 'tools_find', arguments: { need: 'watch a web page and notify me when it changes' } }));
    expect(names(found.tools)).toContain('watch_create');
    await eventually(async () => expect(changed).toBe(1));
    expect(names(await everyTool(client))).toContain('watch_create');
    await client.close();
  });

  it('2026-07-28 era (v2 client pinned): the list grows and the client refreshes it on list_changed', async () => {
    const refreshed: string[][] = [];
    const client = new ClientV2(
      { name: 'stdio-v2', version: '1' },
      { versionNegotiation: { mode: { pin: MODERN } }, listChanged: { tools: { onChanged: (_err, tools) => void (tools && refreshed.push(tools.map((t) => t.name))) } } },
    );
    await client.connect(new StdioV2({ command: process.execPath, args: [MAIN, 'mcp'], env: stdioEnv(), stderr: 'pipe' }));
    expect(names(await everyTool(client))).not.toContain('job_create');
    const found = structured(await client.callTool({ name: 'tools_find', arguments: { toolset: 'jobs' } }));
    expect(found).toMatchObject({ enabled: ['jobs'], listed: true });
    expect(names(await everyTool(client))).toContain('job_create');
    await eventually(async () => expect(refreshed.at(-1)).toContain('job_create'));
    await client.close();
  });
});
