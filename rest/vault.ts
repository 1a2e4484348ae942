import { route, type Route } from '../src/http/route.js';

export const vaultRoutes: Route[] = [
  route('POST', '/vault', 'vault_put', { summary: 'Store an encrypted secret (metadata returned)' }),
  route('GET', '/vault', 'vault_list', { summary: 'Vault entries (never values)' }),
  route('POST', '/vault/call', 'vault_call', { summary: 'Call an API with a stored credential injected server-side' }),
  route('GET', '/vault/{name}', 'vault_get', { summary: 'Decrypt one value' }),
  route('DELETE', '/vault/{name}', 'vault_delete', { summary: 'Delete a vault entry' }),
];
