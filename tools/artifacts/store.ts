// SQL for artifact metadata (the bytes are in the blob store).
import type { BatchStatement, Db, Queryable } from '../../src/store/db.js';

export interface ArtifactRow {
  id: string;
  agent_id: string | null;
  sha256: string;
  bytes: number;
  content_type: string;
  filename: string;
  source: string;
  created_at: number;
  expires_at: number;
}

const COLS = 'id, agent_id, sha256, bytes, content_type, filename, source, created_at, expires_at';

/** Bytes of an agent's live artifacts, as an expression (parameters: the agent, now). */
const LIVE_BYTES = 'coalesce((SELECT SUM(bytes) FROM artifacts WHERE agent_id = ? AND expires_at > ?), 0)';

export const liveBytes = async (q: Queryable, agentId: string, now: number): Promise<number> =>
  (await q.get<{ n: number }>(`SELECT ${LIVE_BYTES} AS n`, [agentId, now]))?.n ?? 0;

/**
 * The statement that inserts an artifact row, for a batch with its blob record. With `maxBytes`, it inserts
 * nothing (0 changes) when the owner's live artifacts and this one would hold more.
 */
export const insertArtifact = (a: ArtifactRow & { client_key: string | null }, maxBytes?: number): BatchStatement => ({
  sql: `INSERT INTO artifacts (id, agent_id, sha256, bytes, content_type, filename, source, created_at, expires_at, client_key)
     SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
     WHERE CAST(? AS BIGINT) IS NULL OR ${LIVE_BYTES} + ? <= ?`,
  params: [a.id, a.agent_id, a.sha256, a.bytes, a.content_type, a.filename, a.source, a.created_at, a.expires_at, a.client_key, maxBytes ?? null, a.agent_id, a.created_at, a.bytes, maxBytes ?? 0],
});

export const artifactById = (db: Db, id: string): Promise<ArtifactRow | undefined> => db.get<ArtifactRow>(`SELECT ${COLS} FROM artifacts WHERE id = ?`, [id]);

export const listArtifacts = (db: Db, agentId: string, limit: number, offset: number, now: number) =>
  db.all<ArtifactRow>(`SELECT ${COLS} FROM artifacts WHERE agent_id = ? AND expires_at > ? ORDER BY created_at DESC, id LIMIT ? OFFSET ?`, [agentId, now, limit, offset]);

export const countArtifacts = async (db: Db, agentId: string, now: number): Promise<number> =>
  (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM artifacts WHERE agent_id = ? AND expires_at > ?', [agentId, now]))?.n ?? 0;

/**
 * Zeroes the bytes of expired artifacts, whose blobs the sweep is about to remove: the storage budget gives them back
 * (migration 044's artifacts_storage_au) while the row stays to answer 410. Nothing reads an expired row's size.
 * At most `limit` rows a statement, so a backlog does not hold the writer.
 */
export const releaseExpiredBytes = async (db: Db, now: number, limit: number): Promise<number> =>
  (await db.run('UPDATE artifacts SET bytes = 0 WHERE id IN (SELECT id FROM artifacts WHERE expires_at <= ? AND bytes > 0 LIMIT ?)', [now, limit])).changes;

/** Removes expired artifacts (rows only; unreferenced blobs go in the blob sweep). */
export const deleteExpired = async (db: Db, now: number): Promise<number> => (await db.run('DELETE FROM artifacts WHERE expires_at <= ?', [now])).changes;
