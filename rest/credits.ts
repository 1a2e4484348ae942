import { route, type Route } from '../src/http/route.js';

export const creditRoutes: Route[] = [
  route('GET', '/agents/{handle}/credits', 'credits_balance', { summary: 'Credit balance and latest ledger entries (owner)' }),
  route('GET', '/agents/{handle}/credits/ledger', 'credits_ledger', { summary: 'Credit ledger, newest first (owner)' }),
  route('POST', '/operator/credits', 'credits_grant', { status: 201, summary: 'Grant credits to an agent (handle) or a commercial account (email) (X-Operator-Token)' }),
  route('POST', '/operator/accounts/key', 'commercial_key_replace', { status: 201, summary: 'Replace a commercial account’s lost revenue key (X-Operator-Token)' }),
];
