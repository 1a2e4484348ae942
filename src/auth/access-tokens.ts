// Resolves an OAuth access token to the agent and scopes it was granted, for one resource. Tokens are looked
// up by SHA-256 (the only form stored) on every use, uncached, so a revocation takes effect at once.
import { hashSecret } from './secrets.js';
import { parseScopes, type OAuthScope } from './oauth-scopes.js';
import type { AgentRef } from '../registry/call-types.js';
import type { Db } from '../store/db.js';
import { accessTokenWithAgent } from '../store/oauth.js';

export interface TokenGrant {
  agent: AgentRef;
  scopes: OAuthScope[];
  clientId: string;
}

export type TokenCheck = { ok: true; grant: TokenGrant } | { ok: false; reason: 'unknown' | 'wrong_resource' };

export class AccessTokens {
  constructor(
    private readonly db: Db,
    /** Wall-clock ms: the authorization server stamps expiries from the system clock. */
    private readonly now: () => number = Date.now,
  ) {}

  /** Checks a token presented to `resource`: it must exist, be unexpired and have that resource as audience. */
  async check(token: string, resource: string): Promise<TokenCheck> {
    if (token.length < 16 || token.length > 512) return { ok: false, reason: 'unknown' };
    const row = await accessTokenWithAgent(this.db, hashSecret(token), this.now());
    if (!row) return { ok: false, reason: 'unknown' };
    const p = JSON.parse(row.payload) as { aud?: string | string[]; scope?: string; clientId?: string };
    const aud = Array.isArray(p.aud) ? p.aud : p.aud === undefined ? [] : [p.aud];
    if (!aud.includes(resource)) return { ok: false, reason: 'wrong_resource' };
    return { ok: true, grant: { agent: { id: row.agent_id, handle: row.handle, suspended_at: row.suspended_at }, scopes: parseScopes(p.scope), clientId: p.clientId ?? '' } };
  }
}
