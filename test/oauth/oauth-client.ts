// What an OAuth client of the gateway does, for the OAuth tests: a client metadata document and a redirect
// endpoint served on loopback, PKCE, the authorization request driven in Chromium, and the token endpoint.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';

export interface LoopbackClient {
  base: string;
  /** The client_id: the URL of its metadata document. */
  clientId: string;
  redirectUri: string;
  close(): Promise<void>;
}

/** Serves `/client.json` (its own id) and `/callback` on 127.0.0.1. */
export async function startLoopbackClient(name = 'Test Connector'): Promise<LoopbackClient> {
  let base = '';
  const server = http.createServer((req, res) => {
    if (req.url === '/client.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          client_id: `${base}/client.json`,
          client_name: name,
          client_uri: `${base}/`,
          redirect_uris: [`${base}/callback`],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>done</title><p>Back in the client.</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    clientId: `${base}/client.json`,
    redirectUri: `${base}/callback`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizeRequest {
  authorizationEndpoint: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  resource: string;
  challenge: string;
  state: string;
}

export function authorizeUrl(a: AuthorizeRequest): string {
  const u = new URL(a.authorizationEndpoint);
  u.search = new URLSearchParams({
    response_type: 'code',
    client_id: a.clientId,
    redirect_uri: a.redirectUri,
    scope: a.scope,
    resource: a.resource,
    state: a.state,
    code_challenge: a.challenge,
    code_challenge_method: 'S256',
  }).toString();
  return u.toString();
}

/**
 * Signs in on the gateway's page with handle and secret and allows, each only when asked (a browser already
 * signed in to a client it allowed goes straight back); resolves with the redirect's query.
 */
export async function signInAndAllow(page: Page, url: string, agent: { handle: string; secret: string }, redirectUri: string): Promise<URLSearchParams> {
  const back = () => page.url().startsWith(redirectUri);
  const redirected = page.waitForURL((u) => u.toString().startsWith(redirectUri), { timeout: 20_000 });
  await page.goto(url);
  if (!back() && (await page.locator('input[name=secret]').count())) {
    await page.fill('form[action$="/login"] input[name=handle]', agent.handle);
    await page.fill('form[action$="/login"] input[name=secret]', agent.secret);
    await page.click('form[action$="/login"] button[type=submit]');
    await Promise.race([page.waitForSelector('button[value=approve]', { timeout: 20_000 }), redirected]);
  }
  if (!back()) await page.click('button[value=approve]');
  await redirected;
  return new URL(page.url()).searchParams;
}

export async function tokenRequest(tokenEndpoint: string, params: Record<string, string>): Promise<{ status: number; body: any }> {
  const r = await fetch(tokenEndpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params) });
  return { status: r.status, body: await r.json() };
}

export interface Flow {
  gatewayUrl: string;
  client: { clientId: string; redirectUri: string };
  resource: string;
}

/** One whole authorization: PKCE, the browser step, the code exchanged for tokens. */
export async function obtainTokens(ctx: BrowserContext, f: Flow, agent: { handle: string; secret: string }, scope: string): Promise<any> {
  const { verifier, challenge } = pkce();
  const state = randomBytes(8).toString('hex');
  const page = await ctx.newPage();
  try {
    const q = await signInAndAllow(
      page,
      authorizeUrl({ authorizationEndpoint: `${f.gatewayUrl}/oauth/authorize`, clientId: f.client.clientId, redirectUri: f.client.redirectUri, scope, resource: f.resource, challenge, state }),
      agent,
      f.client.redirectUri,
    );
    if (q.get('state') !== state || !q.get('code')) throw new Error(`authorization failed: ${q.toString()}`);
    const t = await tokenRequest(`${f.gatewayUrl}/oauth/token`, {
      grant_type: 'authorization_code',
      code: q.get('code')!,
      redirect_uri: f.client.redirectUri,
      client_id: f.client.clientId,
      code_verifier: verifier,
      resource: f.resource,
    });
    if (t.status !== 200) throw new Error(`token: ${t.status} ${JSON.stringify(t.body)}`);
    return t.body;
  } finally {
    await page.close();
  }
}
