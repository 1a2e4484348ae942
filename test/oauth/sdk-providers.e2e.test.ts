// The official MCP SDKs' own OAuth, driven as a host drives it (issue 41): each SDK gets an OAuthClientProvider
// that keeps what the SDK hands it in memory, redirects to a loopback callback, and whose
// `redirectToAuthorization` opens the URL in Chromium, where the agent signs in with handle and secret and allows.
// The SDK does the rest against /mcp/agent: the 401, protected resource and authorization server discovery,
// dynamic registration with the challenged scope ("read write"), PKCE, the code exchange (`finishAuth`), tool calls,
// a 403 insufficient_scope step-up to a wider scope (the vault: the first token already holds read and write), the
// refresh of an expired access token (rotation), and, after a revocation (RFC 7009), a new sign-in. A second agent
// signed in the same way never sees the first one's data. SDK v1 (1.32) refreshes instead of stepping up when it
// holds a refresh token (modelcontextprotocol/typescript-sdk#2255); its host then starts the step-up with auth().
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
  UnauthorizedError as UnauthorizedErrorV2,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider as ProviderV2,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { auth as authV1, extractWWWAuthenticateParams as challengeV1, UnauthorizedError as UnauthorizedErrorV1, type OAuthClientProvider as ProviderV1 } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser } from '../helpers/browser.js';
