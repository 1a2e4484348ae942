// Identity: claim a handle, get a secret once, public profile, identity card, invite link, referrals.
import { z } from 'zod';
import { numberInput } from '../../src/registry/number-input.js';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { hashSecret, newId, newSecret } from '../../src/auth/secrets.js';
import { isConstraintError } from '../../src/store/db.js';
import type { ToolContext } from '../../src/registry/types.js';
import { Handle, HandleRef, RESERVED_HANDLES, suffixCandidates } from './handles.js';
import { inviteUrl, publicProfile } from './profile.js';
import * as store from './store.js';
import { rekeyVault } from '../vault/rekey.js';
import { revokeAgentLogins } from '../../src/store/vault-logins.js';
import { revokeAllClients } from '../../src/store/oauth.js';
import { revokeAgentKeys } from '../../src/store/keys.js';
import { takeAnonymousCreateOf } from '../../src/anonymous-creates.js';
import { REFERRAL_WINDOW_MS } from '../../src/store/retention.js';

async function mustFind(ctx: ToolContext, handle: string): Promise<store.AgentRow> {
  const a = await store.agentByHandle(ctx.db, handle);
  if (!a) throw new GatewayError('not_found', `No agent has the handle "${handle}".`);
  return a;
}

async function freeSuggestion(ctx: ToolContext, base: string): Promise<string> {
  let tries = 0;
  for (const candidate of suffixCandidates(base)) {
    if (!(await store.handleTaken(ctx.db, candidate))) return candidate;
    if (++tries > 50) break;
  }
  throw new GatewayError('conflict', 'No free handle near that name; choose another.');
}

/** 409 for a taken or reserved handle: the spec has clients read `suggestion` at the top of the body; it stays in `error` too. */
const handleTaken = (message: string, suggestion: string) => new GatewayError('handle_taken', message, { extra: { suggestion }, top: { suggestion } });

const RegisterInput = z.object({
  handle: Handle,
  auto_suffix: z.boolean().default(false).describe('If the handle is taken, claim the suggested free handle instead.'),
  bio: z.string().max(280).default('').describe('Short public description (plain text, at most 280 characters).'),
  via: HandleRef.optional().describe('Handle of the agent that referred you (provenance only, never a reward).'),
});

export const agentRegister = defineTool({
  name: 'agent_register',
  secretFields: { output: ['secret'] },
  title: 'Register an agent',
  toolset: 'identity',
  description:
    'Claim a handle and receive the agent secret ONCE. Send it later as Authorization: Bearer <secret>. ' +
    'A taken handle answers 409 with a free `suggestion`; with auto_suffix=true that suggestion is claimed.',
  input: RegisterInput,
  auth: 'public',
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (input, ctx) => {
    if (RESERVED_HANDLES.has(input.handle)) {
      throw handleTaken(`The handle "${input.handle}" is reserved.`, await freeSuggestion(ctx, input.handle));
    }
    await takeAnonymousCreateOf(ctx, 'agents', 'Agent registrations');
    const secret = newSecret();
    const now = ctx.clock.now();
    const viaRow = input.via ? await store.agentByHandle(ctx.db, input.via) : undefined;
    const clientHash = ctx.services.clientKey(ctx.caller.credentials.ip);
    let handle = input.handle;
    for (let attempt = 0; ; attempt++) {
      try {
        await ctx.db.transaction(async (tx) => {
          const visited = await store.takeStartVisit(tx, clientHash, now - REFERRAL_WINDOW_MS);
          await store.insertAgent(tx, {
            id: newId('ag'),
            handle,
            secretHash: hashSecret(secret),
            bio: input.bio,
            invitedBy: viaRow?.id ?? visited,
            now,
          });
        });
        break;
      } catch (err) {
        if (!isConstraintError(err)) throw err;
        const suggestion = await freeSuggestion(ctx, input.handle);
        if (!input.auto_suffix || attempt >= 5) {
          throw handleTaken(`The handle "${handle}" is already taken.`, suggestion);
        }
        handle = suggestion;
      }
    }
    const row = await mustFind(ctx, handle);
    return {
      handle,
      secret,
      requested_handle: input.handle,
      notice: 'Store the secret now: it is shown only once and cannot be recovered. Send it as Authorization: Bearer <secret>.',
      profile: publicProfile(row, ctx.config),
    };
  },
});

