// Puts the authorization server and the protected resource's metadata on the router. oidc-provider (and Koa
// under it) loads with the first OAuth request; its routes are listed here one by one, so the router keeps
// answering 404 and 405 for everything else.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Provider } from 'oidc-provider';
import { PROTECTED_MCP_PATH, protectedResourceMetadata, RESOURCE_METADATA_PATH } from '../../auth/oauth-resource.js';
import type { Config } from '../../config.js';
import type { Egress } from '../../egress/egress.js';
import type { Registry } from '../../registry/registry.js';
import type { Db } from '../../store/db.js';
import { purgeExpired } from '../../store/oauth.js';
import { takeAnonymousCreate } from '../../anonymous-creates.js';
import { systemClock } from '../../clock.js';
import { GatewayError } from '../../errors.js';
import { clientIp } from '../credentials.js';
import type { Router } from '../router.js';
import { sendJson } from '../send.js';
import { mountInteractions } from './interactions.js';
import { errorPage } from './pages.js';
import { OAUTH_ROUTES } from './routes.js';

export interface OAuthDeps {
  config: Config;
  db: Db;
  egress: Egress;
  registry: Registry;
}

const PURGE_MS = 60 * 60_000;

export function mountOAuth(router: Router, deps: OAuthDeps): { close(): void } {
  let loading: Promise<{ provider: Provider; cookieKey: string; callback: (req: IncomingMessage, res: ServerResponse) => unknown }> | undefined;
  let purge: NodeJS.Timeout | undefined;
  const load = () =>
    // The provider (and jose under it) loads with the first OAuth request, like oidc-provider itself.
    (loading ??= import('./provider.js').then(({ createProvider }) => createProvider({ ...deps, renderError: errorPage })).then((p) => {
      purge = setInterval(() => void purgeExpired(deps.db, Date.now()).catch(() => undefined), PURGE_MS);
      purge.unref();
      return { ...p, callback: p.provider.callback() };
    }));
  const pass = async (req: IncomingMessage, res: ServerResponse) => {
    await (await load()).callback(req, res);
  };

  /** Anyone may register a client: so many an hour per client address (src/anonymous-creates.ts). */
  const limits = { db: deps.db, clock: systemClock, perHour: deps.config.anonymousCreatesPerHour, maxKeys: deps.config.caches.rateWindowKeys };
  const register = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      await takeAnonymousCreate(limits, 'oauth-clients', deps.registry.services.clientKey(clientIp(req, deps.config.trustProxy)), 'Client registrations');
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
      // Read cross-origin by browser-based clients, as oidc-provider's own answers are.
      res.setHeader('Access-Control-Allow-Origin', '*');
      return sendJson(res, 429, { error: 'rate_limited', error_description: err.message });
    }
    await pass(req, res);
  };

  const R = OAUTH_ROUTES;
  const routes: [string, string][] = [
    ['GET', '/.well-known/oauth-authorization-server'],
    ['GET', '/.well-known/openid-configuration'],
    ['GET', R.authorization],
    ['POST', R.authorization],
    ['GET', `${R.authorization}/{uid}`],
    ['POST', R.token],
    ['POST', R.registration],
    ['POST', R.revocation],
    ['POST', R.pushed_authorization_request],
    ['GET', R.jwks],
  ];
  for (const [method, path] of routes) router.add(method, path, path === R.registration ? register : pass);
  // Browser-based clients read the metadata and call the token, registration and revocation endpoints cross-origin.
  for (const path of ['/.well-known/oauth-authorization-server', R.token, R.registration, R.revocation]) router.add('OPTIONS', path, pass);

  const metadata = (_req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    sendJson(res, 200, protectedResourceMetadata(deps.config.baseUrl));
  };
  router.add('GET', RESOURCE_METADATA_PATH, metadata);
  router.add('GET', RESOURCE_METADATA_PATH + PROTECTED_MCP_PATH, metadata);

  mountInteractions(router, { load, registry: deps.registry, db: deps.db, config: deps.config });
  return { close: () => clearInterval(purge) };
}
