// A secret or key in the URL is refused (400): URLs end up in logs, proxies and browser history.
import { LOGIN_PREFIX, SECRET_PREFIX } from '../auth/secrets.js';

const SECRET_NAMES = new Set([
  'secret', 'agent_secret', 'api_key', 'apikey', 'x-api-key', 'token', 'access_token', 'auth', 'authorization',
  'password', 'bearer', 'payment-signature', 'x-payment', 'revenue_key', 'x-revenue-key', 'operator_token',
  'x-operator-token', 'client_secret', 'refresh_token',
]);
/** Value prefixes of credentials this gateway issues (every `agk_` key, not only `KEY_PREFIX`'s live ones: a URL is refused on the family). */
export const CREDENTIAL_PREFIXES = [SECRET_PREFIX, 'agk_', 'agr_', LOGIN_PREFIX];

/** Name of the offending query parameter, or null when the query string carries no credential. */
export function secretInQuery(rawQuery: string): string | null {
  if (!rawQuery) return null;
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    if (SECRET_NAMES.has(name.toLowerCase())) return name;
    if (CREDENTIAL_PREFIXES.some((p) => value.startsWith(p))) return name;
  }
  return null;
}
