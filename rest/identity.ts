import { route, type Route } from '../src/http/route.js';

export const identityRoutes: Route[] = [
  route('POST', '/agents/register', 'agent_register', { status: 201, summary: 'Claim a handle; the secret is returned once' }),
  route('GET', '/agents', 'agent_list', { summary: 'List agents' }),
  route('GET', '/agents/me', 'whoami', { summary: 'Profile of the calling agent' }),
  route('GET', '/agents/{handle}', 'agent_get', { summary: 'Public profile' }),
  route('DELETE', '/agents/{handle}', 'agent_delete', { summary: 'Irreversibly delete the agent and all its data' }),
  route('POST', '/agents/{handle}/secret', 'agent_rotate_secret', { summary: 'Rotate the agent secret' }),
  route('GET', '/identity/{handle}', 'identity_card', { summary: 'Identity card' }),
  route('GET', '/invite/{handle}', 'invite_get', { summary: 'Invite link and lineage counts' }),
  route('GET', '/start', 'start', { summary: 'Onboarding; ?via=<handle> records the referrer' }),
];
