// /mcp/agent: the same MCP endpoint as /mcp (both eras), for hosts that sign in with OAuth. A request must
// carry an access token issued for this resource; without one it gets 401 with the challenge naming the
// protected resource metadata (RFC 9728), so the host starts the authorization flow. The token then rides
// in the call's credentials and the registry resolves it (and checks its scopes) like any credential.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerChallenge, PROTECTED_MCP_PATH, resourceUrl } from '../auth/oauth-resource.js';
import { DEFAULT_SCOPE } from '../auth/oauth-scopes.js';
import type { TokenCheck } from '../auth/access-tokens.js';
import { bearerOf } from '../http/credentials.js';
import type { OriginGuard } from '../http/origin-guard.js';
import type { Router } from '../http/router.js';
import { sendJson } from '../http/send.js';
import type { Credentials } from '../registry/types.js';
import { toolsetsOf } from './mount.js';

export interface SignedInDeps {
  baseUrl(): string;
  check(token: string, resource: string): Promise<TokenCheck>;
  /** Credentials of a request as /mcp reads them. */
  credentials(req: IncomingMessage): Credentials;
  /** Serves the request as /mcp does; the endpoint reads the credentials back with `signedInCredentials`. */
  serve(req: IncomingMessage, res: ServerResponse, toolsets: string[]): Promise<void>;
}

const signedIn = new WeakMap<IncomingMessage, Credentials>();

/** The token-bearing credentials of a /mcp/agent request (undefined for every other request). */
export const signedInCredentials = (req: IncomingMessage): Credentials | undefined => signedIn.get(req);

function refuse(res: ServerResponse, challenge: string, message: string): void {
  sendJson(res, 401, { jsonrpc: '2.0', error: { code: -32001, message }, id: null }, { 'WWW-Authenticate': challenge });
}

export function mountSignedInMcp(router: Router, guard: OriginGuard, deps: SignedInDeps): void {
  const handler = async (req: IncomingMessage, res: ServerResponse, _m: unknown, rawQuery: string): Promise<void> => {
    const refused = guard.check(req);
    if (refused) return sendJson(res, 403, { jsonrpc: '2.0', error: { code: -32000, message: refused }, id: null });
    const base = deps.baseUrl();
    const token = bearerOf(req);
    if (!token) return refuse(res, bearerChallenge(base, { scope: DEFAULT_SCOPE }), 'Sign in: this endpoint needs an OAuth access token (see WWW-Authenticate).');
    const resource = resourceUrl(base);
    const check = await deps.check(token, resource);
    if (!check.ok) {
      const why = check.reason === 'wrong_resource' ? 'The access token was issued for another resource.' : 'The access token is not valid (expired, revoked or unknown).';
      return refuse(res, bearerChallenge(base, { error: 'invalid_token', description: why }), why);
    }
    // The token replaces the Bearer secret: on this path a Bearer is always an access token.
    signedIn.set(req, { ...deps.credentials(req), bearer: undefined, accessToken: { token, resource, scopes: check.grant.scopes } });
    try {
      await deps.serve(req, res, toolsetsOf(new URLSearchParams(rawQuery), req));
    } catch {
      if (!res.headersSent) sendJson(res, 500, { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null });
      else res.destroy();
    }
  };
  for (const method of ['POST', 'GET', 'DELETE', 'PUT', 'PATCH']) router.add(method, PROTECTED_MCP_PATH, handler);
}
