// Who may read the authenticated extended card (v0.3 agent/getAuthenticatedExtendedCard, v1.0
// GetExtendedAgentCard). The spec makes the operation require authentication (v1.0 §3.1.11, §13.3), so it is
// never answered with a card to an anonymous caller; the card itself is built in card.ts.
import type { KeyService } from '../billing/keys.js';
import type { Caller } from '../registry/types.js';
import { RPC, RpcError } from './jsonrpc.js';

const forbidden = (what: string) => new RpcError(RPC.AUTHENTICATION, `The ${what} is not valid.`, { code: 'forbidden', status: 403 });

/**
 * Refuses the extended card unless the caller holds a credential the gateway knows: -32000 (forbidden, as a
 * wrong credential is over REST) for an unknown agent secret or API key; -32004 UnsupportedOperation when none was
 * sent, since the card such a caller reads does not offer it (A2A 1.0 §3.3.4: an operation the caller's card does
 * not declare). Reading the card costs nothing, so an API key is only looked up, never charged.
 */
export async function requireCardCredentials(caller: Caller, keys: KeyService): Promise<void> {
  if (caller.badBearer) throw forbidden('agent secret');
  // An empty header is no key (as in billing).
  const apiKey = caller.credentials.apiKey;
  if (apiKey && !(await keys.resolve(apiKey))) throw forbidden('API key');
  if (caller.agent || apiKey) return;
  throw new RpcError(
    RPC.UNSUPPORTED_OPERATION,
    'There is no extended card for anonymous callers: send Authorization: Bearer <agent secret> or X-API-Key. The public card is at /.well-known/agent-card.json.',
    { code: 'unauthorized', status: 401, schemes: ['bearer', 'apiKey'] },
  );
}
