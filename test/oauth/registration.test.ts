// Dynamic client registration (RFC 7591) as the MCP SDKs do it (issue 41): they register with the scope the 401
// challenge names, which must be accepted; and a redirect URI must be HTTPS or a loopback HTTP URL (MCP 2026-07-28,
// security considerations), so a registration naming any other is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptableRedirect } from '../../src/http/oauth/provider.js';
import { RecordAdapter, UNUSED_CLIENT_MS } from '../../src/http/oauth/record-adapter.js';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

const registration = (o: Record<string, unknown>) => ({
  client_name: 'SDK client',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  ...o,
});
const reg = (o: Record<string, unknown>) => api(gw.url, 'POST', '/oauth/register', { body: registration(o) });

describe('dynamic client registration', () => {
  it('takes the scope the 401 challenge names, and every scope the server lists', async () => {
    const challenge = (await api(gw.url, 'POST', '/mcp/agent', { body: {} })).headers.get('www-authenticate') ?? '';
    const scope = /scope="([^"]+)"/.exec(challenge)?.[1];
    expect(scope).toBe('read write');
    const r = await reg({ redirect_uris: ['http://127.0.0.1:33418/callback'], scope });
    expect(r.status).toBe(201);
    expect(r.body.scope).toBe('read write');
    const all = await reg({ redirect_uris: ['https://app.example/cb'], scope: 'read write vault pay' });
    expect(all.status).toBe(201);
    const unknown = await reg({ redirect_uris: ['https://app.example/cb'], scope: 'read admin' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('invalid_client_metadata');
  });

  it("lets a client ask later for more of the resource's scopes than it registered with (step-up), nothing else", async () => {
    const redirect = 'http://127.0.0.1:33418/callback';
    const r = await reg({ redirect_uris: [redirect], scope: 'read write' });
    expect(r.status).toBe(201);
    expect(r.body.scope).toBe('read write');
    const authorize = (scope: string) =>
      fetch(
        `${gw.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: r.body.client_id, redirect_uri: redirect, scope, state: 's', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' })}`,
        { redirect: 'manual' },
      );
    // A 403 insufficient_scope asks the SDK to sign in for "read write vault": that goes on to sign-in and consent.
    const wider = await authorize('read write vault pay');
    expect(wider.status).toBe(303);
    expect(new URL(wider.headers.get('location')!, gw.url).pathname).toMatch(/^\/oauth\/interaction\//);
    // The registered scope still bounds the server's other scopes.
    const oidc = await authorize('read openid');
    const back = new URL(oidc.headers.get('location')!, gw.url);
    expect(`${back.origin}${back.pathname}`).toBe(redirect);
    expect(back.searchParams.get('error')).toBe('invalid_scope');
  });

  it('refuses redirect URIs that are neither HTTPS nor loopback HTTP', async () => {
    for (const uri of ['http://127.0.0.1:9/cb', 'http://localhost/cb', 'http://[::1]:8080/cb', 'https://claude.ai/api/mcp/auth_callback']) {
      expect((await reg({ redirect_uris: [uri] })).status, uri).toBe(201);
    }
    for (const uri of ['http://evil.example/cb', 'http://10.0.0.5/cb', 'ftp://files.example/cb', 'myapp://callback']) {
      const r = await reg({ redirect_uris: ['https://ok.example/cb', uri] });
      expect(r.status, uri).toBe(400);
      expect(r.body.error).toBe('invalid_redirect_uri');
      expect(r.body.error_description).toContain(uri);
    }
  });

  it('decides what is a loopback or HTTPS URL by the parsed URL, not its text', () => {
    expect(acceptableRedirect('http://localhost.evil.example/cb')).toBe(false);
    expect(acceptableRedirect('http://127.0.0.1.nip.io/cb')).toBe(false);
    expect(acceptableRedirect('HTTPS://App.Example/cb')).toBe(true);
    expect(acceptableRedirect('not a url')).toBe(false);
  });

  it('keeps an unused client a month, and a client an agent granted access to while the grant lives and a month after', async () => {
    const r = await reg({ redirect_uris: ['http://127.0.0.1:9/cb'] });
    expect(r.status).toBe(201);
    const expiry = async (kind: string) =>
      Number((await gw.gateway.db.get<{ expires_at: number }>('SELECT expires_at FROM oauth_records WHERE kind = ? AND client_id = ?', [kind, r.body.client_id]))!.expires_at);
    const monthAway = Date.now() + UNUSED_CLIENT_MS;
    for (const kind of ['Client', 'RegistrationAccessToken']) {
      expect(await expiry(kind), kind).toBeGreaterThan(monthAway - 60_000);
      expect(await expiry(kind), kind).toBeLessThanOrEqual(monthAway);
    }
    // A grant of 90 days (as consent stores it) carries the client to the grant's end and a month more.
    const grantTtl = 90 * 86_400;
    await new RecordAdapter(gw.gateway.db, 'Grant', () => new Error('reused')).upsert('grant-for-expiry', { jti: 'grant-for-expiry', clientId: r.body.client_id, accountId: 'nobody', kind: 'Grant' } as never, grantTtl);
    expect(await expiry('Client')).toBeGreaterThan(Date.now() + grantTtl * 1000 + UNUSED_CLIENT_MS - 60_000);
    // Its registration access token serves no route (registration management is off): it keeps its month.
    expect(await expiry('RegistrationAccessToken')).toBeLessThanOrEqual(monthAway);
  });
});

describe(`client registrations without credentials (GATEWAY_ANONYMOUS_CREATES_PER_HOUR)`, () => {
  let limited: TestGateway;
  beforeAll(async () => {
    limited = await startGateway({ env: { GATEWAY_ANONYMOUS_CREATES_PER_HOUR: '2' } });
  });
  afterAll(async () => limited?.cleanup());

  it('takes so many an hour per client address, then answers 429 with Retry-After and stores nothing', async () => {
    const clients = async () => Number((await limited.gateway.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM oauth_records WHERE kind = 'Client'"))!.n);
    const one = () => api(limited.url, 'POST', '/oauth/register', { body: registration({ redirect_uris: ['http://127.0.0.1:9/cb'] }) });
    expect((await one()).status).toBe(201);
    expect((await one()).status).toBe(201);
    const refused = await one();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.body).toMatchObject({ error: 'rate_limited', error_description: expect.stringContaining('Client registrations without credentials are limited to 2 an hour') });
    expect(await clients()).toBe(2);
  });
});
