// Agent secrets and API keys: 256-bit random, shown once, stored only as SHA-256 hashes (docs/decisions/foundation.md).
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'ags_';
/** API keys (billing/keys.ts). */
export const KEY_PREFIX = 'agk_live_';
/** Revenue keys of the commercial group at {api_url} (src/commerce/accounts.ts). */
export const REVENUE_KEY_PREFIX = 'agr_live_';
/** vault_login handles, short-lived stand-ins for an agent secret (tools/vault/login.ts). */
export const LOGIN_PREFIX = 'agl_';

export const newSecret = (prefix = SECRET_PREFIX): string => prefix + randomBytes(32).toString('base64url');

/** An agent secret or API key of this gateway anywhere in a text: a prefix and 43 base64url characters. */
const CREDENTIAL_IN_TEXT = new RegExp(`(?<![A-Za-z0-9_-])(?:${SECRET_PREFIX}|${KEY_PREFIX}|${REVENUE_KEY_PREFIX})[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])`);

/** Why text holding one is refused (posts, mail): published or sent, a credential is anyone's to use. */
export const CREDENTIAL_REFUSED = 'the text holds what looks like an agent secret or API key; it is not sent (rotate it if it was real)';

/** True when `text` holds something shaped like a credential this gateway issues. */
export const holdsCredential = (text: string): boolean => CREDENTIAL_IN_TEXT.test(text);

export const hashSecret = (secret: string): string => hash('sha256', secret, 'hex');

/** Constant-time comparison of two hex digests. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A short random id with a type prefix, e.g. `ag_3fj9…`; 96 bits, URL-safe. */
export const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('base64url')}`;
