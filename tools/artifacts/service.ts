// Storing an artifact: bytes into the blob store, metadata into the database. Uploads, job bundles and
// watch snapshots all come through here.
import { randomBytes } from 'node:crypto';
import type { Content } from '../../src/blobs/content.js';
import type { ToolContext } from '../../src/registry/types.js';
import { recordBlob } from '../../src/store/blobs.js';
import type { RunResult } from '../../src/store/db.js';
import { storageUsed } from '../../src/store/storage-budget.js';
import { GatewayError } from '../../src/errors.js';
import { STORAGE_ROW_BYTES, storageBudgetAnswer, storageBudgetRefusal } from '../../src/storage-budget.js';
import { insertArtifact, liveBytes, type ArtifactRow } from './store.js';

export const ANON_MAX_BYTES = 1024 * 1024;
export const AGENT_MAX_BYTES = 5 * 1024 * 1024;
export const ANON_MAX_TTL = 24 * 3600;
export const AGENT_MAX_TTL = 7 * 24 * 3600;

/** The owner's live artifacts and this one would pass GATEWAY_ARTIFACT_MAX_BYTES. */
const quotaFull = (limit: number, used: number, size: number) =>
  new GatewayError(
    'payload_too_large',
    `This artifact (${size} bytes) would take your live artifacts past their quota of ${limit} bytes (GATEWAY_ARTIFACT_MAX_BYTES); they hold ${used} bytes now. Room comes back as they expire (ttl_seconds, at most 7 days).`,
    { extra: { quota: 'artifact_bytes', limit, used, size } },
  );

/** A 192-bit random, URL-safe capability token. */
export const newArtifactId = (): string => `art_${randomBytes(24).toString('base64url')}`;

export const artifactUrl = (ctx: { config: { baseUrl: string } }, id: string): string => `${ctx.config.baseUrl}/artifacts/${id}`;

export function describeArtifact(ctx: { config: { baseUrl: string } }, a: ArtifactRow) {
  return {
    id: a.id,
    url: artifactUrl(ctx, a.id),
    bytes: a.bytes,
    sha256: a.sha256,
    content_type: a.content_type,
    filename: a.filename,
    source: a.source,
    created_at: new Date(a.created_at).toISOString(),
    expires_at: new Date(a.expires_at).toISOString(),
  };
}

export async function storeArtifact(
  ctx: Pick<ToolContext, 'db' | 'clock' | 'config' | 'services'>,
  o: { content: Content; contentType: string; filename: string; ttlSeconds: number; agentId: string | null; source: string; clientKey?: string | null },
) {
  const now = ctx.clock.now();
  const { sha256, size } = o.content;
  const quota = o.agentId ? ctx.config.artifacts.maxBytesPerAgent : undefined;
  // Refused before its bytes are written when the quota is plainly full; the insert checks again, exactly.
  if (o.agentId && quota !== undefined) {
    const used = await liveBytes(ctx.db, o.agentId, now);
    if (used + size > quota) throw quotaFull(quota, used, size);
    // The owner's storage budget, likewise (migration 044 charges the row: its bytes, its names and 256).
    const [held, budget] = [await storageUsed(ctx.db, o.agentId), ctx.config.storageBudget.bytesPerOwner];
    const charge = size + Buffer.byteLength(o.filename) + Buffer.byteLength(o.contentType) + STORAGE_ROW_BYTES;
    if (held + charge > budget) {
      const full = storageBudgetAnswer(held, charge, budget);
      throw new GatewayError('payload_too_large', full.message, { extra: full.extra });
    }
  }
  await ctx.services.blobs.put(o.content);
  const row: ArtifactRow = {
    id: newArtifactId(),
    agent_id: o.agentId,
    sha256,
    bytes: size,
    content_type: o.contentType,
    filename: o.filename,
    source: o.source,
    created_at: now,
    expires_at: now + o.ttlSeconds * 1000,
  };
  // Keyed by the owner: its uploads check the quota one after another (TxOptions), others' go beside them (an
  // anonymous one has no quota: keyed by itself). A refused row leaves the blob recorded, so the orphan sweep
  // removes its bytes. The storage budget refuses by aborting the batch: the blob is then recorded on its own.
  const blob = recordBlob(sha256, size, now);
  let inserted: RunResult;
  try {
    [, inserted] = (await ctx.db.batch([blob, insertArtifact({ ...row, client_key: o.clientKey ?? null }, quota)], {
      lockKey: `artifacts:${o.agentId ?? row.id}`,
    })) as [unknown, RunResult];
  } catch (err) {
    if (storageBudgetRefusal(err)) await ctx.db.run(blob.sql, blob.params);
    throw err;
  }
  if (inserted.changes === 0) throw quotaFull(quota!, await liveBytes(ctx.db, o.agentId!, now), size);
  // The orphan sweep may have removed an identical old blob between put() and the insert: store it again.
  if (!(await ctx.services.blobs.has(sha256))) await ctx.services.blobs.put(o.content);
  return describeArtifact(ctx, row);
}
