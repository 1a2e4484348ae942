// An operator suspends an agent: every call with its credentials is refused (REST, MCP, A2A, a vault_login handle made
// before), its data stays, other agents are untouched, and lifting the suspension restores it; from the operator API
// and from the console's buttons in Chromium.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser } from '../helpers/browser.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

const OP = 'operator-token-for-the-suspension-tests';
const op = { 'x-operator-token': OP };
let gw: TestGateway;
let bob: { handle: string; secret: string };
let alice: { handle: string; secret: string };

beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OP } });
  [alice, bob] = [await register(gw.url, 'alice'), await register(gw.url, 'bob')];
  expect((await api(gw.url, 'PUT', '/memory/notes/k', { secret: bob.secret, body: { value: 'kept' } })).status).toBe(200);
});
afterAll(async () => gw?.cleanup());

const whoami = (secret: string) => api(gw.url, 'GET', '/agents/me', { secret });
const a2a = (secret: string, method: string, params: object) => api(gw.url, 'POST', '/a2a', { secret, body: { jsonrpc: '2.0', id: 1, method, params } });

describe('suspending an agent (operator API)', () => {
  it('is refused without the operator token (401) and with a wrong one (403), and 404 for an unknown handle', async () => {
    for (const path of ['/operator/agents/bob/suspend', '/operator/agents/bob/unsuspend']) {
      expect((await api(gw.url, 'POST', path)).status).toBe(401);
      expect((await api(gw.url, 'POST', path, { headers: { 'x-operator-token': 'wrong-wrong-wrong-wrong' } })).status).toBe(403);
      // An agent cannot suspend or lift anything with its own secret.
      expect((await api(gw.url, 'POST', path, { secret: alice.secret })).status).toBe(401);
    }
    expect((await api(gw.url, 'POST', '/operator/agents/nobody-here/suspend', { headers: op })).status).toBe(404);
    expect((await whoami(bob.secret)).status).toBe(200);
  });

  it('refuses every call with its credentials, on REST, MCP, A2A and a vault_login handle, and keeps its data', async () => {
    // One MCP session with the secret as Bearer, one with no header that vault_login bound to bob.
    const mcp = new Client({ name: 'suspended', version: '1' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${bob.secret}` } } }));
    const bound = new Client({ name: 'bound', version: '1' });
    await bound.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`)));
    expect((await bound.callTool({ name: 'vault_login', arguments: { handle: 'bob', secret: bob.secret } })).structuredContent).toMatchObject({ bound: true });
    expect((await bound.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();

    const task = (await a2a(bob.secret, 'message/send', { message: { kind: 'message', messageId: 'm-before', role: 'user', parts: [{ kind: 'text', text: 'convert 255 to base 2' }] } })).body.result;
    expect(task.id).toEqual(expect.any(String));

    const suspended = await api(gw.url, 'POST', '/operator/agents/bob/suspend', { headers: op });
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({ handle: 'bob', suspended: true });
    const since = suspended.body.suspended_at;
    // Again: nothing changes, the suspension keeps its start.
    expect((await api(gw.url, 'POST', '/operator/agents/bob/suspend', { headers: op })).body.suspended_at).toBe(since);
    expect((await api(gw.url, 'GET', '/operator/agents?handle=bob', { headers: op })).body.agents[0].suspended_at).toBe(since);

    const rest = await whoami(bob.secret);
    expect(rest.status).toBe(403);
    expect(rest.body.error.code).toBe('agent_suspended');
    expect((await api(gw.url, 'GET', '/memory/notes/k', { secret: bob.secret })).status).toBe(403);
    const call = await mcp.callTool({ name: 'whoami', arguments: {} });
    expect(call.isError).toBe(true);
    expect(JSON.stringify(call.content)).toContain('agent_suspended');
    const viaLogin = await bound.callTool({ name: 'whoami', arguments: {} });
    expect(viaLogin.isError).toBe(true);
    expect(JSON.stringify(viaLogin.content)).toContain('agent_suspended');
    // A2A reads its tasks from the task store, not through a tool: refused there too, on both bindings.
    for (const [method, params] of [
      ['tasks/get', { id: task.id }],
      ['message/send', { message: { kind: 'message', messageId: 'm-during', role: 'user', parts: [{ kind: 'text', text: 'convert 255 to base 2' }] } }],
    ] as const) {
      const refused = await a2a(bob.secret, method, params);
      expect(refused.body.result).toBeUndefined();
      expect(refused.body.error).toMatchObject({ code: -32000, data: { code: 'agent_suspended', status: 403 } });
    }
    expect((await api(gw.url, 'GET', `/a2a/tasks/${task.id}`, { secret: bob.secret, headers: { 'a2a-version': '1.0' } })).status).toBe(403);
    // Others are untouched.
    expect((await whoami(alice.secret)).status).toBe(200);

    expect((await api(gw.url, 'POST', '/operator/agents/bob/unsuspend', { headers: op })).body).toMatchObject({ suspended: false, suspended_at: null });
    expect((await whoami(bob.secret)).status).toBe(200);
    expect((await api(gw.url, 'GET', '/memory/notes/k', { secret: bob.secret })).body.value).toBe('kept');
    expect((await bound.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();
    expect((await a2a(bob.secret, 'tasks/get', { id: task.id })).body.result.id).toBe(task.id);
    await Promise.all([mcp.close(), bound.close()]);
  });
});

describe.skipIf(!hasChromium)('suspending from the console (Chromium)', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.goto(`${gw.url}/operator`);
    await page.fill('input[name=token]', OP);
    await Promise.all([page.waitForURL(`${gw.url}/operator`), page.click('button[type=submit]')]);
  });
  afterAll(async () => browser?.close());

  it('suspends and lifts with the row’s button, as the API then reports', async () => {
    await page.goto(`${gw.url}/operator/console/agents?handle=alice`);
    await Promise.all([page.waitForURL(/\/operator\/console\/agents$/), page.locator('[data-agent="alice"] form[action$="/suspend"] button').click()]);
    expect((await whoami(alice.secret)).body.error.code).toBe('agent_suspended');
    await page.goto(`${gw.url}/operator/console/agents?handle=alice`);
    expect(await page.locator('[data-agent="alice"]').innerText()).toContain('suspended');
    await Promise.all([page.waitForURL(/\/operator\/console\/agents$/), page.locator('[data-agent="alice"] form[action$="/unsuspend"] button').click()]);
    expect((await whoami(alice.secret)).status).toBe(200);
  });
});
