// The gateway's own OAuth 2.1 authorization server, built on oidc-provider (docs/decisions/oauth.md): the
// authorization code flow with PKCE S256 only, the `iss` response parameter, Client ID Metadata Documents,
// dynamic registration for older clients, rotating refresh tokens whose reuse revokes the grant, revocation,
// and access tokens bound to the one resource (/mcp/agent) by RFC 8707. Loaded on the first OAuth request.
import type { JWK } from 'jose';
import type { Configuration, Provider } from 'oidc-provider';
import { randomBytes } from 'node:crypto';
import { issuerUrl, resourceUrl } from '../../auth/oauth-resource.js';
import { DEFAULT_SCOPE, OAUTH_SCOPES } from '../../auth/oauth-scopes.js';
import type { Config } from '../../config.js';
import type { Egress } from '../../egress/egress.js';
import type { Db } from '../../store/db.js';
import { agentById } from '../../store/oauth.js';
import { getOrCreateSetting } from '../../store/settings.js';
import { egressFetch, isLoopbackClientId, LoopbackClientDocuments } from './client-documents.js';
import { RecordAdapter } from './record-adapter.js';
import { OAUTH_ROUTES } from './routes.js';


/** A redirect URI a client may register: HTTPS, or HTTP on a loopback host. */
export function acceptableRedirect(uri: string): boolean {
  const u = URL.parse(uri);
  if (!u) return false;
  if (u.protocol === 'https:') return true;
  return u.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
}

/** A client's scope with every scope of the resource added (its other scopes, openid and offline_access, as they were). */
export function withResourceScopes(scope: string): string {
  return [...new Set([...scope.split(' ').filter(Boolean), ...OAUTH_SCOPES])].join(' ');
}

export const interactionPath = (uid: string): string => `/oauth/interaction/${uid}`;

/** Seconds. Access tokens are short-lived; a refresh token lasts while the client keeps using it. */
export const TTL = { AccessToken: 15 * 60, AuthorizationCode: 60, RefreshToken: 30 * 86_400, Grant: 90 * 86_400, Interaction: 30 * 60, Session: 86_400 } as const;

export interface ProviderDeps {
  db: Db;
  config: Config;
  egress: Egress;
  /** Renders an error of the authorization endpoint as the sign-in page's HTML. */
  renderError(title: string, message: string): string;
}

/** Keys kept in the database so every gateway process on it signs cookies and tokens alike. */
async function keys(db: Db): Promise<{ cookie: string; jwk: JWK }> {
  // jose with the first OAuth request, like oidc-provider, not at start-up.
  const { exportJWK, generateKeyPair } = await import('jose');
  const cookie = await getOrCreateSetting(db, 'oauth_cookie_key', () => randomBytes(32).toString('base64url'));
  const made = JSON.stringify(await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey));
  const jwk = JSON.parse(await getOrCreateSetting(db, 'oauth_signing_jwk', () => made)) as JWK;
  return { cookie, jwk: { ...jwk, alg: 'ES256', use: 'sig' } };
}

/** A code, refresh token or pushed request used a second time: the error oidc-provider gives one it reads as used. */
export const reusedError =
  (errors: typeof import('oidc-provider').errors) =>
  (kind: string): Error =>
    kind === 'PushedAuthorizationRequest'
      ? new errors.InvalidRequestUri('request_uri is invalid, expired, or was already used')
      : new errors.InvalidGrant(`${kind === 'RefreshToken' ? 'refresh token' : 'authorization code'} already used`);

