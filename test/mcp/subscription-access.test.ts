// A subscription is heard only while its caller may read the resource: checked as each change is delivered, not
// only when it subscribed. After a share is revoked or an entry made private, a 2025-era session (v1 client), a
// 2026-07-28 listen stream over HTTP and one over stdio (v2 client) hear nothing more of it; a suspended agent's
// session hears nothing and its listen stream ends, so its client comes back as it is now; and a handle deleted and
// registered again by a new agent does not pass the new agent's private writes to the old one's subscribers.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, register, startGateway, storeEnv, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { modernPost } from '../helpers/modern-mcp.js';
import { MAIN } from '../helpers/paths.js';
import { sseMessages } from '../helpers/sse-messages.js';

const OP = 'operator-token-of-the-subscription-access-test';
type Agent = { handle: string; secret: string };
let gw: TestGateway;
let owner: Agent, grantee: Agent, stranger: Agent;

beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_MCP_CHANGE_POLL_MS: '50', GATEWAY_OPERATOR_TOKEN: OP } });
  [owner, grantee, stranger] = [await register(gw.url, 'sub-owner'), await register(gw.url, 'sub-grantee'), await register(gw.url, 'sub-stranger')];
});
afterAll(async () => gw.cleanup());

const put = async (who: Agent, path: string, body: Record<string, unknown>) => expect((await api(gw.url, 'PUT', `/memory/${path}`, { secret: who.secret, body })).status).toBe(200);
const share = (ns: string, who: Agent, permission = 'read') => api(gw.url, 'POST', `/memory/${ns}/share`, { secret: owner.secret, body: { grantee: who.handle, permission } });
const unshare = (ns: string, who: Agent) => api(gw.url, 'POST', `/memory/${ns}/unshare`, { secret: owner.secret, body: { grantee: who.handle } });
const quiet = () => new Promise((r) => setTimeout(r, 400));