import { register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { signInAndAllow } from './oauth-client.js';

if (!hasChromium) console.warn('test/oauth/sdk-providers.e2e.test.ts skipped: no Chromium at /usr/bin/chromium (set CHROMIUM_PATH or apt-get install chromium)');

type Agent = { handle: string; secret: string };

/** The host's redirect endpoint on loopback: it keeps each callback's query, as a desktop host's listener does. */
class LoopbackCallback {
  redirectUri = '';
  private readonly received: URLSearchParams[] = [];
  private readonly waiting: ((q: URLSearchParams) => void)[] = [];
  private readonly server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (u.pathname !== '/callback') return void res.writeHead(404).end();
    const waiter = this.waiting.shift();
    if (waiter) waiter(u.searchParams);
    else this.received.push(u.searchParams);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>done</title><p>Signed in; back to the host.</p>');
  });

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.redirectUri = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/callback`;
    return this;
  }

  /** The next callback's query (one already received, or the next to arrive). */
  next(): Promise<URLSearchParams> {
    const q = this.received.shift();
    if (q) return Promise.resolve(q);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

/**
 * An OAuthClientProvider as a desktop host writes one, for both SDKs: everything the SDK saves is kept in memory
 * (client information, tokens, the PKCE verifier, discovery state), the redirect URI is the loopback callback,
 * and `redirectToAuthorization` opens the authorization URL in the browser, where the agent signs in and allows.
 */
class HostProvider implements ProviderV2, ProviderV1 {
  readonly authorizationUrls: URL[] = [];
  client: StoredOAuthClientInformation | undefined;
  tokenSet: StoredOAuthTokens | undefined;
  discovery: OAuthDiscoveryState | undefined;
  verifier: string | undefined;
  lastState: string | undefined;
  private browserStep: Promise<void> | undefined;

  constructor(
    private readonly callback: LoopbackCallback,
    private readonly browser: BrowserContext,
    private readonly agent: Agent,
    private readonly name: string,
  ) {}

  get redirectUrl(): string {
    return this.callback.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.callback.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.lastState = randomBytes(12).toString('hex');
    return this.lastState;
  }

  clientInformation(_ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    return this.client;
  }

  saveClientInformation(info: StoredOAuthClientInformation): void {
    this.client = info;
  }

  tokens(_ctx?: OAuthClientInformationContext): StoredOAuthTokens | undefined {
    return this.tokenSet;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.tokenSet = tokens;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'tokens') this.tokenSet = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrls.push(url);
    // The host opens the browser and returns; the sign-in goes on there until the callback arrives.
    this.browserStep = (async () => {
      const page = await this.browser.newPage();
      try {
        await signInAndAllow(page, url.toString(), this.agent, this.callback.redirectUri);
      } finally {
        await page.close();
      }
    })();
    this.browserStep.catch(() => undefined);
  }

  /** Waits for the sign-in started by the last redirect to come back to the callback; checks its state. */
  async signedIn(): Promise<URLSearchParams> {
    if (!this.browserStep) throw new Error('the SDK never asked for a sign-in');
    // The page has landed on the callback once the step is over, so the listener has its query by then.
    await this.browserStep;
    this.browserStep = undefined;
    const q = await this.callback.next();
    if (q.get('state') !== this.lastState) throw new Error(`state mismatch: ${q.toString()}`);
    if (!q.get('code')) throw new Error(`authorization failed: ${q.toString()}`);
    return q;
  }
}

/** What the host's fetch saw: every request the SDK made, to the MCP endpoint and to the authorization server. */
interface Seen {
  method: string;
  path: string;
  status: number;
  challenge: string | null;
  body: string | undefined;
}

function recordingFetch(log: Seen[]): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const res = await fetch(url, init);
    const body = typeof init?.body === 'string' ? init.body : init?.body instanceof URLSearchParams ? init.body.toString() : undefined;
    log.push({ method: init?.method ?? 'GET', path: new URL(String(url)).pathname, status: res.status, challenge: res.headers.get('www-authenticate'), body });
    return res;
  };
}

const form = (s: Seen): URLSearchParams => new URLSearchParams(s.body ?? '');
const sha256url = (s: string): string => createHash('sha256').update(s).digest('base64url');
const text = (r: unknown): string => JSON.stringify(r);

/** One MCP client of one SDK on one transport, with the provider the host gave it. */
interface Connection {
  connect(): Promise<void>;
  finishAuth(callback: URLSearchParams): Promise<void>;
  callTool(name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; structuredContent?: unknown; content?: unknown }>;
  listTools(): Promise<string[]>;
  close(): Promise<void>;
}

interface Sdk {
  name: 'v2' | 'v1';
  open(url: string, provider: HostProvider, fetchFn: ReturnType<typeof recordingFetch>): Connection;
  isUnauthorized(err: unknown): boolean;
}

/** Every tool listed (the URL is the OAuth resource, so the header chooses), to see what each scope allows. */
const EVERY_TOOL = { 'x-mcp-toolsets': 'all' };

const SDKS: Sdk[] = [
  {
    name: 'v2',
    open(url, provider, fetchFn) {
      const transport = new TransportV2(new URL(url), { authProvider: provider, fetch: fetchFn, requestInit: { headers: EVERY_TOOL } });
      const client = new ClientV2({ name: 'host-v2', version: '1' });
      return {
        connect: () => client.connect(transport),
        // The callback's query as it came: the SDK checks `iss` (RFC 9207) before it redeems the code.
        finishAuth: (q) => transport.finishAuth(q),
        callTool: (name, args) => client.callTool({ name, arguments: args }) as never,
        listTools: async () => (await client.listTools()).tools.map((t) => t.name),
        close: () => client.close(),
      };
    },
    isUnauthorized: (err) => err instanceof UnauthorizedErrorV2,
  },
  {
    name: 'v1',
    open(url, provider, fetchFn) {
      const transport = new TransportV1(new URL(url), { authProvider: provider, fetch: fetchFn, requestInit: { headers: EVERY_TOOL } });
      const client = new ClientV1({ name: 'host-v1', version: '1' });
      return {
        connect: () => client.connect(transport),
        finishAuth: (q) => transport.finishAuth(q.get('code')!),
        callTool: (name, args) => client.callTool({ name, arguments: args }) as never,
        listTools: async () => (await client.listTools()).tools.map((t) => t.name),
        close: () => client.close(),
      };
    },
    isUnauthorized: (err) => err instanceof UnauthorizedErrorV1,
  },
];

let gw: TestGateway;
let browser: Browser;
let mcpAgent: string;

beforeAll(async () => {
  if (!hasChromium) return;
  gw = await startGateway();
  browser = await launchBrowser();
  mcpAgent = `${gw.url}/mcp/agent`;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gw?.cleanup();
});

/** Rejects unless `p` fails with the SDK's UnauthorizedError (the host's cue to finish the sign-in). */
async function expectUnauthorized(sdk: Sdk, p: Promise<unknown>): Promise<void> {
  const err = await p.then(
    () => new Error('expected the SDK to ask for a sign-in'),
    (e: unknown) => e,
  );
  if (!sdk.isUnauthorized(err)) throw err;
}

for (const sdk of SDKS) {
  describe.skipIf(!hasChromium)(`SDK ${sdk.name}: its own OAuth provider against /mcp/agent, signed in in Chromium`, () => {
    let ctx: BrowserContext;
    let callback: LoopbackCallback;
    let provider: HostProvider;
    let agent: Agent;
    const seen: Seen[] = [];
    let conn: Connection;

    beforeAll(async () => {
      if (!hasChromium) return;
      ctx = await browser.newContext();
      callback = await new LoopbackCallback().start();
      agent = await register(gw.url, `sdk-${sdk.name}-alice`);
      provider = new HostProvider(callback, ctx, agent, `Host on SDK ${sdk.name}`);
    }, 60_000);

    afterAll(async () => {
      await conn?.close().catch(() => undefined);
      await ctx?.close();
      await callback?.close();
    });

    it('connects: 401, discovery, dynamic registration with the challenged scope, PKCE, sign-in and consent, then tools', async () => {
      // The first attempt: the SDK meets the 401, discovers, registers, and sends the browser to sign in.
      const first = sdk.open(mcpAgent, provider, recordingFetch(seen));
      await expectUnauthorized(sdk, first.connect());
      const calls = seen.map((s) => `${s.method} ${s.path} ${s.status}`);
      expect(calls[0]).toBe('POST /mcp/agent 401');
      expect(seen[0].challenge).toBe(`Bearer resource_metadata="${gw.url}/.well-known/oauth-protected-resource/mcp/agent", scope="read write"`);
      expect(calls).toContain('GET /.well-known/oauth-protected-resource/mcp/agent 200');
      expect(calls).toContain('GET /.well-known/oauth-authorization-server 200');
      // Registered by the SDK itself (no client was registered by hand), with the scope the challenge named.
      const registrations = seen.filter((s) => s.path === '/oauth/register');
      expect(registrations.map((s) => s.status)).toEqual([201]);
      expect(JSON.parse(registrations[0].body!)).toMatchObject({ scope: 'read write', redirect_uris: [callback.redirectUri], token_endpoint_auth_method: 'none' });
      expect(provider.client?.client_id).toBeTruthy();
      expect(URL.canParse(provider.client!.client_id)).toBe(false);
      const stored = await gw.gateway.db.all<{ payload: string }>(`SELECT payload FROM oauth_records WHERE kind = 'Client' AND client_id = ?`, [provider.client!.client_id]);
      expect(stored).toHaveLength(1);
      expect(JSON.parse(stored[0].payload)).toMatchObject({ scope: 'read write', redirect_uris: [callback.redirectUri] });
      expect(seen.some((s) => s.path === '/oauth/token')).toBe(false);

      // The authorization request: PKCE S256 over the verifier the SDK saved, the challenged scope, the resource.
      expect(provider.authorizationUrls).toHaveLength(1);
      const a = provider.authorizationUrls[0].searchParams;
      expect(`${provider.authorizationUrls[0].origin}${provider.authorizationUrls[0].pathname}`).toBe(`${gw.url}/oauth/authorize`);
      expect(Object.fromEntries(a)).toMatchObject({
        response_type: 'code',
        client_id: provider.client!.client_id,
        redirect_uri: callback.redirectUri,
        code_challenge_method: 'S256',
        code_challenge: sha256url(provider.verifier!),
        scope: 'read write',
        resource: mcpAgent,
        state: provider.lastState,
      });

      // The browser comes back to the loopback callback with the code and the issuer; the SDK redeems the code.
      const q = await provider.signedIn();
      expect(q.get('iss')).toBe(gw.url);
      await first.finishAuth(q);
      const exchange = seen.filter((s) => s.path === '/oauth/token');
      expect(exchange.map((s) => s.status)).toEqual([200]);
      expect(Object.fromEntries(form(exchange[0]))).toMatchObject({ grant_type: 'authorization_code', code: q.get('code'), code_verifier: provider.verifier, client_id: provider.client!.client_id, resource: mcpAgent });
      expect(provider.tokenSet).toMatchObject({ token_type: 'Bearer', scope: 'read write' });
      expect(provider.tokenSet!.refresh_token).toBeTruthy();
      await first.close();

      // Connected again, the host calls tools as the agent.
      conn = sdk.open(mcpAgent, provider, recordingFetch(seen));
      await conn.connect();
      expect(text(await conn.callTool('whoami', {}))).toContain(agent.handle);
      expect((await conn.callTool('memory_put', { namespace: 'notes', key: 'k', value: `from SDK ${sdk.name}` })).isError).toBeFalsy();
      const got = await conn.callTool('memory_get', { namespace: 'notes', key: 'k' });
      expect(got.isError).toBeFalsy();
      expect(text(got)).toContain(`from SDK ${sdk.name}`);
      const tools = await conn.listTools();
      expect(tools).toContain('memory_put');
      expect(tools).not.toContain('vault_list');
      expect(provider.authorizationUrls).toHaveLength(1);
    }, 90_000);

    it('steps up on HTTP 403 insufficient_scope: a new sign-in for the wider scope, then the call goes through', async () => {
      const before = provider.tokenSet!;
      const from = seen.length;
      const err = await conn.callTool('vault_list', {}).then(
        () => null,
        (e: unknown) => e,
      );
      const refused = seen.slice(from).find((s) => s.status === 403)!;
      expect(refused.challenge).toBe(`Bearer resource_metadata="${gw.url}/.well-known/oauth-protected-resource/mcp/agent", scope="read write vault", error="insufficient_scope"`);
      if (sdk.name === 'v2') {
        // SEP-2350: the scope asked for is what was held plus what the call needs, and since a refresh cannot widen a
        // grant (RFC 6749 §6) the SDK goes straight to a new authorization.
        expect(sdk.isUnauthorized(err)).toBe(true);
        expect(seen.slice(from).some((s) => s.path === '/oauth/token')).toBe(false);
      } else {
        // SDK v1 (1.32) refreshes instead, gets the same scope back, meets the same 403 and gives up without asking
        // anyone (modelcontextprotocol/typescript-sdk#2255, fixed in v2 by #2356). The host then starts the sign-in
        // for the challenged scope itself, through the SDK's own auth() and the same provider.
        expect(err).toBeInstanceOf(StreamableHTTPError);
        expect((err as StreamableHTTPError).code).toBe(403);
        expect(seen.slice(from).filter((s) => s.path === '/oauth/token').map((s) => form(s).get('grant_type'))).toEqual(['refresh_token']);
        expect(provider.authorizationUrls).toHaveLength(1);
        const challenge = challengeV1(new Response(null, { headers: { 'www-authenticate': refused.challenge! } }));
        provider.invalidateCredentials('tokens');
        expect(await authV1(provider, { serverUrl: mcpAgent, scope: challenge.scope, resourceMetadataUrl: challenge.resourceMetadataUrl, fetchFn: recordingFetch(seen) })).toBe('REDIRECT');
      }
      // The browser is still signed in: the agent is asked only to allow the wider scope.
      expect(provider.authorizationUrls).toHaveLength(2);
      expect(provider.authorizationUrls[1].searchParams.get('scope')).toBe('read write vault');
      expect(provider.authorizationUrls[1].searchParams.get('client_id')).toBe(provider.client!.client_id);
      await conn.finishAuth(await provider.signedIn());
      expect(provider.tokenSet!.scope).toBe('read write vault');
      expect(provider.tokenSet!.access_token).not.toBe(before.access_token);

      const listed = await conn.callTool('vault_list', {});
      expect(listed.isError, text(listed)).toBeFalsy();
      // The wider token lost nothing, and the tool list now shows the vault.
      expect(text(await conn.callTool('memory_get', { namespace: 'notes', key: 'k' }))).toContain(`from SDK ${sdk.name}`);
      expect(await conn.listTools()).toContain('vault_list');
      expect(seen.filter((s) => s.path === '/oauth/register')).toHaveLength(1);
    }, 90_000);

    it('refreshes an expired access token by itself, rotating the refresh token, with no new sign-in', async () => {
      const before = provider.tokenSet!;
      const redirects = provider.authorizationUrls.length;
      const from = seen.length;
      // The access token runs out (they last 15 minutes; the refresh token 30 days): its stored expiry, which is all
      // /mcp/agent goes by, is moved into the past.
      const row = { kind: 'AccessToken', id: createHash('sha256').update(before.access_token).digest('hex') };
      const stamped = await gw.gateway.db.get<{ expires_at: number }>('SELECT expires_at FROM oauth_records WHERE kind = ? AND id_hash = ?', [row.kind, row.id]);
      expect(stamped!.expires_at - Date.now()).toBeGreaterThan(0);
      expect(stamped!.expires_at - Date.now()).toBeLessThanOrEqual(15 * 60_000);
      await gw.gateway.db.run('UPDATE oauth_records SET expires_at = ? WHERE kind = ? AND id_hash = ?', [Date.now() - 1000, row.kind, row.id]);

      const got = await conn.callTool('memory_get', { namespace: 'notes', key: 'k' });
      expect(got.isError, text(got)).toBeFalsy();
      expect(text(got)).toContain(`from SDK ${sdk.name}`);
      const after = seen.slice(from);
      const expired = after.find((s) => s.status === 401)!;
      expect(expired.challenge).toContain('error="invalid_token"');
      const refresh = after.filter((s) => s.path === '/oauth/token');
      expect(refresh.map((s) => [form(s).get('grant_type'), s.status])).toEqual([['refresh_token', 200]]);
      expect(Object.fromEntries(form(refresh[0]))).toMatchObject({ refresh_token: before.refresh_token, client_id: provider.client!.client_id, resource: mcpAgent });
      // New tokens, same scope; the refresh token was rotated and the used one is spent.
      expect(provider.authorizationUrls).toHaveLength(redirects);
      expect(provider.tokenSet!.access_token).not.toBe(before.access_token);
      expect(provider.tokenSet!.refresh_token).toBeTruthy();
      expect(provider.tokenSet!.refresh_token).not.toBe(before.refresh_token);
      expect(provider.tokenSet!.scope).toBe('read write vault');
      const spent = await gw.gateway.db.get<{ payload: string }>(`SELECT payload FROM oauth_records WHERE kind = 'RefreshToken' AND id_hash = ?`, [createHash('sha256').update(before.refresh_token!).digest('hex')]);
      expect(JSON.parse(spent!.payload).consumed).toBeTruthy();
      expect((await conn.callTool('vault_list', {})).isError).toBeFalsy();
    }, 60_000);

    it('after a revocation (RFC 7009) the next call is 401 and the SDK asks for a sign-in again; after it, calls work', async () => {
      const revoked = provider.tokenSet!;
      const redirects = provider.authorizationUrls.length;
      // The endpoint from the metadata the SDK discovered and the host kept.
      const meta = provider.discovery!.authorizationServerMetadata as { revocation_endpoint?: string };
      expect(meta.revocation_endpoint).toBe(`${gw.url}/oauth/revoke`);
      // The host disconnects: it revokes its refresh token, which ends the grant and its access tokens.
      const r = await fetch(meta.revocation_endpoint!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: revoked.refresh_token!, token_type_hint: 'refresh_token', client_id: provider.client!.client_id }),
      });
      expect(r.status).toBe(200);

      const from = seen.length;
      await expectUnauthorized(sdk, conn.callTool('memory_get', { namespace: 'notes', key: 'k' }));
      const after = seen.slice(from);
      expect(after[0]).toMatchObject({ path: '/mcp/agent', status: 401 });
      expect(after[0].challenge).toContain('error="invalid_token"');
      // The SDK tried its refresh token first; refused, it dropped its tokens and sent the browser to sign in.
      expect(after.filter((s) => s.path === '/oauth/token').map((s) => [form(s).get('grant_type'), s.status])).toEqual([['refresh_token', 400]]);
      expect(provider.authorizationUrls).toHaveLength(redirects + 1);
      const again = provider.authorizationUrls.at(-1)!.searchParams;
      expect(again.get('client_id')).toBe(provider.client!.client_id);
      expect(again.get('resource')).toBe(mcpAgent);
      // For the scope the 401 named (the default), not every scope the metadata lists: the vault comes back by step-up.
      expect(after[0].challenge).toContain('scope="read write"');
      expect(again.get('scope')).toBe('read write');

      await conn.finishAuth(await provider.signedIn());
      expect(provider.tokenSet!.access_token).not.toBe(revoked.access_token);
      expect(text(await conn.callTool('memory_get', { namespace: 'notes', key: 'k' }))).toContain(`from SDK ${sdk.name}`);
      expect(seen.filter((s) => s.path === '/oauth/register')).toHaveLength(1);
    }, 90_000);

    it("a second agent signed in through the same SDK never sees the first agent's memory", async () => {
      const otherCtx = await browser.newContext();
      const otherCallback = await new LoopbackCallback().start();
      const bob = await register(gw.url, `sdk-${sdk.name}-bob`);
      const bobs = new HostProvider(otherCallback, otherCtx, bob, `Host on SDK ${sdk.name}`);
      const bobSeen: Seen[] = [];
      const first = sdk.open(mcpAgent, bobs, recordingFetch(bobSeen));
      await expectUnauthorized(sdk, first.connect());
      await first.finishAuth(await bobs.signedIn());
      await first.close();
      const other = sdk.open(mcpAgent, bobs, recordingFetch(bobSeen));
      try {
        await other.connect();
        expect(bobs.client!.client_id).not.toBe(provider.client!.client_id);
        expect(text(await other.callTool('whoami', {}))).toContain(bob.handle);
        const peek = await other.callTool('memory_get', { namespace: 'notes', key: 'k' });
        expect(text(peek)).not.toContain(`from SDK ${sdk.name}`);
        expect(text(peek)).toContain('not_found');
        expect((await other.callTool('memory_put', { namespace: 'notes', key: 'k', value: 'bob was here' })).isError).toBeFalsy();
        expect(text(await other.callTool('memory_get', { namespace: 'notes', key: 'k' }))).toContain('bob was here');
        // The first agent's value is untouched.
        const mine = text(await conn.callTool('memory_get', { namespace: 'notes', key: 'k' }));
        expect(mine).toContain(`from SDK ${sdk.name}`);
        expect(mine).not.toContain('bob was here');
      } finally {
        await other.close();
        await otherCtx.close();
        await otherCallback.close();
      }
    }, 90_000);
  });
}
