// Who may touch which memory: the owner; a grantee of the namespace (read, or write); anyone for public
// entries; anyone for the scratchpad. Unreadable entries answer 404, so their existence never leaks.
import { GatewayError } from '../../src/errors.js';
import type { ToolContext } from '../../src/registry/types.js';
import { agentByHandle } from '../identity/store.js';
import { permission, type Permission } from './store/acl.js';
import { SCRATCHPAD } from './limits.js';

export interface Target {
  /** Owner's agent id; null for the scratchpad. */
  ownerId: string | null;
  ownerHandle: string | null;
  namespace: string;
  /** What the caller may do here beyond reading public entries. */
  access: 'owner' | Permission | 'public' | 'scratchpad';
}

const needAuth = () =>
  new GatewayError('unauthorized', 'Send Authorization: Bearer <AGENT_SECRET> (only the scratchpad namespace works without it).', {
    headers: { 'WWW-Authenticate': 'Bearer realm="agent-gateway"' },
  });

/** Resolves whose namespace a request is about, and the caller's standing there. */
export async function resolveTarget(ctx: ToolContext, namespace: string, handle?: string): Promise<Target> {
  if (namespace === SCRATCHPAD) return { ownerId: null, ownerHandle: null, namespace, access: 'scratchpad' };
  const me = ctx.caller.agent;
  if (!handle || (me && handle === me.handle)) {
    if (!me) throw needAuth();
    return { ownerId: me.id, ownerHandle: me.handle, namespace, access: 'owner' };
  }
  const owner = await agentByHandle(ctx.db, handle);
  if (!owner) throw new GatewayError('not_found', `No agent has the handle "${handle}".`);
  const granted = me ? await permission(ctx.db, owner.id, namespace, me.id) : null;
  return { ownerId: owner.id, ownerHandle: owner.handle, namespace, access: granted ?? 'public' };
}

/** Full read access (private entries too). */
export const readsAll = (t: Target): boolean => t.access !== 'public';

export function mustWrite(ctx: ToolContext, t: Target): void {
  if (t.access === 'owner' || t.access === 'write' || t.access === 'scratchpad') return;
  if (!ctx.caller.agent) throw needAuth();
  throw new GatewayError('forbidden', `No write permission on ${t.ownerHandle}/${t.namespace}.`);
}

export function mustOwn(ctx: ToolContext, t: Target): void {
  if (t.access === 'owner') return;
  if (!ctx.caller.agent) throw needAuth();
  throw new GatewayError('forbidden', `Only the owner of ${t.ownerHandle ?? SCRATCHPAD}/${t.namespace} may do this.`);
}

export const notFound = (namespace: string, key: string) => new GatewayError('not_found', `No entry ${namespace}/${key}.`);
