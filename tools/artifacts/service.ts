// Storing an artifact: bytes into the blob store, metadata into the database. Uploads, job bundles and
// watch snapshots all come through here.
import { randomBytes } from 'node:crypto';
import type { Content } from '../../src/blobs/content.js';
import type { ToolContext } from '../../src/registry/types.js';
import { recordBlob } from '../../src/store/blobs.js';
import { insertArtifact, type ArtifactRow } from './store.js';

export const ANON_MAX_BYTES = 1024 * 1024;
export const AGENT_MAX_BYTES = 5 * 1024 * 1024;
export const ANON_MAX_TTL = 24 * 3600;
export const AGENT_MAX_TTL = 7 * 24 * 3600;

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
  await ctx.db.batch([recordBlob(sha256, size, now), insertArtifact({ ...row, client_key: o.clientKey ?? null })]);
  // The orphan sweep may have removed an identical old blob between put() and the insert: store it again.
  if (!(await ctx.services.blobs.has(sha256))) await ctx.services.blobs.put(o.content);
  return describeArtifact(ctx, row);
}
