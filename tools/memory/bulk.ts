// Atomic bulk put and delete (at most 100 items: all or nothing) and forgetting by filter (dry run first).
import { z } from 'zod';
import { GatewayError } from '../../src/errors.js';
import { BatchError } from '../../src/store/db.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import { mustWrite, notFound, resolveTarget } from './access.js';
import { PutInput, preparePut } from './entries.js';
import { Key, Namespace, OwnerHandle, SCRATCHPAD, Tags } from './limits.js';
import { getEntry, removeEntries, type PutRow } from './store/entries.js';
import { selectForgettable } from './store/forget.js';
import { ftsQuery } from './store/search.js';
import { iso } from './shape.js';

export const BULK_MAX = 100;

/** Re-throws an item's error naming the item, so the caller knows which one spoiled the batch. */
function naming(err: unknown, index: number): never {
  if (!(err instanceof GatewayError)) throw err;
  const detail = err.detail?.map((d) => ({ ...d, loc: ['items', index, ...d.loc] }));
  throw new GatewayError(err.code, `Item ${index}: ${err.message} Nothing was written.`, { extra: { ...err.extra, item: index }, headers: err.headers, detail });
}

async function targetsFor(ctx: ToolContext, namespaces: string[], handle?: string) {
  const map = new Map<string, Awaited<ReturnType<typeof resolveTarget>>>();
  for (const ns of new Set(namespaces)) {
    if (ns === SCRATCHPAD) throw new GatewayError('validation_error', 'Bulk writes do not take the scratchpad.', { detail: [{ loc: ['items'], msg: 'scratchpad not allowed in bulk', type: 'value_error' }] });
    const t = await resolveTarget(ctx, ns, handle);
    mustWrite(ctx, t);
    map.set(ns, t);
  }
  return map;
}

const BulkPutItem = PutInput.omit({ handle: true });

export const memoryBulkPut = defineTool({
  name: 'memory_bulk_put',
  title: 'Bulk put',
  toolset: 'memory',
  description: `Writes up to ${BULK_MAX} entries in one transaction: all or nothing. A bad item (validation, size, if_version mismatch) writes nothing and the error names it.`,
  input: z.object({ items: z.array(BulkPutItem).min(1).max(BULK_MAX).describe(`Entries to write (at most ${BULK_MAX}).`), handle: OwnerHandle }),
  auth: 'owner',
  annotations: { destructiveHint: false },
  handler: async (input, ctx) => {
    const targets = await targetsFor(ctx, input.items.map((i) => i.namespace), input.handle);
    const puts = input.items.map((item, i) => {
      try {
        return preparePut(ctx, targets.get(item.namespace)!, { ...item, handle: input.handle });
      } catch (err) {
        return naming(err, i);
      }
    });
    // One batch: every write without a round trip between them, all or nothing.
    const rows = await ctx.db.batch(puts.map((p) => p.stmt)).catch(async (err: unknown) => {
      if (!(err instanceof BatchError)) throw err;
      return naming(await puts[err.index].refusal(ctx.db, err.code === 'BATCH_NO_ROW' ? null : err), err.index);
    });
    const written = rows.map((r, i) => puts[i].done((r as PutRow[])[0]));
    for (const t of targets.values()) ctx.services.bus.emit('memory:changed', { ownerId: t.ownerId });
    return { written: written.length, items: written };
  },
});

export const memoryBulkDelete = defineTool({
  name: 'memory_bulk_delete',
  title: 'Bulk delete',
  toolset: 'memory',
  description: `Deletes up to ${BULK_MAX} entries in one transaction: all or nothing (a missing entry deletes nothing and is named).`,
  input: z.object({
    items: z.array(z.object({ namespace: Namespace, key: Key })).min(1).max(BULK_MAX).describe(`Entries to delete (at most ${BULK_MAX}).`),
    handle: OwnerHandle,
  }),
  auth: 'owner',
  annotations: { destructiveHint: true },
  handler: async (input, ctx) => {
    const targets = await targetsFor(ctx, input.items.map((i) => i.namespace), input.handle);
    const now = ctx.clock.now();
    const deleted = await ctx.db.transaction(async (tx) => {
      const ids: number[] = [];
      for (let i = 0; i < input.items.length; i++) {
        const { namespace, key } = input.items[i];
        const row = await getEntry(tx, ctx.db.dialect, targets.get(namespace)!.ownerId, namespace, key, now);
        if (!row) naming(notFound(namespace, key), i);
        ids.push(row!.id);
      }
      return removeEntries(tx, ctx.db.dialect, [...new Set(ids)], 'delete', now);
    });
    for (const t of targets.values()) ctx.services.bus.emit('memory:changed', { ownerId: t.ownerId });
    return { deleted };
  },
});