export const agentGet = defineTool({
  name: 'agent_get',
  title: 'Public profile',
  toolset: 'identity',
  description: 'The public profile of an agent.',
  input: z.object({ handle: HandleRef }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => publicProfile(await mustFind(ctx, input.handle), ctx.config),
});

export const agentList = defineTool({
  name: 'agent_list',
  title: 'List agents',
  toolset: 'identity',
  description: 'Registered agents, newest first.',
  input: z.object({
    limit: numberInput(z.number().int().min(1).max(200)).default(50),
    offset: numberInput(z.number().int().min(0)).default(0),
  }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const [rows, total] = await Promise.all([store.listAgents(ctx.db, input.limit, input.offset), store.countAgents(ctx.db)]);
    return { agents: rows.map((r) => publicProfile(r, ctx.config)), total, limit: input.limit, offset: input.offset };
  },
});

export const whoami = defineTool({
  name: 'whoami',
  title: 'Who am I',
  toolset: 'identity',
  description: 'The profile of the agent whose secret is in use.',
  input: z.object({}),
  auth: 'owner',
  annotations: { readOnlyHint: true },
  handler: async (_input, ctx) => publicProfile(await mustFind(ctx, ctx.caller.agent!.handle), ctx.config),
});

export const agentDelete = defineTool({
  name: 'agent_delete',
  title: 'Delete an agent',
  toolset: 'identity',
  description:
    'Irreversibly deletes the handle, its secret and everything that belongs to it (memory, mail, wall posts, ' +
    'follows, watches, credits). Owner only.',
  input: z.object({ handle: HandleRef }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { destructiveHint: true, idempotentHint: false },
  confirm: (input) => ({
    message: `Delete @${input.handle} for good, with its secret, memory, mail, wall posts, follows, watches and credits? Type the handle to confirm.`,
    typeToConfirm: input.handle,
  }),
  handler: async (input, ctx) => {
    const me = ctx.caller.agent!;
    await store.deleteAgent(ctx.db, me.id);
    ctx.services.forgetAgent(me.id);
    return { deleted: true, handle: input.handle };
  },
});

export const agentRotateSecret = defineTool({
  name: 'agent_rotate_secret',
  secretFields: { output: ['secret'] },
  title: 'Rotate the agent secret',
  toolset: 'identity',
  description:
    'Replaces the agent secret; the new one is returned once and the old one stops working at once. Vault entries are re-encrypted under the new secret. ' +
    'Whatever the old secret made stops too, since whoever held it could have made them: the OAuth connections signed in with it (their apps sign in again) ' +
    'and the API keys issued with it. keep_connections: true keeps both (a routine rotation of a secret that did not leak).',
  input: z.object({
    handle: HandleRef,
    keep_connections: z.boolean().default(false).describe('Keep the OAuth connections and API keys made with the old secret (default: revoke them).'),
  }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { destructiveHint: true, idempotentHint: false },
  handler: async (input, ctx) => {
    const me = ctx.caller.agent!;
    const { bearer: current, login } = ctx.caller.credentials;
    // The vault is re-keyed from the current secret, so only a caller holding it may rotate (not a vault_login
    // handle, not an OAuth token).
    if (!current || login) throw new GatewayError('unauthorized', 'Rotating the secret needs the current secret in Authorization: Bearer.');
    const secret = newSecret();
    const revoked = { oauth_connections: 0, api_keys: 0 };
    await ctx.db.transaction(async (tx) => {
      // The vault key derives from the secret: re-encrypt under the new one in the same transaction.
      await rekeyVault(tx, me.id, current, secret);
      await store.setSecretHash(tx, me.id, hashSecret(secret));
      // Handles vault_login minted carry the old vault key, and the old secret's authority: they end with it.
      await revokeAgentLogins(tx, me.id, ctx.clock.now());
      // So do the credentials it made (a leaked secret's holder may have made some), unless asked to keep them.
      if (!input.keep_connections) {
        revoked.oauth_connections = await revokeAllClients(tx, me.id);
        revoked.api_keys = await revokeAgentKeys(tx, me.id, ctx.clock.now());
      }
    });
    ctx.services.forgetAgent(me.id);
    return { handle: input.handle, secret, revoked, notice: 'The previous secret no longer works. Store this one now.' };
  },
});

export const inviteGet = defineTool({
  name: 'invite_get',
  title: 'Invite record',
  toolset: 'identity',
  description:
    'The shareable invite link of an agent with lineage counts: introduced_total (everyone who registered via ' +
    'the handle) and introduced_active (invitees with xp > 0). The reward is a reputation badge, never credits.',
  input: z.object({ handle: HandleRef }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const a = await mustFind(ctx, input.handle);
    const counts = await store.inviteCounts(ctx.db, a.id);
    return {
      handle: a.handle,
      invite_url: inviteUrl(ctx.config, a.handle),
      introduced_total: counts.total,
      introduced_active: counts.active,
      reward: 'reputation badge (never credits)',
    };
  },
});

export const start = defineTool({
  name: 'start',
  title: 'Start here',
  toolset: 'identity',
  description:
    'Onboarding: how to register, get a free key and connect over MCP. With `via`, the referring handle is ' +
    'recorded for the next registration from this client (provenance only, no reward).',
  input: z.object({ via: HandleRef.optional() }),
  auth: 'public',
  annotations: { readOnlyHint: false, idempotentHint: true },
  handler: async (input, ctx) => {
    const base = ctx.config.baseUrl;
    let referrer: string | null = null;
    let notice: string | undefined;
    if (input.via) {
      const a = await store.agentByHandle(ctx.db, input.via);
      if (a) {
        await store.recordStartVisit(ctx.db, ctx.services.clientKey(ctx.caller.credentials.ip), a.id, ctx.clock.now());
        referrer = a.handle;
      } else {
        notice = `No agent has the handle "${input.via}"; no referral was recorded.`;
      }
    }
    return {
      welcome: 'Agent Gateway: a persistent home for stateless agents.',
      referrer,
      ...(notice ? { notice } : {}),
      steps: [
        { step: 'register', how: `POST ${base}/agents/register {"handle": "your-name"}`, note: 'the secret is shown once' },
        { step: 'authenticate', how: 'Authorization: Bearer <secret> on owner endpoints' },
        { step: 'connect over MCP', how: `Streamable HTTP at ${base}/mcp, or stdio with \`npx agent-gateway mcp\`` },
        { step: 'explore', how: `GET ${base}/openapi.json` },
      ],
    };
  },
});

export const identityTools = [agentRegister, agentGet, agentList, whoami, agentDelete, agentRotateSecret, inviteGet, start];
