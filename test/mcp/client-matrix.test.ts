// Every official client a host may use, over both transports: SDK v2 pinned to 2026-07-28, SDK v2 in legacy
// mode and SDK v1, each over Streamable HTTP and over stdio (the built entry), connect, call a tool as the
// agent of their secret, read a resource and get a prompt. One gateway process serves all the HTTP clients at
// once; the stdio servers share its data directory.
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startGateway, type TestGateway, storeEnv } from '../helpers/gateway.js';
import { MAIN } from '../helpers/paths.js';

let gw: TestGateway;
let secret: string;
beforeAll(async () => {
  gw = await startGateway();
  secret = (await api(gw.url, 'POST', '/agents/register', { body: { handle: 'matrix' } })).body.secret;
  expect((await api(gw.url, 'PUT', '/memory/notes/hello', { secret, body: { value: 'world' } })).status).toBe(200);
});
afterAll(async () => gw.cleanup());

/** The subset of both SDK lines' client API this test uses. */
interface AnyClient {
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  readResource(p: { uri: string }): Promise<{ contents: { uri: string; text?: unknown }[] }>;
  getPrompt(p: { name: string; arguments: Record<string, string> }): Promise<{ messages: { content: unknown }[] }>;
  close(): Promise<void>;
}

const stdio = () => ({
  command: process.execPath,
  args: [MAIN, 'mcp'],
  env: { PATH: process.env.PATH ?? '', GATEWAY_DATA_DIR: gw.dataDir, ...storeEnv(gw.dataDir), LOG_LEVEL: 'warn', AGENT_SECRET: secret },
  stderr: 'pipe' as const,
});
const http = () => new URL(`${gw.url}/mcp`);
const auth = () => ({ requestInit: { headers: { authorization: `Bearer ${secret}` } } });

const clients: Record<string, () => Promise<{ client: AnyClient; era: string }>> = {
  'v2 pinned to 2026-07-28 over HTTP': async () => {
    const c = new ClientV2({ name: 'm', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await c.connect(new HttpV2(http(), auth()));
    return { client: c as unknown as AnyClient, era: c.getNegotiatedProtocolVersion()! };
  },
  // Auto probes with server/discover, which lists the 2025 revisions too: the client still picks its modern one.
  'v2 auto (pinned by discover) over HTTP': async () => {
    const c = new ClientV2({ name: 'm', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await c.connect(new HttpV2(http(), auth()));
    return { client: c as unknown as AnyClient, era: c.getNegotiatedProtocolVersion()! };
  },
  'v2 legacy over HTTP': async () => {
    const c = new ClientV2({ name: 'm', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await c.connect(new HttpV2(http(), auth()));
    return { client: c as unknown as AnyClient, era: c.getNegotiatedProtocolVersion()! };
  },
  'v1 over HTTP': async () => {
    const c = new ClientV1({ name: 'm', version: '1' });
    await c.connect(new HttpV1(http(), auth()));
    return { client: c as unknown as AnyClient, era: '2025-11-25' };
  },
  'v2 pinned to 2026-07-28 over stdio': async () => {
    const c = new ClientV2({ name: 'm', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await c.connect(new StdioV2(stdio()));
    return { client: c as unknown as AnyClient, era: c.getNegotiatedProtocolVersion()! };
  },
  'v2 auto (pinned by discover) over stdio': async () => {
    const c = new ClientV2({ name: 'm', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await c.connect(new StdioV2(stdio()));
    return { client: c as unknown as AnyClient, era: c.getNegotiatedProtocolVersion()! };
  },
  'v2 legacy over stdio': async () => {
    const c = new ClientV2({ name: 'm', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await c.connect(new StdioV2(stdio()));
    return { client: c as unknown as AnyClient, era: c.getNegotiatedProtocolVersion()! };
  },
  'v1 over stdio': async () => {
    const c = new ClientV1({ name: 'm', version: '1' });
    await c.connect(new StdioV1(stdio()));
    return { client: c as unknown as AnyClient, era: '2025-11-25' };
  },
};

describe('official clients × transports × eras', () => {
  it.each(Object.keys(clients))('%s: calls a tool as the agent, reads a resource, gets a prompt', async (name) => {
    const { client, era } = await clients[name]();
    try {
      expect(era).toBe(name.includes('pinned') ? '2026-07-28' : '2025-11-25');
      const me = (await client.callTool({ name: 'whoami', arguments: {} })) as { structuredContent?: { handle?: string } };
      expect(me.structuredContent?.handle).toBe('matrix');
      const read = await client.readResource({ uri: 'memory://matrix/notes/hello' });
      expect(read.contents[0].uri).toBe('memory://matrix/notes/hello');
      expect(JSON.parse(String(read.contents[0].text)).value).toBe('world');
      const prompt = await client.getPrompt({ name: 'resume_work', arguments: { handle: 'matrix' } });
      expect(JSON.stringify(prompt.messages[0].content)).toContain('matrix');
    } finally {
      await client.close();
    }
  });
});
