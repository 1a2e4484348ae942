// SQL of the rate windows shared by instances on PostgreSQL (src/shared-rate-window.ts): hits of one hashed key.
import type { Queryable } from './db.js';

/**
 * In a transaction holding the key's lock (serialised with the key's other takes across instances): drops the
 * key's hits that left the window, then records a hit unless `limit` hits fall inside it. Returns null when
 * recorded, else the time of the window's first hit.
 */
export async function takeHit(tx: Queryable, o: { key: string; now: number; windowMs: number; limit: number }): Promise<number | null> {
  await tx.run('DELETE FROM rate_hits WHERE key = ? AND at <= ?', [o.key, o.now - o.windowMs]);
  const row = await tx.get<{ n: number; first: number | null }>('SELECT COUNT(*) AS n, MIN(at) AS first FROM rate_hits WHERE key = ? AND at > ?', [o.key, o.now - o.windowMs]);
  if (row && row.n >= o.limit) return row.first!;
  await tx.run('INSERT INTO rate_hits (key, at) VALUES (?, ?)', [o.key, o.now]);
  return null;
}

/** Drops every key's hits older than `before` (keys no longer used keep none for long). */
export const pruneHits = (db: Queryable, before: number) => db.run('DELETE FROM rate_hits WHERE at <= ?', [before]);