/** A 2025-era session as `who` (v1 client over Streamable HTTP), subscribed to `uris`; the URIs it hears of. */
async function session(who: Agent, uris: string[]) {
  const client = new Client({ name: 'subscriber', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${who.secret}` } } }));
  const heard: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void heard.push(n.params.uri));
  for (const uri of uris) await client.subscribeResource({ uri });
  return { heard, close: () => client.close() };
}

/** A 2026-07-28 listen stream over HTTP as `who`; the URIs it hears of, once acknowledged. */
async function listen(who: Agent, uris: string[]) {
  const controller = new AbortController();
  const res = await modernPost(gw.url, 'subscriptions/listen', { notifications: { resourceSubscriptions: uris } }, { signal: controller.signal, headers: { authorization: `Bearer ${who.secret}` } });
  expect(res.status).toBe(200);
  const stream = sseMessages(res.body!);
  await eventually(async () => expect(stream.seen.some((m) => m.method === 'notifications/subscriptions/acknowledged')).toBe(true));
  const heard = () => stream.seen.filter((m) => m.method === 'notifications/resources/updated').map((m) => m.params.uri as string);
  return { heard, ended: stream.pump, close: () => (controller.abort(), stream.stop()) };
}

it('a revoked share or an entry made private is heard of no more, over a 2025 session and both listen transports', async () => {
  const shared = `memory://${owner.handle}/team/plan`;
  const pub = `memory://${owner.handle}/notes/open`;
  await put(owner, 'team/plan', { value: 1 });
  await put(owner, 'notes/open', { value: 1, visibility: 'public' });
  expect((await share('team', grantee)).status).toBe(200);

  const s = await session(grantee, [shared]);
  const l = await listen(grantee, [shared]);
  const publicReader = await session(stranger, [pub]);
  const stdio = new ClientV2({ name: 'stdio-grantee', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await stdio.connect(
    new StdioClientTransportV2({
      command: process.execPath,
      args: [MAIN, 'mcp'],
      env: { PATH: process.env.PATH ?? '', GATEWAY_DATA_DIR: gw.dataDir, ...storeEnv(gw.dataDir), LOG_LEVEL: 'warn', AGENT_SECRET: grantee.secret, GATEWAY_MCP_CHANGE_POLL_MS: '50' },
      stderr: 'pipe',
    }),
  );
  const overStdio: string[] = [];
  stdio.setNotificationHandler('notifications/resources/updated', (n) => void overStdio.push(n.params.uri));
  try {
    expect((await stdio.listen({ resourceSubscriptions: [shared] })).honoredFilter).toEqual({ resourceSubscriptions: [shared] });
    // While shared (and public), every one of them hears.
    await put(owner, 'team/plan', { value: 2 });
    await put(owner, 'notes/open', { value: 2 });
    await eventually(async () => {
      expect(s.heard).toEqual([shared]);
      expect(l.heard()).toEqual([shared]);
      expect(overStdio).toEqual([shared]);
      expect(publicReader.heard).toEqual([pub]);
    }, 10_000);

    expect((await unshare('team', grantee)).body.revoked).toBe(true);
    await put(owner, 'notes/open', { value: 3, visibility: 'private' });
    await put(owner, 'team/plan', { value: 3 });
    await put(owner, 'notes/open', { value: 4 });
    await api(gw.url, 'DELETE', '/memory/team/plan', { secret: owner.secret });
    await quiet();
    expect(s.heard).toEqual([shared]);
    expect(l.heard()).toEqual([shared]);
    expect(overStdio).toEqual([shared]);
    // Checked when delivered, the change that made it private is not heard of either: it is private by then.
    expect(publicReader.heard).toEqual([pub]);

    // Shared again, the subscriptions (which were kept) are heard again.
    expect((await share('team', grantee)).status).toBe(200);
    await put(owner, 'team/plan', { value: 5 });
    await eventually(async () => {
      expect(s.heard).toEqual([shared, shared]);
      expect(l.heard()).toEqual([shared, shared]);
      expect(overStdio).toEqual([shared, shared]);
    }, 10_000);
  } finally {
    await Promise.all([s.close(), l.close(), publicReader.close(), stdio.close()]);
  }
});

/**
 * A 2025 session and an HTTP listen of `who` on `uri` that each heard `write` once. The write made before subscribing
 * may still be news to a feed that was already running, so they are counted from a quiet moment after subscribing.
 */
async function subscribedAndHeard(who: Agent, uri: string, write: () => Promise<unknown>) {
  const s = await session(who, [uri]);
  const l = await listen(who, [uri]);
  const counts = () => [s.heard.length, l.heard().length];
  const close = () => Promise.all([s.close(), l.close()]);
  try {
    await quiet();
    const [session0, listen0] = counts();
    await write();
    const once = [session0 + 1, listen0 + 1];
    await eventually(async () => expect(counts()).toEqual(once));
    return { l, counts, once, close };
  } catch (err) {
    await close();
    throw err;
  }
}

it("a suspended agent's session hears nothing, and its listen stream ends", async () => {
  const mine = `memory://${owner.handle}/shared-desk/todo`;
  await put(owner, 'shared-desk/todo', { value: 1 });
  expect((await share('shared-desk', stranger, 'write')).status).toBe(200);
  const { l, counts, once, close } = await subscribedAndHeard(owner, mine, () => put(stranger, 'shared-desk/todo', { value: 2, handle: owner.handle }));
  try {
    expect((await api(gw.url, 'POST', `/operator/agents/${owner.handle}/suspend`, { headers: { 'x-operator-token': OP } })).status).toBe(200);
    await put(stranger, 'shared-desk/todo', { value: 3, handle: owner.handle });
    await l.ended;
    await quiet();
    expect(counts()).toEqual(once);
  } finally {
    await close();
    await api(gw.url, 'POST', `/operator/agents/${owner.handle}/unsuspend`, { headers: { 'x-operator-token': OP } });
  }
});

it('a handle deleted and registered again by a new agent: its private writes are not heard by the old subscribers', async () => {
  const first = await register(gw.url, 'sub-reused');
  const uri = 'memory://sub-reused/notes/open';
  await put(first, 'notes/open', { value: 1, visibility: 'public' });
  const { counts, once, close } = await subscribedAndHeard(stranger, uri, () => put(first, 'notes/open', { value: 2 }));
  try {
    expect((await api(gw.url, 'DELETE', '/agents/sub-reused', { secret: first.secret })).status).toBeLessThan(300);
    const second = await register(gw.url, 'sub-reused');
    await put(second, 'notes/open', { value: 'the new agent’s private note' });
    await quiet();
    expect(counts()).toEqual(once);
  } finally {
    await close();
  }
});
