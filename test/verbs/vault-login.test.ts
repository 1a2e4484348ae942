// vault_login / vault_logout with the official v2 client: the stateless era gets a revocable handle that memory,
// coach and the vault tools take as `login`; a 2025-era session and a stdio process are bound instead. The secret
// never comes back, a wrong one says nothing about the handle, and the handle dies with logout, expiry or a
// rotated secret.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vaultLogin } from '../../tools/vault/login.js';
import { api, register, startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';
import { errorOf, httpClient, MODES, stdioClient, type Mode, type VerbClient } from './clients.js';

let gw: TestGateway;
let alice: { handle: string; secret: string };
let bob: { handle: string; secret: string };
beforeAll(async () => {
  gw = await startGateway();
  alice = await register(gw.url, 'alice');
  bob = await register(gw.url, 'bob');
  const put = await api(gw.url, 'POST', '/vault', { secret: alice.secret, body: { name: 'github', value: 'ghp_alice_token' } });
  expect(put.status).toBe(200);
});
afterAll(async () => gw.cleanup());

const never = (r: unknown, secret: string) => expect(JSON.stringify(r)).not.toContain(secret);

describe('stateless era (2026-07-28 over HTTP)', () => {
  let anon: VerbClient;
  beforeAll(async () => {
    anon = await httpClient(gw.url, 'v2 pinned to 2026-07-28');
  });
  afterAll(async () => anon.close());

  it('lists `login` on the identity-bearing verbs only', async () => {
    const tools = await anon.listTools();
    const props = (name: string) => ((tools.find((t) => t.name === name) as { inputSchema?: { properties?: Record<string, unknown> } })?.inputSchema?.properties ?? {});
    for (const name of ['memory', 'coach', 'vault_get', 'vault_put', 'vault_list', 'vault_delete', 'vault_call']) expect(props(name), name).toHaveProperty('login');
    for (const name of ['memory_get', 'wall_post', 'vault_login']) expect(props(name), name).not.toHaveProperty('login');
  });

  it('returns a handle that memory, coach and the vault tools act with', async () => {
    const r = await anon.call('vault_login', { handle: 'alice', secret: alice.secret });
    expect(r.isError).toBeFalsy();
    never(r, alice.secret);
    const out = vaultLogin.output!.parse(r.structuredContent) as { login: string; bound: boolean; sign_in: string };
    expect(out).toMatchObject({ handle: 'alice', bound: false, sign_in: `${gw.url}/mcp/agent` });
    expect(out.login).toMatch(/^agl_/);

    const put = await anon.call('memory', { action: 'put', namespace: 'notes', key: 'k', value: 'v', login: out.login });
    expect(put.structuredContent).toMatchObject({ result: { owner: 'alice', version: 1 } });
    const coach = await anon.call('coach', { login: out.login });
    expect(coach.structuredContent.handle).toBe('alice');
    const secret = await anon.call('vault_get', { name: 'github', login: out.login });
    expect(secret.structuredContent).toMatchObject({ name: 'github', value: 'ghp_alice_token' });
    const stored = await anon.call('vault_put', { name: 'npm', value: 'npm_token_1', login: out.login });
    expect(stored.isError).toBeFalsy();
    // What was sealed through the handle opens with the secret itself.
    const viaRest = await api(gw.url, 'GET', '/vault/npm', { secret: alice.secret });
    expect(viaRest.body.value).toBe('npm_token_1');

    // Without the argument the same client is anonymous again: nothing is remembered on this era.
    expect(errorOf(await anon.call('coach', {})).status).toBe(401);
  });

  it("acts only as the handle's agent", async () => {
    const b = (await anon.call('vault_login', { handle: 'bob', secret: bob.secret })).structuredContent.login as string;
    expect(errorOf(await anon.call('vault_get', { name: 'github', login: b })).status).toBe(404);
    const other = errorOf(await anon.call('memory', { action: 'get', namespace: 'notes', key: 'k', handle: 'alice', login: b }));
    expect([403, 404]).toContain(other.status);
  });

  it('refuses a wrong secret and an unknown handle with the same words', async () => {
    const wrong = errorOf(await anon.call('vault_login', { handle: 'alice', secret: bob.secret }));
    const unknown = errorOf(await anon.call('vault_login', { handle: 'nobody-here', secret: alice.secret.slice(0, -2) + 'xx' }));
    const mismatched = errorOf(await anon.call('vault_login', { handle: 'nobody-here', secret: alice.secret }));
    for (const e of [wrong, unknown, mismatched]) {
      expect(e.status).toBe(401);
      expect(e.error.message).toBe('The handle or the secret is wrong.');
      never(e, alice.secret);
      never(e, bob.secret);
    }
  });

  it('a revoked handle is refused, saying how to sign in again', async () => {
    const login = (await anon.call('vault_login', { handle: 'alice', secret: alice.secret })).structuredContent.login as string;
    const out = await anon.call('vault_logout', { login });
    expect(out.structuredContent).toEqual({ logged_out: true, revoked: true });
    const e = errorOf(await anon.call('memory', { action: 'list', namespace: 'notes', login }));
    expect(e.status).toBe(401);
    expect(e.error.message).toMatch(/expired or revoked.*vault_login again.*OAuth/);
    expect((await anon.call('vault_logout', { login })).structuredContent).toEqual({ logged_out: true, revoked: false });
  });

  it('an expired handle is refused', async () => {
    const login = (await anon.call('vault_login', { handle: 'alice', secret: alice.secret })).structuredContent.login as string;
    expect((await anon.call('coach', { login })).isError).toBeFalsy();
    gw.clock.advance(3601_000);
    expect(errorOf(await anon.call('coach', { login })).status).toBe(401);
  });

  it('rotating the secret ends the handles it opened', async () => {
    const carol = await register(gw.url, 'carol');
    const login = (await anon.call('vault_login', { handle: 'carol', secret: carol.secret })).structuredContent.login as string;
    expect((await anon.call('vault_list', { login })).isError).toBeFalsy();
    // A handle cannot rotate the secret (the vault is re-keyed from the secret itself).
    const viaLogin = errorOf(await anon.call('memory', { action: 'get', namespace: 'n', key: 'k', login }));
    expect(viaLogin.status).toBe(404);
    const rotated = await api(gw.url, 'POST', '/agents/carol/secret', { secret: carol.secret });
    expect(rotated.status).toBe(200);
    expect(errorOf(await anon.call('vault_list', { login })).status).toBe(401);
  });

  it('`login` is an MCP argument: REST refuses it and tools without it refuse it', async () => {
    const login = (await anon.call('vault_login', { handle: 'alice', secret: alice.secret })).structuredContent.login as string;
    const rest = await api(gw.url, 'POST', '/vault', { secret: alice.secret, body: { name: 'x', value: 'y', login } });
    expect(rest.status).toBe(422);
    expect(rest.body.detail[0].loc).toEqual(['body', 'login']);
    expect((await api(gw.url, 'POST', '/tools/vault_login', { body: { handle: 'alice', secret: alice.secret } })).status).toBe(404);
    const e = errorOf(await anon.call('memory_get', { namespace: 'notes', key: 'k', login }));
    expect(e.status).toBe(422);
  });
});

describe('2025-era session (v2 legacy over Streamable HTTP)', () => {
  it('binds the session until vault_logout', async () => {
    const c = await httpClient(gw.url, 'v2 legacy');
    try {
      expect(errorOf(await c.call('coach', {})).status).toBe(401);
      const r = await c.call('vault_login', { handle: '@Alice', secret: alice.secret });
      never(r, alice.secret);
      expect(r.structuredContent).toMatchObject({ handle: 'alice', bound: true, login: null });
      expect((await c.call('coach', {})).structuredContent.handle).toBe('alice');
      expect((await c.call('vault_get', { name: 'github' })).structuredContent.value).toBe('ghp_alice_token');
      expect((await c.call('memory', { action: 'get', namespace: 'notes', key: 'k' })).structuredContent.result.value).toBe('v');
      // Another session is not bound.
      const other = await httpClient(gw.url, 'v2 legacy');
      expect(errorOf(await other.call('coach', {})).status).toBe(401);
      await other.close();
      expect((await c.call('vault_logout', {})).structuredContent).toEqual({ logged_out: true, revoked: true });
      expect(errorOf(await c.call('coach', {})).status).toBe(401);
      expect(errorOf(await c.call('vault_logout', {})).status).toBe(422);
    } finally {
      await c.close();
    }
  });
});

describe('stdio', () => {
  it.each(Object.keys(MODES) as Mode[])('binds the process connection (anonymous until then), %s', async (mode) => {
    const dataDir = tempDir();
    // The agent lives in the stdio gateway's own data directory: register it there first, through REST.
    const local = await startGateway({ dataDir });
    const dave = await register(local.url, mode.includes('pinned') ? 'dave' : 'dora');
    await local.stop();
    const c = await stdioClient(dataDir, '', mode);
    try {
      expect(errorOf(await c.call('coach', {})).status).toBe(401);
      const r = await c.call('vault_login', { handle: dave.handle, secret: dave.secret });
      never(r, dave.secret);
      expect(r.structuredContent).toMatchObject({ handle: dave.handle, bound: true, login: null });
      const put = await c.call('memory', { action: 'put', namespace: 'n', key: 'k', value: 1 });
      expect(put.structuredContent.result.owner).toBe(dave.handle);
      expect(errorOf(await c.call('vault_login', { handle: dave.handle, secret: 'ags_wrong' })).status).toBe(401);
    } finally {
      await c.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
