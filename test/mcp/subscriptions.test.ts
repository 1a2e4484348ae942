// Hearing of changes: a 2026-07-28 subscriptions/listen stream (raw HTTP: ack first, tagged notifications, the
// stream headers), 2025-era resources/subscribe with the v1 client, a change made by a second gateway process on
// the same data directory reaching both, and a stranger's private memory that cannot be watched.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startGateway, type TestGateway, storeEnv } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { modernPost } from '../helpers/modern-mcp.js';
import { sseMessages } from '../helpers/sse-messages.js';
import { MAIN } from '../helpers/paths.js';

let gw: TestGateway;
let secret: string;
let strangerSecret: string;

beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_MCP_CHANGE_POLL_MS: '50', GATEWAY_MCP_KEEPALIVE_MS: '200' } });
  secret = (await api(gw.url, 'POST', '/agents/register', { body: { handle: 'listener' } })).body.secret;
  strangerSecret = (await api(gw.url, 'POST', '/agents/register', { body: { handle: 'stranger' } })).body.secret;
  expect((await api(gw.url, 'PUT', '/memory/private/diary', { secret: strangerSecret, body: { value: 'mine' } })).status).toBe(200);
});
afterAll(async () => gw.cleanup());

const put = async (who: string, ns: string, key: string, value: unknown) =>
  expect((await api(gw.url, 'PUT', `/memory/${ns}/${key}`, { secret: who, body: { value } })).status).toBe(200);

/** How a host spawns the built entry over stdio on the gateway's data directory, acting as `listener`. */
const stdioEntry = () => ({
  command: process.execPath,
  args: [MAIN, 'mcp'],
  env: { PATH: process.env.PATH ?? '', GATEWAY_DATA_DIR: gw.dataDir, ...storeEnv(gw.dataDir), LOG_LEVEL: 'warn', AGENT_SECRET: secret, GATEWAY_MCP_CHANGE_POLL_MS: '50' },
  stderr: 'pipe' as const,
});

/** A second gateway process on the same data directory (the built entry over stdio), acting as `listener`. */
async function secondProcess(): Promise<Client> {
  const client = new Client({ name: 'second-process', version: '1' });
  await client.connect(new StdioClientTransport(stdioEntry()));
  return client;
}

describe('subscriptions/listen (2026-07-28)', () => {
  it('acknowledges what it honours, then streams tagged resource updates from this and another process', async () => {
    const mine = 'memory://listener/notes/today';
    const theirs = 'memory://stranger/private/diary';
    const controller = new AbortController();
    const res = await modernPost(
      gw.url,
      'subscriptions/listen',
      { notifications: { resourceSubscriptions: [mine, theirs], toolsListChanged: true } },
      { id: 'listen-1', signal: controller.signal, headers: { authorization: `Bearer ${secret}` } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const stream = sseMessages(res.body!);
    try {
      const ack = await eventually(async () => {
        const a = stream.seen.find((m) => m.method === 'notifications/subscriptions/acknowledged');
        expect(a).toBeDefined();
        return a;
      });
      // The stranger's private diary is not honoured; the server has no tools list changes to offer.
      expect(ack.params.notifications).toEqual({ resourceSubscriptions: [mine] });
      expect(stream.seen[0]).toBe(ack);

      await put(strangerSecret, 'private', 'diary', 'changed');
      await put(secret, 'notes', 'today', 'written here');
      const first = await eventually(async () => {
        const u = stream.seen.filter((m) => m.method === 'notifications/resources/updated');
        expect(u).toHaveLength(1);
        return u[0];
      });
      expect(first.params.uri).toBe(mine);
      expect(first.params._meta['io.modelcontextprotocol/subscriptionId']).toBe('listen-1');

      const other = await secondProcess();
      try {
        const r = await other.callTool({ name: 'memory_put', arguments: { namespace: 'notes', key: 'today', value: 'written by another process' } });
        expect(r.isError).toBeFalsy();
      } finally {
        await other.close();
      }
      await eventually(async () => expect(stream.seen.filter((m) => m.method === 'notifications/resources/updated')).toHaveLength(2), 10_000);
      expect(stream.seen.some((m) => m.params?.uri === theirs)).toBe(false);
      // An idle stream carries keep-alive comments.
      await eventually(async () => expect(stream.comments()).toBeGreaterThan(0));
    } finally {
      controller.abort();
      await stream.stop();
    }
  });
});

describe('subscriptions/listen over stdio (2026-07-28, v2 client)', () => {
  it('delivers the updates of a write through the same process and of one by another process on the data directory', async () => {
    const client = new ClientV2({ name: 'stdio-listener', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StdioClientTransportV2(stdioEntry()));
    const updated: { uri: string; subscription: unknown }[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push({ uri: n.params.uri, subscription: n.params._meta?.['io.modelcontextprotocol/subscriptionId'] }));
    try {
      const mine = 'memory://listener/stdio/watched';
      const theirs = 'memory://stranger/private/diary';
      const sub = await client.listen({ resourceSubscriptions: [mine, theirs] });
      // The stranger's private diary is not honoured here either.
      expect(sub.honoredFilter).toEqual({ resourceSubscriptions: [mine] });

      const r = await client.callTool({ name: 'memory_put', arguments: { namespace: 'stdio', key: 'watched', value: 'from this process' } });
      expect(r.isError).toBeFalsy();
      await client.callTool({ name: 'memory_put', arguments: { namespace: 'stdio', key: 'unwatched', value: 1 } });
      await eventually(async () => expect(updated.map((u) => u.uri)).toEqual([mine]), 10_000);
      expect(updated[0].subscription).toEqual(expect.any(String));

      await put(strangerSecret, 'private', 'diary', 'changed again');
      await put(secret, 'stdio', 'watched', 'from the HTTP gateway process');
      await eventually(async () => expect(updated.map((u) => u.uri)).toEqual([mine, mine]), 10_000);

      // Closed, the subscription hears nothing more.
      await sub.close();
      expect(await sub.closed).toBe('local');
      await put(secret, 'stdio', 'watched', 'after close');
      await new Promise((r) => setTimeout(r, 300));
      expect(updated).toHaveLength(2);
    } finally {
      await client.close();
    }
  });
});

describe('resources/subscribe (2025 era, v1 client)', () => {
  it('notifies the session of its subscribed resources, and refuses a stranger private memory', async () => {
    const client = new Client({ name: 'subscriber', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    await expect(client.subscribeResource({ uri: 'memory://stranger/private/diary' })).rejects.toMatchObject({ code: -32002 });
    await client.subscribeResource({ uri: 'memory://listener/notes/v1' });
    await client.subscribeResource({ uri: 'agent://listener/profile' });
    await put(secret, 'notes', 'v1', 1);
    await put(secret, 'notes', 'unwatched', 1);
    await eventually(async () => expect(updated).toEqual(['memory://listener/notes/v1']));

    const other = await secondProcess();
    try {
      await other.callTool({ name: 'memory_put', arguments: { namespace: 'notes', key: 'v1', value: 2 } });
    } finally {
      await other.close();
    }
    await eventually(async () => expect(updated).toHaveLength(2), 10_000);

    await client.unsubscribeResource({ uri: 'memory://listener/notes/v1' });
    await put(secret, 'notes', 'v1', 3);
    await new Promise((r) => setTimeout(r, 300));
    expect(updated.filter((u) => u.startsWith('memory://'))).toHaveLength(2);
    await client.close();
  });
});
