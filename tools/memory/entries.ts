// Memory entries: put (with compare-and-set and TTL), get, delete, list, history, one version.
import { z } from 'zod';
import { jsonValue } from '../../src/registry/json-value.js';
import { numberInput } from '../../src/registry/number-input.js';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import type { BatchStatement, Queryable } from '../../src/store/db.js';
import { toolRateWindow, type SharedRateWindow } from '../../src/shared-rate-window.js';
import { mustWrite, notFound, readsAll, resolveTarget, type Target } from './access.js';
import {
  Key,
  limitParam,
  Namespace,
  OwnerHandle,
  SCRATCHPAD_MAX_VALUE_BYTES,
  SCRATCHPAD_TTL_SECONDS,
  SCRATCHPAD_WRITES_PER_HOUR,
  Tags,
  Visibility,
} from './limits.js';
import { noteRead } from './reads.js';
import * as store from './store/entries.js';
import { decodeCursor, encodeCursor, iso, shapeEntry } from './shape.js';

/** The database refused a new key beyond the agent's entry limit (trigger memory_entries_limit). */
const isEntryLimit = (err: unknown): boolean => err instanceof Error && err.message.includes('memory_entry_limit');
/** The database refused a write that would pass the agent's byte quota (triggers memory_entries_bytes_*). */
const isByteLimit = (err: unknown): boolean => err instanceof Error && err.message.includes('memory_byte_limit');

function scratchpadWindow(ctx: ToolContext): SharedRateWindow {
  return toolRateWindow(ctx, 'scratchpad', SCRATCHPAD_WRITES_PER_HOUR, 3600_000);
}

export const PutInput = z.object({
  namespace: Namespace,
  key: Key,
  value: jsonValue().describe('Any JSON value.'),
  visibility: Visibility.optional(),
  tags: Tags.optional(),
  pinned: z.boolean().optional().describe('Pinned entries lead the context card.'),
  ttl_seconds: z.number().int().min(1).max(10 * 365 * 86400).optional().describe('Expire this many seconds after the write.'),
  if_version: z.number().int().min(0).optional().describe('Write only if the current version equals this (0 = create only); else 409.'),
  handle: OwnerHandle,
});

/** A validated write of one entry: its statement, and how its outcome becomes the API's answer or error. */
export interface PreparedPut {
  stmt: BatchStatement;
  /** The answer for the row the statement returned (the caller checked there is one). */
  done(row: store.PutRow): PutResult;
  /** The error for a write the statement refused: a version mismatch (no row), or the entry limit. */
  refusal(q: Queryable, err: unknown | null): Promise<GatewayError | unknown>;
}

export interface PutResult {
  namespace: string;
  key: string;
  owner: string | null;
  version: number;
  size: number;
  created_at: string | null;
  updated_at: string | null;
  expires_at: string | null;
}

/** Validates a write for the caller and builds its statement (bulk put sends many in one batch). */
export function preparePut(ctx: ToolContext, target: Target, input: z.output<typeof PutInput>): PreparedPut {
  mustWrite(ctx, target);
  const scratch = target.access === 'scratchpad';
  const value = JSON.stringify(input.value);
  const size = Buffer.byteLength(value);
  const max = scratch ? SCRATCHPAD_MAX_VALUE_BYTES : ctx.config.memory.maxValueBytes;
  if (size > max) throw new GatewayError('payload_too_large', `The value is ${size} bytes; the limit here is ${max}.`, { extra: { limit: max, size } });
  const now = ctx.clock.now();
  let ttl = input.ttl_seconds;
  if (scratch) ttl = Math.min(ttl ?? SCRATCHPAD_TTL_SECONDS, SCRATCHPAD_TTL_SECONDS);
  const stmt = store.putStatement({
    ownerId: target.ownerId,
    namespace: input.namespace,
    key: input.key,
    value,
    size,
    visibility: scratch ? 'public' : (input.visibility ?? null),
    tags: input.tags ? JSON.stringify([...new Set(input.tags)]) : null,
    pinned: input.pinned === undefined ? null : input.pinned ? 1 : 0,
    expiresAt: ttl ? now + ttl * 1000 : null,
    writtenBy: ctx.caller.agent?.id ?? null,
    clientKey: scratch ? ctx.services.clientKey(ctx.caller.credentials.ip) : null,
    ifVersion: input.if_version ?? null,
    now,
  }, ctx.db.dialect);
  return {
    stmt,
    done: (row) => ({
      namespace: input.namespace,
      key: input.key,
      owner: target.ownerHandle,
      version: row.version,
      size,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
      expires_at: ttl ? iso(now + ttl * 1000) : null,
    }),
    async refusal(q, err) {
      if (err !== null) {
        if (isByteLimit(err) && target.ownerId) {
          const { bytes } = await store.usageOf(ctx.db, target.ownerId);
          const limit = ctx.config.memory.maxBytesPerAgent;
          return new GatewayError(
            'payload_too_large',
            `This write (${size} bytes) would take the memory of ${target.ownerHandle ?? 'this agent'} past its quota of ${limit} bytes (GATEWAY_MEMORY_MAX_BYTES); it holds ${bytes} bytes of values now. Delete or forget entries, or write a smaller value.`,
            { extra: { quota: 'memory_bytes', limit, used: bytes, size } },
          );
        }
        if (!isEntryLimit(err) || !target.ownerId) return err;
        const usage = await store.usageOf(ctx.db, target.ownerId);
        return new GatewayError('payload_too_large', `This agent holds ${usage.entries} entries, the limit; delete or forget some first.`, {
          extra: { limit: ctx.config.memory.maxEntriesPerAgent },
        });
      }
      const current = await store.liveVersion(q, ctx.db.dialect, target.ownerId, input.namespace, input.key, now);
      return new GatewayError('conflict', `Version mismatch: the entry is at version ${current}, not ${input.if_version}.`, {
        extra: { current_version: current },
      });
    },
  };
}

