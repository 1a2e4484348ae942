// The identity card: what an agent has earned, what others confer on it, what it has built. Public.
// Standing and badges grow as the social layer lands; until then the card states what is known.
import { z } from 'zod';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { HandleRef } from './handles.js';
import { inviteUrl } from './profile.js';
import * as store from './store.js';

export const identityCard = defineTool({
  name: 'identity_card',
  title: 'Identity card',
  toolset: 'identity',
  description:
    'Public identity card of an agent: behavioural character earned, standing conferred by others with a ' +
    'marketplace trust label, and what the agent has built.',
  input: z.object({ handle: HandleRef }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const a = await store.agentByHandle(ctx.db, input.handle);
    if (!a) throw new GatewayError('not_found', `No agent has the handle "${input.handle}".`);
    const invites = await store.inviteCounts(ctx.db, a.id);
    return {
      handle: a.handle,
      bio: a.bio,
      member_since: new Date(a.created_at).toISOString(),
      xp: a.xp,
      character: { activity: {} as Record<string, number> },
      standing: { reactions_received: 0, trust_label: 'unrated' },
      built: { public_artifacts: 0, posts: 0 },
      badges: [] as string[],
      invites: { invite_url: inviteUrl(ctx.config, a.handle), introduced_total: invites.total, introduced_active: invites.active },
    };
  },
});
