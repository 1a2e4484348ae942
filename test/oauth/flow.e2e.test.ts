// OAuth end to end in Chromium, as a host that cannot send headers would sign in: the 401 on /mcp/agent,
// discovery, a Client ID Metadata Document on loopback, PKCE, sign-in with handle and secret, consent, the
// code with `iss`, tokens, MCP calls with the official SDK clients, refresh rotation and reuse, revocation,
// another resource refused, scopes enforced.
import { createHash, randomBytes } from 'node:crypto';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser } from '../helpers/browser.js';
import { register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { authorizeUrl, obtainTokens, pkce, signInAndAllow, startLoopbackClient, tokenRequest, type LoopbackClient } from './oauth-client.js';

if (!hasChromium) console.warn('test/oauth/flow.e2e.test.ts skipped: no Chromium at /usr/bin/chromium (set CHROMIUM_PATH or apt-get install chromium)');

const mcpPost = (url: string, token: string | undefined, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

describe.skipIf(!hasChromium)('OAuth sign-in for /mcp/agent, in Chromium', () => {
  let gw: TestGateway;
  let browser: Browser;
  let ctx: BrowserContext;
  let client: LoopbackClient;
  let alice: { handle: string; secret: string };
  let mcpAgent: string;
  let asMeta: any;

  beforeAll(async () => {
    gw = await startGateway({ env: { GATEWAY_EGRESS_ALLOW: '127.0.0.1/32' } });
    browser = await launchBrowser();
    ctx = await browser.newContext();
    client = await startLoopbackClient();
    alice = await register(gw.url, 'oauth-alice');
    mcpAgent = `${gw.url}/mcp/agent`;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await gw?.cleanup();
  });

  it('discovers everything from the 401 on /mcp/agent', async () => {
    const r = await mcpPost(mcpAgent, undefined, INIT);
    expect(r.status).toBe(401);
    const challenge = r.headers.get('www-authenticate')!;
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1];
    const prm = (await (await fetch(metadataUrl)).json()) as any;
    expect(prm.resource).toBe(mcpAgent);
    asMeta = await (await fetch(`${prm.authorization_servers[0]}/.well-known/oauth-authorization-server`)).json();
    expect(asMeta.issuer).toBe(prm.authorization_servers[0]);
    expect(asMeta.client_id_metadata_document_supported).toBe(true);
  });

  it('signs in with handle and secret, consents, and gets a code with iss; a wrong secret says nothing about the handle', async () => {
    const { verifier, challenge } = pkce();
    const url = authorizeUrl({ authorizationEndpoint: asMeta.authorization_endpoint, clientId: client.clientId, redirectUri: client.redirectUri, scope: 'read write', resource: mcpAgent, challenge, state: 's1' });
    const page = await ctx.newPage();
    await page.goto(url);
    // The page names the client from its metadata document and the scopes asked for.
    expect(await page.textContent('[data-client-name]')).toBe('Test Connector');
    expect(await page.locator('[data-scope]').evaluateAll((els) => els.map((e) => e.getAttribute('data-scope')))).toEqual(['read', 'write']);

    const wrong = async (handle: string) => {
      await page.fill('form[action$="/login"] input[name=handle]', handle);
      await page.fill('form[action$="/login"] input[name=secret]', 'ags_not-the-secret-of-anyone-at-all-000000000');
      const [resp] = await Promise.all([page.waitForResponse((x) => x.url().endsWith('/login')), page.click('form[action$="/login"] button[type=submit]')]);
      return { status: resp.status(), text: await page.textContent('[data-error]') };
    };
    const existing = await wrong(alice.handle);
    const unknown = await wrong('nobody-by-this-name');
    expect(existing.status).toBe(401);
    expect(unknown).toEqual(existing);

    const q = await signInAndAllow(page, url, alice, client.redirectUri);
    expect(q.get('state')).toBe('s1');
    expect(q.get('iss')).toBe(asMeta.issuer);
    const t = await tokenRequest(asMeta.token_endpoint, { grant_type: 'authorization_code', code: q.get('code')!, redirect_uri: client.redirectUri, client_id: client.clientId, code_verifier: verifier, resource: mcpAgent });
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ token_type: 'Bearer', scope: 'read write' });
    expect(t.body.expires_in).toBeLessThanOrEqual(900);
    expect(t.body.refresh_token).toBeTruthy();
    // A code is good once.
    const again = await tokenRequest(asMeta.token_endpoint, { grant_type: 'authorization_code', code: q.get('code')!, redirect_uri: client.redirectUri, client_id: client.clientId, code_verifier: verifier, resource: mcpAgent });
    expect(again.status).toBe(400);
    await page.close();
  }, 60_000);

  it('refuses a code exchanged without the PKCE verifier', async () => {
    const { challenge } = pkce();
    const page = await ctx.newPage();
    const q = await signInAndAllow(page, authorizeUrl({ authorizationEndpoint: asMeta.authorization_endpoint, clientId: client.clientId, redirectUri: client.redirectUri, scope: 'read write', resource: mcpAgent, challenge, state: 's2' }), alice, client.redirectUri);
    await page.close();
    const t = await tokenRequest(asMeta.token_endpoint, { grant_type: 'authorization_code', code: q.get('code')!, redirect_uri: client.redirectUri, client_id: client.clientId, code_verifier: randomBytes(32).toString('base64url'), resource: mcpAgent });
    expect(t.status).toBe(400);
    expect(t.body.error).toBe('invalid_grant');
  }, 60_000);

  it('calls tools on /mcp/agent with the v2 and v1 SDK clients as the signed-in agent', async () => {
    const tokens = await obtainTokens(ctx, { gatewayUrl: gw.url, client, resource: mcpAgent }, alice, 'read write');
    const headers = { authorization: `Bearer ${tokens.access_token}` };
    const v2 = new ClientV2({ name: 'oauth-v2', version: '1' });
    await v2.connect(new TransportV2(new URL(mcpAgent), { requestInit: { headers: { ...headers, 'x-mcp-toolsets': 'all' } } }));
    const me = await v2.callTool({ name: 'whoami', arguments: {} });
    expect(me.isError).toBeFalsy();
    expect(JSON.stringify(me.structuredContent)).toContain(alice.handle);
    const put = await v2.callTool({ name: 'memory_put', arguments: { namespace: 'notes', key: 'k', value: 'from oauth' } });
    expect(put.isError).toBeFalsy();
    await v2.close();

    const v1 = new ClientV1({ name: 'oauth-v1', version: '1' });
    await v1.connect(new TransportV1(new URL(mcpAgent), { requestInit: { headers: { ...headers, 'x-mcp-toolsets': 'all' } } }));
    const got = await v1.callTool({ name: 'memory_get', arguments: { namespace: 'notes', key: 'k' } });
    expect(got.isError).toBeFalsy();
    expect(JSON.stringify(got.structuredContent)).toContain('from oauth');
    await v1.close();
  }, 60_000);

  it('rotates refresh tokens; reusing a rotated one is refused and ends the whole grant', async () => {
    const first = await obtainTokens(ctx, { gatewayUrl: gw.url, client, resource: mcpAgent }, alice, 'read write');
    const refresh = (rt: string) => tokenRequest(asMeta.token_endpoint, { grant_type: 'refresh_token', refresh_token: rt, client_id: client.clientId, resource: mcpAgent });
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect((await mcpPost(mcpAgent, second.body.access_token, INIT)).status).toBe(200);

    const reused = await refresh(first.refresh_token);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    // The family is revoked: the newer refresh token and its access token are dead too.
    expect((await refresh(second.body.refresh_token)).status).toBe(400);
    const dead = await mcpPost(mcpAgent, second.body.access_token, INIT);
    expect(dead.status).toBe(401);
    expect(dead.headers.get('www-authenticate')).toContain('error="invalid_token"');
  }, 60_000);

  it('exchanges a code once however many exchanges race; the second use revokes the grant, as a later reuse does', async () => {
    const { verifier, challenge } = pkce();
    const page = await ctx.newPage();
    const q = await signInAndAllow(page, authorizeUrl({ authorizationEndpoint: asMeta.authorization_endpoint, clientId: client.clientId, redirectUri: client.redirectUri, scope: 'read write', resource: mcpAgent, challenge, state: 'race' }), alice, client.redirectUri);
    await page.close();
    const exchange = { grant_type: 'authorization_code', code: q.get('code')!, redirect_uri: client.redirectUri, client_id: client.clientId, code_verifier: verifier, resource: mcpAgent };
    const answers = await Promise.all(Array.from({ length: 12 }, () => tokenRequest(asMeta.token_endpoint, exchange)));
    const issued = answers.filter((a) => a.status === 200);
    expect(issued).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The code was presented again: nothing issued from it works (RFC 6749 §4.1.2).
    expect((await mcpPost(mcpAgent, issued[0].body.access_token, INIT)).status).toBe(401);
    expect((await tokenRequest(asMeta.token_endpoint, { grant_type: 'refresh_token', refresh_token: issued[0].body.refresh_token, client_id: client.clientId, resource: mcpAgent })).status).toBe(400);

    // A refresh token likewise: one rotation at most, and then the family is revoked.
    const fresh = await obtainTokens(ctx, { gatewayUrl: gw.url, client, resource: mcpAgent }, alice, 'read write');
    const refresh = { grant_type: 'refresh_token', refresh_token: fresh.refresh_token, client_id: client.clientId, resource: mcpAgent };
    const rotated = await Promise.all(Array.from({ length: 12 }, () => tokenRequest(asMeta.token_endpoint, refresh)));
    const won = rotated.filter((a) => a.status === 200);
    expect(won.length).toBeLessThanOrEqual(1);
    for (const a of rotated.filter((x) => x.status !== 200)) expect(a).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    for (const t of [fresh, ...won.map((w) => w.body)]) expect((await mcpPost(mcpAgent, t.access_token, INIT)).status).toBe(401);
  }, 60_000);

  it('revokes an access token (RFC 7009): it no longer works', async () => {
    const t = await obtainTokens(ctx, { gatewayUrl: gw.url, client, resource: mcpAgent }, alice, 'read write');
    expect((await mcpPost(mcpAgent, t.access_token, INIT)).status).toBe(200);
    const r = await fetch(asMeta.revocation_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: t.access_token, token_type_hint: 'access_token', client_id: client.clientId }),
    });
    expect(r.status).toBe(200);
    expect((await mcpPost(mcpAgent, t.access_token, INIT)).status).toBe(401);
  }, 60_000);

  it('issues no token for another resource, and /mcp/agent refuses a token whose audience is another resource', async () => {
    const { challenge } = pkce();
    const page = await ctx.newPage();
    await page.goto(authorizeUrl({ authorizationEndpoint: asMeta.authorization_endpoint, clientId: client.clientId, redirectUri: client.redirectUri, scope: 'read', resource: 'https://elsewhere.example/mcp', challenge, state: 's3' }));
    const q = new URL(page.url()).searchParams;
    expect(page.url().startsWith(client.redirectUri)).toBe(true);
    expect(q.get('error')).toBe('invalid_target');
    await page.close();

    // A token stored for another audience (as a second gateway with another base URL on the same database would issue).
    const { RecordAdapter } = await import('../../src/http/oauth/record-adapter.js');
    const token = randomBytes(32).toString('base64url');
    const agentId = (await gw.gateway.db.get<{ id: string }>('SELECT id FROM agents WHERE handle = ?', [alice.handle]))!.id;
    const adapter = (kind: string) => new RecordAdapter(gw.gateway.db, kind, () => new Error('reused'));
    // With its grant, as the issuing gateway stores both (a token lives only while its grant does).
    const grantId = randomBytes(16).toString('base64url');
    await adapter('Grant').upsert(grantId, { jti: grantId, accountId: agentId, clientId: client.clientId, kind: 'Grant', exp: Math.floor(Date.now() / 1000) + 600 } as never, 600);
    await adapter('AccessToken').upsert(
      token,
      { jti: token, grantId, accountId: agentId, clientId: client.clientId, aud: 'https://elsewhere.example/mcp', scope: 'read write', kind: 'AccessToken', exp: Math.floor(Date.now() / 1000) + 600 } as never,
      600,
    );
    const r = await mcpPost(mcpAgent, token, INIT);
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(((await r.json()) as any).error.message).toContain('another resource');
    // And the token is stored hashed: its value appears nowhere in the table.
    const raw = await gw.gateway.db.all<{ id_hash: string; payload: string }>('SELECT id_hash, payload FROM oauth_records');
    expect(JSON.stringify(raw)).not.toContain(token);
    expect(raw.some((x) => x.id_hash === createHash('sha256').update(token).digest('hex'))).toBe(true);
  }, 60_000);

  it('limits a token to its scopes: a read-only token lists and calls read tools; a write is HTTP 403 with a step-up challenge', async () => {
    const t = await obtainTokens(ctx, { gatewayUrl: gw.url, client, resource: mcpAgent }, alice, 'read');
    expect(t.scope).toBe('read');
    for (const [name, c] of [
      ['v2', new ClientV2({ name: 'oauth-read', version: '1' })],
      ['v1', new ClientV1({ name: 'oauth-read', version: '1' })],
    ] as const) {
      const headers = { authorization: `Bearer ${t.access_token}` };
      await (c as ClientV2).connect(name === 'v2' ? new TransportV2(new URL(mcpAgent), { requestInit: { headers: { ...headers, 'x-mcp-toolsets': 'all' } } }) : (new TransportV1(new URL(mcpAgent), { requestInit: { headers: { ...headers, 'x-mcp-toolsets': 'all' } } }) as never));
      const tools = (await (c as ClientV2).listTools()).tools.map((x) => x.name);
      expect(tools, name).toContain('whoami');
      expect(tools, name).toContain('memory_get');
      expect(tools, name).not.toContain('memory_put');
      expect(tools, name).not.toContain('vault_list');
      expect((await (c as ClientV2).callTool({ name: 'whoami', arguments: {} })).isError, name).toBeFalsy();
      await (c as ClientV2).close();
    }
    // A write, as an SDK sends it: HTTP 403 with the challenge naming what to sign in for (what the token holds and
    // what the call needs), the protected resource's metadata, and a JSON-RPC error the SDKs can show.
    const init = await mcpPost(mcpAgent, t.access_token, INIT);
    const session = init.headers.get('mcp-session-id')!;
    await mcpPost(mcpAgent, t.access_token, { jsonrpc: '2.0', method: 'notifications/initialized' });
    const write = await fetch(mcpAgent, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${t.access_token}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'memory_put', arguments: { namespace: 'notes', key: 'w', value: 'nope' } } }),
    });
    expect(write.status).toBe(403);
    const challenge = write.headers.get('www-authenticate')!;
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="read write"');
    expect(challenge).toContain('resource_metadata="');
    expect(await write.json()).toMatchObject({ id: 7, error: { code: -32003, data: { error: 'insufficient_scope', required_scope: 'write' } } });
    // The 2026-07-28 revision gets the same answer; the vault needs "vault".
    const modern = await fetch(mcpAgent, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${t.access_token}`, 'mcp-protocol-version': '2026-07-28' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'vault_list', arguments: {} } }),
    });
    expect(modern.status).toBe(403);
    expect(modern.headers.get('www-authenticate')).toContain('scope="read vault"');
    // Nothing was written.
    const full = await obtainTokens(ctx, { gatewayUrl: gw.url, client, resource: mcpAgent }, alice, 'read write');
    const c = new ClientV2({ name: 'oauth-rw', version: '1' });
    await c.connect(new TransportV2(new URL(mcpAgent), { requestInit: { headers: { authorization: `Bearer ${full.access_token}`, 'x-mcp-toolsets': 'all' } } }));
    expect(JSON.stringify(await c.callTool({ name: 'memory_get', arguments: { namespace: 'notes', key: 'w' } }))).toContain('not_found');
    expect((await c.listTools()).tools.map((x) => x.name)).toContain('memory_put');
    await c.close();
  }, 60_000);
});