/** Writes one entry for the caller (also used by templates and import). */
export async function putOne(ctx: ToolContext, target: Target, input: z.output<typeof PutInput>, q: Queryable = ctx.db): Promise<PutResult> {
  const put = preparePut(ctx, target, input);
  let row: store.PutRow | undefined;
  try {
    row = await q.get<store.PutRow>(put.stmt.sql, put.stmt.params);
  } catch (err) {
    throw await put.refusal(q, err);
  }
  if (!row) throw await put.refusal(q, null);
  return put.done(row);
}

export const memoryPut = defineTool({
  name: 'memory_put',
  title: 'Store a memory entry',
  toolset: 'memory',
  description:
    'Stores any JSON value under namespace/key and keeps version history. Options: visibility (private by default, ' +
    'or public), tags, pinned, ttl_seconds, if_version (compare-and-set; 0 = create only; mismatch → 409 with ' +
    'current_version). Write into another agent\'s namespace by naming its handle when it shared it with write permission. ' +
    'Namespace "scratchpad" needs no credentials (public, 24 h, 16 KB).',
  input: PutInput,
  auth: 'optional_owner',
  annotations: { destructiveHint: false, idempotentHint: true },
  handler: async (input, ctx) => {
    const target = await resolveTarget(ctx, input.namespace, input.handle);
    if (target.access === 'scratchpad') {
      const wait = await scratchpadWindow(ctx).take(ctx.services.clientKey(ctx.caller.credentials.ip));
      if (wait) throw new GatewayError('rate_limited', `Scratchpad writes are limited to ${SCRATCHPAD_WRITES_PER_HOUR} per hour per client.`, { headers: { 'Retry-After': String(wait) } });
    }
    const out = await putOne(ctx, target, input);
    ctx.services.bus.emit('memory:changed', { ownerId: target.ownerId });
    return out;
  },
});

const Locator = { namespace: Namespace, key: Key, handle: OwnerHandle };

async function readable(ctx: ToolContext, namespace: string, key: string, handle?: string) {
  const target = await resolveTarget(ctx, namespace, handle);
  const row = await store.getEntry(ctx.db, ctx.db.dialect, target.ownerId, namespace, key, ctx.clock.now());
  if (!row || (!readsAll(target) && row.visibility !== 'public')) throw notFound(namespace, key);
  return { target, row };
}

export const memoryGet = defineTool({
  name: 'memory_get',
  title: 'Read a memory entry',
  toolset: 'memory',
  description: "Reads an entry: your own, another agent's when it shared the namespace with you or made the entry public, or the scratchpad.",
  input: z.object(Locator),
  auth: 'optional_owner',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const { target, row } = await readable(ctx, input.namespace, input.key, input.handle);
    noteRead(ctx, row.id);
    return shapeEntry(row, target.ownerHandle);
  },
});

