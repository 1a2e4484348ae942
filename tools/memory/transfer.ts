// Export (JSONL with every kept version) and import (all or nothing) of an agent's memory.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { jsonValue } from '../../src/registry/json-value.js';
import { GatewayError } from '../../src/errors.js';
import { depthWithin, JsonTooDeepError } from '../../src/json-depth.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { FileResult } from '../../src/registry/types.js';
import { zodIssuesToDetail } from '../../src/registry/registry.js';
import { putOne } from './entries.js';
import { Key, Namespace, OwnerHandle, SCRATCHPAD, Tags, Visibility } from './limits.js';
import { exportRows, getEntry, insertWithHistory, settleStorageCharge } from './store/entries.js';
import { iso } from './shape.js';

const Line = z.object({
  namespace: Namespace.refine((n) => n !== SCRATCHPAD, 'the scratchpad is not imported'),
  key: Key,
  visibility: Visibility.default('private'),
  tags: Tags.default([]),
  pinned: z.boolean().default(false),
  expires_at: z.iso.datetime({ offset: true }).nullable().default(null),
  created_at: z.iso.datetime({ offset: true }).optional(),
  versions: z
    .array(z.object({ version: z.number().int().min(1), value: jsonValue(), written_at: z.iso.datetime({ offset: true }) }))
    .min(1)
    .max(10_000),
});

export const IMPORT_MAX_LINES = 10_000;

export const memoryExport = defineTool({
  name: 'memory_export',
  title: 'Export memory',
  toolset: 'memory',
  description: 'Your memory (one namespace, or all) as JSON Lines: one entry per line with visibility, tags, expiry and every kept version.',
  input: z.object({ namespace: Namespace.optional(), handle: OwnerHandle }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx): Promise<FileResult> => {
    const rows = await exportRows(ctx.db, ctx.caller.agent!.id, input.namespace ?? null, ctx.clock.now());
    const text = rows
      .map((r) =>
        JSON.stringify({
          namespace: r.namespace,
          key: r.key,
          visibility: r.visibility,
          tags: JSON.parse(r.tags),
          pinned: r.pinned === 1,
          expires_at: iso(r.expires_at),
          created_at: iso(r.created_at),
          versions: (JSON.parse(r.versions) as { version: number; value: unknown; written_at: number }[]).map((v) => ({ version: v.version, value: v.value, written_at: iso(v.written_at) })),
        }),
      )
      .join('\n');
    const bytes = Buffer.from(text ? `${text}\n` : '');
    return {
      kind: 'file',
      bytes,
      contentType: 'application/x-ndjson',
      filename: `${ctx.caller.agent!.handle}-${input.namespace ?? 'memory'}.jsonl`,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
  },
});

export const memoryImport = defineTool({
  name: 'memory_import',
  title: 'Import memory',
  toolset: 'memory',
  description:
    `Imports JSON Lines as produced by export (at most ${IMPORT_MAX_LINES} lines), all or nothing. New keys keep their ` +
    'history and timestamps; existing keys fail the import (on_conflict "fail", default), are skipped ("skip"), or get the ' +
    'imported newest value as a new version ("overwrite").',
  input: z.object({
    jsonl: z.string().max(64 * 1024 * 1024).describe('The export, one JSON object per line.'),
    on_conflict: z.enum(['fail', 'skip', 'overwrite']).default('fail').describe('What to do with keys that already exist.'),
    handle: OwnerHandle,
  }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { destructiveHint: false },
  handler: async (input, ctx) => {
    const me = ctx.caller.agent!;
    const raw = input.jsonl.split('\n').filter((l) => l.trim());
    if (raw.length > IMPORT_MAX_LINES) throw new GatewayError('payload_too_large', `At most ${IMPORT_MAX_LINES} lines per import.`);
    const lines = raw.map((l, i) => {
      let obj: unknown;
      try {
        obj = JSON.parse(l);
      } catch {
        throw new GatewayError('validation_error', `Line ${i + 1} is not JSON.`, { detail: [{ loc: ['jsonl', i], msg: 'not JSON', type: 'json_invalid' }] });
      }
      if (depthWithin(obj, ctx.config.maxJsonDepth) === null) {
        const msg = new JsonTooDeepError(ctx.config.maxJsonDepth).message;
        throw new GatewayError('validation_error', `Line ${i + 1}: ${msg}`, { detail: [{ loc: ['jsonl', i], msg, type: 'json_too_deep' }] });
      }
      const p = Line.safeParse(obj);
      if (!p.success) throw new GatewayError('validation_error', `Line ${i + 1} does not fit the export format.`, { detail: zodIssuesToDetail(p.error, obj).map((d) => ({ ...d, loc: ['jsonl', i, ...d.loc] })) });
      return p.data;
    });
    const now = ctx.clock.now();
    const counts = { created: 0, skipped: 0, overwritten: 0 };
    const target = (namespace: string) => ({ ownerId: me.id, ownerHandle: me.handle, namespace, access: 'owner' as const });
    await ctx.db.transaction(async (tx) => {
      for (const [i, l] of lines.entries()) {
        const versions = [...l.versions].sort((a, b) => a.version - b.version);
        const newest = versions[versions.length - 1];
        const exists = await getEntry(tx, ctx.db.dialect, me.id, l.namespace, l.key, now);
        if (exists) {
          if (input.on_conflict === 'fail') throw new GatewayError('conflict', `Line ${i + 1}: ${l.namespace}/${l.key} exists; nothing was imported.`, { extra: { line: i + 1 } });
          if (input.on_conflict === 'skip') {
            counts.skipped++;
            continue;
          }
          await putOne(ctx, target(l.namespace), { namespace: l.namespace, key: l.key, value: newest.value as never, visibility: l.visibility, tags: l.tags, pinned: l.pinned }, tx);
          counts.overwritten++;
          continue;
        }
        await insertWithHistory(
          tx,
          ctx.db.dialect,
          {
            ownerId: me.id,
            namespace: l.namespace,
            key: l.key,
            visibility: l.visibility,
            tags: JSON.stringify(l.tags),
            pinned: l.pinned ? 1 : 0,
            expiresAt: l.expires_at ? Date.parse(l.expires_at) : null,
            writtenBy: me.id,
            createdAt: l.created_at ? Date.parse(l.created_at) : now,
          },
          versions.map((v) => ({ version: v.version, value: JSON.stringify(v.value), written_at: Date.parse(v.written_at) })),
        );
        counts.created++;
      }
      await settleStorageCharge(tx, me.id);
    });
    ctx.services.bus.emit('memory:changed', { ownerId: me.id });
    return { lines: lines.length, ...counts };
  },
});

export const transferTools = [memoryExport, memoryImport];