export async function createProvider(deps: ProviderDeps): Promise<{ provider: Provider; cookieKey: string }> {
  const { db, config, egress } = deps;
  const { default: ProviderClass, errors } = await import('oidc-provider');
  const { cookie, jwk } = await keys(db);
  const resource = resourceUrl(config.baseUrl);
  const loopback = new LoopbackClientDocuments(egress);

  const reused = reusedError(errors);

  class ClientAdapter extends RecordAdapter {
    override async find(id: string) {
      return isLoopbackClientId(id) ? loopback.find(id) : super.find(id);
    }
  }

  const configuration: Configuration = {
    adapter: (name: string) => (name === 'Client' ? new ClientAdapter(db, name, reused) : new RecordAdapter(db, name, reused)),
    clients: [],
    clientAuthMethods: ['none'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    responseTypes: ['code'],
    // Redirect URIs must be loopback or HTTPS (MCP 2026-07-28, security considerations): checked for every client,
    // registered or described by a metadata document.
    // A client's `scope` does not limit which of the resource's scopes it may ask for later: the SDKs register with
    // the scope of the first 401 challenge, and a step-up (a 403 insufficient_scope) asks for more, which the agent
    // allows or not on the consent page. So a client loaded for use may ask for any of them; while it registers, its
    // `scope` stays as it gave it (the response and the stored registration show what it asked for).
    extraClientMetadata: {
      properties: ['redirect_uris', 'scope'],
      validator: (ctx, key, value, metadata) => {
        if (key === 'scope') {
          if (typeof value === 'string' && (ctx as { oidc?: { route?: string } } | undefined)?.oidc?.route !== 'registration') metadata.scope = withResourceScopes(value);
          return;
        }
        if (key !== 'redirect_uris' || !Array.isArray(value)) return;
        const bad = (value as unknown[]).find((uri) => !acceptableRedirect(String(uri)));
        if (bad === undefined) return;
        const err = new errors.InvalidRedirectUri();
        err.error_description = `redirect_uris must be https URLs or http URLs on a loopback host (localhost, 127.0.0.1, [::1]); ${String(bad)} is neither`;
        throw err;
      },
    },
    // The resource's scopes are also the server's own, so that dynamic registration takes a client that names the
    // scope the 401 challenge gave it (`scope: "read write"`), as both MCP SDKs register.
    scopes: ['openid', 'offline_access', ...OAUTH_SCOPES],
    pkce: { required: () => true },
    cookies: { keys: [cookie], long: { signed: true, httpOnly: true, sameSite: 'lax' }, short: { signed: true, httpOnly: true, sameSite: 'lax' } },
    jwks: { keys: [jwk] },
    routes: OAUTH_ROUTES,
    ttl: { ...TTL },
    discovery: { service_documentation: `${issuerUrl(config.baseUrl)}/connect` },
    fetch: egressFetch(egress) as Configuration['fetch'],
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      introspection: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      revocation: { enabled: true },
      registration: { enabled: true },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets a token for the one resource there is.
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget('This authorization server issues tokens only for ' + resource);
          return { scope: OAUTH_SCOPES.join(' '), audience: resource, accessTokenTTL: TTL.AccessToken, accessTokenFormat: 'opaque' };
        },
      },
    },
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },
    findAccount: async (_ctx, id) => ((await agentById(db, id)) ? { accountId: id, claims: () => ({ sub: id }) } : undefined),
    // Refresh tokens for every client allowed the grant (no offline_access scope needed), rotated on each use.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = deps.renderError('Sign-in failed', typeof out.error_description === 'string' ? out.error_description : String(out.error));
    },
  };

  const provider = new ProviderClass(issuerUrl(config.baseUrl), configuration);
  // Koa's ctx.ip (oidc-provider's device info) then names the same client as clientIp does.
  provider.proxy = config.trustProxy > 0;
  provider.maxIpsCount = config.trustProxy;
  // A client that names no scope is asked for the default one, so its token is not empty.
  provider.use(async (ctx, next) => {
    if (ctx.path === OAUTH_ROUTES.authorization && ctx.method === 'GET' && !ctx.query.scope) ctx.query = { ...ctx.query, scope: DEFAULT_SCOPE };
    await next();
    // The resource's scopes are not OpenID scopes, so oidc-provider does not list them itself.
    if (ctx.path.startsWith('/.well-known/') && ctx.status === 200 && ctx.body && typeof ctx.body === 'object') {
      (ctx.body as Record<string, unknown>).scopes_supported = [...OAUTH_SCOPES];
    }
  });
  return { provider, cookieKey: cookie };
}
