// Older clients register dynamically (RFC 7591); a new agent registers on the sign-in page; an agent lists
// and revokes its connected clients over REST and MCP, and another agent can neither see nor revoke them.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser } from '../helpers/browser.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { obtainTokens, pkce, authorizeUrl, startLoopbackClient, tokenRequest, type LoopbackClient } from './oauth-client.js';

if (!hasChromium) console.warn('test/oauth/connections.e2e.test.ts skipped: no Chromium at /usr/bin/chromium (set CHROMIUM_PATH or apt-get install chromium)');

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const mcpStatus = async (url: string, token: string) =>
  (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` }, body: JSON.stringify(INIT) })).status;

describe.skipIf(!hasChromium)('connected clients, DCR and registering on the sign-in page', () => {
  let gw: TestGateway;
  let browser: Browser;
  let cimd: LoopbackClient;
  let mcpAgent: string;

  beforeAll(async () => {
    gw = await startGateway({ env: { GATEWAY_EGRESS_ALLOW: '127.0.0.1/32' } });
    browser = await launchBrowser();
    cimd = await startLoopbackClient('Metadata Client');
    mcpAgent = `${gw.url}/mcp/agent`;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await cimd?.close();
    await gw?.cleanup();
  });

  it('registers a client dynamically, and a new agent registers on the page (secret shown once) then consents', async () => {
    const reg = await api(gw.url, 'POST', '/oauth/register', {
      body: { client_name: 'Registered Client', redirect_uris: [cimd.redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
    });
    expect(reg.status).toBe(201);
    expect(reg.body.client_secret).toBeUndefined();
    const clientId = reg.body.client_id as string;
    // Shared secrets are not offered: a confidential registration is refused.
    const confidential = await api(gw.url, 'POST', '/oauth/register', { body: { redirect_uris: [cimd.redirectUri], token_endpoint_auth_method: 'client_secret_basic' } });
    expect(confidential.status).toBe(400);

    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const { verifier, challenge } = pkce();
    await page.goto(authorizeUrl({ authorizationEndpoint: `${gw.url}/oauth/authorize`, clientId, redirectUri: cimd.redirectUri, scope: 'read write', resource: mcpAgent, challenge, state: 'd' }));
    expect(await page.textContent('[data-client-name]')).toBe('Registered Client');
    await page.fill('form[action$="/register"] input[name=handle]', 'page-made-agent');
    await page.click('form[action$="/register"] button[type=submit]');
    const secret = (await page.textContent('[data-secret]'))!.trim();
    expect(secret).toMatch(/^ags_/);
    expect(await page.textContent('[data-handle]')).toBe('page-made-agent');
    await page.click('[data-continue]');
    await page.waitForSelector('button[value=approve]');
    expect(await page.textContent('[data-handle]')).toBe('page-made-agent');
    const back = page.waitForURL((u) => u.toString().startsWith(cimd.redirectUri));
    await page.click('button[value=approve]');
    await back;
    const code = new URL(page.url()).searchParams.get('code')!;
    const t = await tokenRequest(`${gw.url}/oauth/token`, { grant_type: 'authorization_code', code, redirect_uri: cimd.redirectUri, client_id: clientId, code_verifier: verifier, resource: mcpAgent });
    expect(t.status).toBe(200);
    // The secret shown on the page is the agent's: it works as a Bearer on REST.
    const me = await api(gw.url, 'GET', '/agents/me', { secret });
    expect(me.body.handle).toBe('page-made-agent');
    await ctx.close();
  }, 60_000);

  it('lists and revokes connected clients (REST and MCP); another agent can neither see nor revoke them', async () => {
    const owner = await register(gw.url, 'conn-owner');
    const other = await register(gw.url, 'conn-other');
    const ctx = await browser.newContext();
    const tokens = await obtainTokens(ctx, { gatewayUrl: gw.url, client: cimd, resource: mcpAgent }, owner, 'read write');
    await ctx.close();

    const list = await api(gw.url, 'GET', '/connections', { secret: owner.secret });
    expect(list.status).toBe(200);
    expect(list.body.clients).toEqual([expect.objectContaining({ client_id: cimd.clientId, client_name: 'Metadata Client', client_uri: `${cimd.base}/`, scopes: ['read', 'write'] })]);
    // No token or secret in the list.
    expect(JSON.stringify(list.body)).not.toContain(tokens.access_token);
    expect(JSON.stringify(list.body)).not.toContain(tokens.refresh_token);

    // The token itself can list (a read tool) over MCP.
    const c = new ClientV2({ name: 'conn', version: '1' });
    await c.connect(new TransportV2(new URL(mcpAgent), { requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } } }));
    const viaMcp = await c.callTool({ name: 'oauth_clients_list', arguments: {} });
    expect((viaMcp.structuredContent as any).clients[0].client_id).toBe(cimd.clientId);
    await c.close();

    // Another agent sees none of them and cannot revoke them, by its own list or by naming the owner.
    expect((await api(gw.url, 'GET', '/connections', { secret: other.secret })).body.clients).toEqual([]);
    expect((await api(gw.url, 'GET', `/connections?handle=${owner.handle}`, { secret: other.secret })).status).toBe(403);
    expect((await api(gw.url, 'POST', '/connections/revoke', { secret: other.secret, body: { client_id: cimd.clientId } })).status).toBe(404);
    expect((await api(gw.url, 'POST', '/connections/revoke', { secret: other.secret, body: { client_id: cimd.clientId, handle: owner.handle } })).status).toBe(403);
    expect(await mcpStatus(mcpAgent, tokens.access_token)).toBe(200);

    // Bad input is a 422, not a 500.
    expect((await api(gw.url, 'POST', '/connections/revoke', { secret: owner.secret, body: {} })).status).toBe(422);

    const revoked = await api(gw.url, 'POST', '/connections/revoke', { secret: owner.secret, body: { client_id: cimd.clientId } });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ revoked: true, client_id: cimd.clientId });
    expect(await mcpStatus(mcpAgent, tokens.access_token)).toBe(401);
    const refreshed = await tokenRequest(`${gw.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: cimd.clientId, resource: mcpAgent });
    expect(refreshed.status).toBe(400);
    expect((await api(gw.url, 'GET', '/connections', { secret: owner.secret })).body.clients).toEqual([]);
  }, 60_000);

  it("ends the connections signed in with a secret when it is rotated (a leaked secret's holder may have made them)", async () => {
    const agent = await register(gw.url, 'conn-rotated');
    const ctx = await browser.newContext();
    const tokens = await obtainTokens(ctx, { gatewayUrl: gw.url, client: cimd, resource: mcpAgent }, agent, 'read');
    await ctx.close();
    expect(await mcpStatus(mcpAgent, tokens.access_token)).toBe(200);
    const r = await api(gw.url, 'POST', `/agents/${agent.handle}/secret`, { secret: agent.secret });
    expect(r.body.revoked).toEqual({ oauth_connections: 1, api_keys: 0 });
    expect(await mcpStatus(mcpAgent, tokens.access_token)).toBe(401);
    const refreshed = await tokenRequest(`${gw.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: cimd.clientId, resource: mcpAgent });
    expect(refreshed.status).toBe(400);
    expect((await api(gw.url, 'GET', '/connections', { secret: r.body.secret })).body.clients).toEqual([]);
  }, 60_000);

  it('ends an agent\'s tokens when the agent is deleted', async () => {
    const gone = await register(gw.url, 'conn-gone');
    const ctx = await browser.newContext();
    const tokens = await obtainTokens(ctx, { gatewayUrl: gw.url, client: cimd, resource: mcpAgent }, gone, 'read');
    await ctx.close();
    expect(await mcpStatus(mcpAgent, tokens.access_token)).toBe(200);
    const del = await api(gw.url, 'DELETE', `/agents/${gone.handle}`, { secret: gone.secret });
    expect(del.status).toBeLessThan(300);
    expect(await mcpStatus(mcpAgent, tokens.access_token)).toBe(401);
    expect(await gw.gateway.db.get('SELECT 1 FROM oauth_records WHERE account_id = (SELECT id FROM agents WHERE handle = ?)', [gone.handle])).toBeUndefined();
  }, 60_000);
});
