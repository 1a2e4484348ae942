// Sharing a namespace with another handle (read or write), revoking it, and looking grants up.
import { z } from 'zod';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import { HandleRef } from '../identity/handles.js';
import { agentByHandle } from '../identity/store.js';
import { Namespace, OwnerHandle, SCRATCHPAD } from './limits.js';
import * as acl from './store/acl.js';
import { iso } from './shape.js';

async function grantee(ctx: ToolContext, handle: string) {
  const me = ctx.caller.agent!;
  if (handle === me.handle) throw new GatewayError('validation_error', 'You already own this namespace.', { detail: [{ loc: ['grantee'], msg: 'cannot share with yourself', type: 'value_error' }] });
  const a = await agentByHandle(ctx.db, handle);
  if (!a) throw new GatewayError('not_found', `No agent has the handle "${handle}".`);
  return a;
}

const notScratchpad = (ns: string) => {
  if (ns === SCRATCHPAD) throw new GatewayError('validation_error', 'The scratchpad is public already.', { detail: [{ loc: ['namespace'], msg: 'cannot share the scratchpad', type: 'value_error' }] });
};

export const memoryShare = defineTool({
  name: 'memory_share',
  title: 'Share a namespace',
  toolset: 'memory',
  description: 'Lets another handle read (or read and write) one of your namespaces; it then names your handle to reach it. Repeating updates the permission.',
  input: z.object({ namespace: Namespace, grantee: HandleRef, permission: z.enum(['read', 'write']).default('read').describe('read or write.') }),
  auth: 'owner',
  annotations: { idempotentHint: true },
  handler: async (input, ctx) => {
    notScratchpad(input.namespace);
    const g = await grantee(ctx, input.grantee);
    await acl.grant(ctx.db, ctx.caller.agent!.id, input.namespace, g.id, input.permission, ctx.clock.now());
    ctx.services.bus.emit('memory:changed', { ownerId: ctx.caller.agent!.id });
    return { owner: ctx.caller.agent!.handle, namespace: input.namespace, grantee: g.handle, permission: input.permission };
  },
});

export const memoryUnshare = defineTool({
  name: 'memory_unshare',
  title: 'Revoke a share',
  toolset: 'memory',
  description: "Revokes a handle's access to one of your namespaces, effective immediately.",
  input: z.object({ namespace: Namespace, grantee: HandleRef }),
  auth: 'owner',
  annotations: { destructiveHint: true, idempotentHint: true },
  handler: async (input, ctx) => {
    const g = await agentByHandle(ctx.db, input.grantee);
    const revoked = g ? await acl.revoke(ctx.db, ctx.caller.agent!.id, input.namespace, g.id) : false;
    return { owner: ctx.caller.agent!.handle, namespace: input.namespace, grantee: input.grantee, revoked };
  },
});

export const memoryShares = defineTool({
  name: 'memory_shares',
  title: 'Shares of a namespace',
  toolset: 'memory',
  description: 'Who may read or write one of your namespaces.',
  input: z.object({ namespace: Namespace, handle: OwnerHandle }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const rows = await acl.sharesOf(ctx.db, ctx.caller.agent!.id, input.namespace);
    return { owner: ctx.caller.agent!.handle, namespace: input.namespace, shares: rows.map((r) => ({ grantee: r.grantee, permission: r.permission, since: iso(r.created_at) })) };
  },
});

export const memoryAclLookup = defineTool({
  name: 'memory_acl_lookup',
  title: "A handle's permission on a namespace",
  toolset: 'memory',
  description: "Public lookup of a grantee's permission (read, write or none) on an owner's namespace (owner = handle, default you).",
  input: z.object({ namespace: Namespace, grantee: HandleRef, handle: OwnerHandle }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const ownerHandle = input.handle || ctx.caller.agent?.handle;
    if (!ownerHandle) throw new GatewayError('validation_error', 'Name the owner with ?handle=.', { detail: [{ loc: ['handle'], msg: 'required without credentials', type: 'missing' }] });
    const [owner, g] = await Promise.all([agentByHandle(ctx.db, ownerHandle), agentByHandle(ctx.db, input.grantee)]);
    if (!owner) throw new GatewayError('not_found', `No agent has the handle "${ownerHandle}".`);
    const permission = g ? await acl.permission(ctx.db, owner.id, input.namespace, g.id) : null;
    return { owner: owner.handle, namespace: input.namespace, grantee: input.grantee, permission: permission ?? 'none' };
  },
});

export const sharingTools = [memoryShare, memoryUnshare, memoryShares, memoryAclLookup];