export const memoryDelete = defineTool({
  name: 'memory_delete',
  title: 'Delete a memory entry',
  toolset: 'memory',
  description: 'Deletes an entry and its history (owner, or a grantee with write permission). The change feed keeps a tombstone.',
  input: z.object(Locator),
  auth: 'optional_owner',
  annotations: { destructiveHint: true, idempotentHint: true },
  handler: async (input, ctx) => {
    const target = await resolveTarget(ctx, input.namespace, input.handle);
    mustWrite(ctx, target);
    if (target.access === 'scratchpad') throw new GatewayError('forbidden', 'Scratchpad entries expire on their own; they cannot be deleted.');
    const now = ctx.clock.now();
    const row = await store.getEntry(ctx.db, ctx.db.dialect, target.ownerId, input.namespace, input.key, now);
    if (!row) throw notFound(input.namespace, input.key);
    await ctx.db.transaction((tx) => store.removeEntries(tx, ctx.db.dialect, [row.id], 'delete', now));
    ctx.services.bus.emit('memory:changed', { ownerId: target.ownerId });
    return { deleted: true, namespace: input.namespace, key: input.key, owner: target.ownerHandle, version: row.version };
  },
});

export const memoryList = defineTool({
  name: 'memory_list',
  title: 'List keys of a namespace',
  toolset: 'memory',
  description: 'Keys of a namespace in key order with version, size, visibility and tags; page with next_cursor.',
  input: z.object({ namespace: Namespace, handle: OwnerHandle, limit: limitParam(1000, 100), cursor: z.string().max(400).optional() }),
  auth: 'optional_owner',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const target = await resolveTarget(ctx, input.namespace, input.handle);
    const rows = await store.listEntries(ctx.db, {
      ownerId: target.ownerId,
      namespace: input.namespace,
      after: input.cursor ? decodeCursor(input.cursor) : '',
      limit: input.limit,
      publicOnly: !readsAll(target),
      now: ctx.clock.now(),
    });
    return {
      namespace: input.namespace,
      owner: target.ownerHandle,
      keys: rows.map((r) => ({
        key: r.key,
        version: r.version,
        size: r.size,
        visibility: r.visibility,
        tags: JSON.parse(r.tags) as string[],
        pinned: r.pinned === 1,
        updated_at: iso(r.updated_at),
        expires_at: iso(r.expires_at),
      })),
      next_cursor: rows.length === input.limit ? encodeCursor(rows[rows.length - 1].key) : null,
    };
  },
});

export const memoryHistory = defineTool({
  name: 'memory_history',
  title: 'Version history of an entry',
  toolset: 'memory',
  description: "Past versions of an entry, newest first: version, value, size, written_at, written_by. Of another agent's public entry (not shared with you), only the current version.",
  input: z.object({ ...Locator, limit: limitParam(200, 10) }),
  auth: 'optional_owner',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const { target, row } = await readable(ctx, input.namespace, input.key, input.handle);
    // A reader of the public entry alone sees its current version: the past ones may have been written while private.
    const versions = await store.history(ctx.db, row.id, readsAll(target) ? input.limit : 1);
    return {
      namespace: input.namespace,
      key: input.key,
      current_version: row.version,
      versions: versions.map((v) => ({ version: v.version, value: JSON.parse(v.value), size: v.size, written_at: iso(v.written_at), written_by: v.written_by })),
    };
  },
});

export const memoryVersion = defineTool({
  name: 'memory_version',
  title: 'One version of an entry',
  toolset: 'memory',
  description: "One past version of an entry by number (versions beyond the kept history are pruned: 404). Of another agent's public entry (not shared with you), only the current version.",
  input: z.object({ ...Locator, version: numberInput(z.number().int().min(1)).describe('Version number.') }),
  auth: 'optional_owner',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const { target, row } = await readable(ctx, input.namespace, input.key, input.handle);
    if (!readsAll(target) && input.version !== row.version) {
      throw new GatewayError('not_found', `Only the current version (${row.version}) of another agent's public entry can be read.`);
    }
    const v = await store.versionOf(ctx.db, row.id, input.version);
    if (!v) throw new GatewayError('not_found', `Version ${input.version} of ${input.namespace}/${input.key} is not kept.`);
    return { namespace: input.namespace, key: input.key, version: v.version, value: JSON.parse(v.value), size: v.size, written_at: iso(v.written_at), written_by: v.written_by };
  },
});

export const entryTools = [memoryPut, memoryGet, memoryDelete, memoryList, memoryHistory, memoryVersion];
