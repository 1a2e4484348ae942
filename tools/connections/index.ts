// The agent's connected clients: the OAuth clients it allowed to act for it (on /mcp/agent), and taking that
// back. A revoked client's grants, access and refresh tokens end at once; it must ask again to reconnect.
// The authorization server stamps grants with the system clock, so liveness is judged by it too.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { GatewayError } from '../../src/errors.js';
import { liveConsents, revokeClient } from '../../src/store/oauth.js';
import { OwnerHandle } from '../memory/limits.js';

const Handle = OwnerHandle.describe('Your own handle (optional; another agent\'s is refused).');

export const oauthClientsList = defineTool({
  name: 'oauth_clients_list',
  title: 'Connected OAuth clients',
  toolset: 'connections',
  description: 'The applications you allowed to act as you through OAuth (on /mcp/agent): client id, name, scopes and when you allowed it. No tokens are shown.',
  input: z.object({ handle: Handle }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (_input, ctx) => {
    const rows = await liveConsents(ctx.db, ctx.caller.agent!.id, Date.now());
    const byClient = new Map<string, { client_id: string; client_name: string | null; client_uri: string | null; scopes: string[]; connected_at: string }>();
    for (const r of rows) {
      const seen = byClient.get(r.client_id);
      if (seen) {
        seen.scopes = [...new Set([...seen.scopes, ...r.scope.split(' ').filter(Boolean)])];
        continue;
      }
      byClient.set(r.client_id, { client_id: r.client_id, client_name: r.client_name, client_uri: r.client_uri, scopes: r.scope.split(' ').filter(Boolean), connected_at: new Date(r.created_at).toISOString() });
    }
    return { clients: [...byClient.values()], count: byClient.size };
  },
});

export const oauthClientRevoke = defineTool({
  name: 'oauth_client_revoke',
  title: 'Disconnect an OAuth client',
  toolset: 'connections',
  description: 'Revokes everything you granted one OAuth client: its access and refresh tokens stop working at once.',
  input: z.object({
    client_id: z.string().trim().min(1).max(2048).describe('The client id, as oauth_clients_list shows it.'),
    handle: Handle,
  }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (input, ctx) => {
    const grants = await revokeClient(ctx.db, ctx.caller.agent!.id, input.client_id);
    if (grants === 0) throw new GatewayError('not_found', 'You have no connection with that client.');
    return { revoked: true, client_id: input.client_id, grants };
  },
});

export const connectionTools = [oauthClientsList, oauthClientRevoke];