export const FORGET_MAX = 1000;

/** The filters of a forget, as the person reads them in the confirmation. */
function describeFilters(f: { namespace?: string; key_prefix?: string; tags?: string[]; older_than?: string; query?: string }): string {
  const parts = [
    f.namespace && `namespace "${f.namespace}"`,
    f.key_prefix && `keys starting "${f.key_prefix}"`,
    f.tags?.length && `tags ${f.tags.join(', ')}`,
    f.older_than && `last written before ${f.older_than}`,
    f.query && `the search "${f.query}"`,
  ].filter(Boolean);
  return parts.length ? parts.join(' and ') : 'no filter';
}

export const memoryForget = defineTool({
  name: 'memory_forget',
  title: 'Forget by filter',
  toolset: 'memory',
  description:
    'Forgets your entries matching all given filters (namespace, key_prefix, tags, older_than, query). dry_run defaults ' +
    `to true and lists exactly what would go; dry_run=false removes exactly that set (at most ${FORGET_MAX} per call) and ` +
    'records it in the change feed. At least one filter is required.',
  input: z.object({
    namespace: Namespace.optional(),
    key_prefix: z.string().min(1).max(256).optional().describe('Keys starting with this.'),
    tags: Tags.optional().describe('Entries carrying all these tags.'),
    older_than: z.iso.datetime({ offset: true }).optional().describe('Entries last written before this time (ISO 8601).'),
    query: z.string().min(1).max(500).optional().describe('Entries matching this full-text query.'),
    dry_run: z.boolean().default(true).describe('true (default): only list what would be forgotten.'),
    handle: OwnerHandle,
  }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { destructiveHint: true },
  confirm: (input) =>
    input.dry_run
      ? null
      : { message: `Forget for good every entry of yours matching ${describeFilters(input)} (at most ${FORGET_MAX})? This cannot be undone.` },
  handler: async (input, ctx) => {
    const match = input.query ? ftsQuery(input.query) : undefined;
    if (!input.namespace && !input.key_prefix && !input.tags?.length && !input.older_than && !match) {
      throw new GatewayError('validation_error', 'Give at least one filter: namespace, key_prefix, tags, older_than or query.', {
        detail: [{ loc: ['namespace'], msg: 'at least one filter is required', type: 'missing' }],
      });
    }
    const now = ctx.clock.now();
    const filter = {
      agentId: ctx.caller.agent!.id,
      namespace: input.namespace,
      keyPrefix: input.key_prefix,
      tags: input.tags,
      olderThan: input.older_than ? Date.parse(input.older_than) : undefined,
      match: match ?? undefined,
      query: input.query,
      now,
      limit: FORGET_MAX + 1,
    };
    const run = async (q: Parameters<typeof selectForgettable>[0]) => {
      const rows = await selectForgettable(q, ctx.db.dialect, filter);
      const truncated = rows.length > FORGET_MAX;
      const chosen = rows.slice(0, FORGET_MAX);
      if (!input.dry_run) await removeEntries(q, ctx.db.dialect, chosen.map((r) => r.id), 'forget', now);
      return { truncated, chosen };
    };
    const { truncated, chosen } = input.dry_run ? await run(ctx.db) : await ctx.db.transaction(run);
    if (!input.dry_run && chosen.length) ctx.services.bus.emit('memory:changed', { ownerId: ctx.caller.agent!.id });
    return {
      dry_run: input.dry_run,
      count: chosen.length,
      truncated,
      entries: chosen.map((r) => ({ namespace: r.namespace, key: r.key, version: r.version, updated_at: iso(r.updated_at) })),
    };
  },
});

export const bulkTools = [memoryBulkPut, memoryBulkDelete, memoryForget];
