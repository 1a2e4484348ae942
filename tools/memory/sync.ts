// GET /memory/changes: incremental sync. The feed keeps the latest change per key (puts with their value,
// deletions, expiries and forgets as tombstones), so replaying it from the start rebuilds the current state.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { limitParam, OwnerHandle } from './limits.js';
import { changesSince } from './store/changes.js';
import { decodeCursor, encodeCursor, iso } from './shape.js';
import { sweepExpired } from './sweep.js';

export const memoryChanges = defineTool({
  name: 'memory_changes',
  title: 'Changes feed',
  toolset: 'memory',
  description:
    'Changes since an opaque cursor in your namespaces and in namespaces shared with you for writing: op put (with ' +
    'value), delete, expire or forget, in order. Pass back next_cursor; replaying from the start (empty since) ' +
    'rebuilds exactly the current state.',
  input: z.object({
    handle: OwnerHandle,
    since: z.string().max(200).default('').describe('Cursor from a previous call; empty = from the start.'),
    namespace: z.string().max(64).optional().describe('Only this namespace.'),
    limit: limitParam(200, 50),
  }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    await sweepExpired(ctx);
    const since = input.since ? Number(decodeCursor<number>(input.since)) || 0 : 0;
    const rows = await changesSince(ctx.db, { agentId: ctx.caller.agent!.id, since, namespace: input.namespace ?? null, limit: input.limit });
    const last = rows.length ? rows[rows.length - 1].seq : since;
    return {
      changes: rows.map((r) => ({
        op: r.op,
        owner: r.owner,
        namespace: r.namespace,
        key: r.key,
        version: r.version,
        ...(r.op === 'put'
          ? { value: JSON.parse(r.value!) as unknown, visibility: r.visibility, tags: JSON.parse(r.tags ?? '[]') as string[], expires_at: iso(r.expires_at) }
          : {}),
        at: iso(r.at),
      })),
      next_cursor: encodeCursor(last),
      has_more: rows.length === input.limit,
    };
  },
});
