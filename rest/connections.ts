import { route, type Route } from '../src/http/route.js';

// A client id is usually a URL, so revoking takes it in the body rather than the path.
export const connectionRoutes: Route[] = [
  route('GET', '/connections', 'oauth_clients_list', { summary: 'OAuth clients you allowed to act as you' }),
  route('POST', '/connections/revoke', 'oauth_client_revoke', { summary: 'Disconnect an OAuth client (its tokens stop working)' }),
];
