// SQL for blob bookkeeping: which blobs exist, and which no live artifact references any more.
import type { BatchStatement, Db } from './db.js';

/** The statement that records a blob (once), for the batch that attaches it to an artifact. */
export const recordBlob = (sha256: string, bytes: number, now: number): BatchStatement => ({
  sql: 'INSERT INTO blobs (sha256, bytes, created_at) VALUES (?, ?, ?) ON CONFLICT (sha256) DO NOTHING',
  params: [sha256, bytes, now],
});

const UNREFERENCED = 'NOT EXISTS (SELECT 1 FROM artifacts a WHERE a.sha256 = b.sha256 AND a.expires_at > ?)';

/** Blobs no live artifact points to (created before `before`, so a blob being attached now is left alone). */
export const orphanBlobs = async (db: Db, now: number, before: number, limit: number): Promise<string[]> =>
  (await db.all<{ sha256: string }>(`SELECT sha256 FROM blobs b WHERE created_at < ? AND ${UNREFERENCED} LIMIT ?`, [before, now, limit])).map((r) => r.sha256);

/** Forgets a blob if it is still unreferenced; true when its file may be removed. */
export const dropBlob = async (db: Db, sha256: string, now: number): Promise<boolean> =>
  (await db.run(`DELETE FROM blobs AS b WHERE sha256 = ? AND ${UNREFERENCED}`, [sha256, now])).changes > 0;
