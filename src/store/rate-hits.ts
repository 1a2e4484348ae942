// SQL of the rate windows shared by instances on PostgreSQL (src/shared-rate-window.ts): hits of one hashed key.
import type { Queryable } from './db.js';

/**
 * In a transaction (serialised across instances): drops hits older than `keepBefore`, then records a hit unless
 * `limit` hits fall inside the window. Returns null when recorded, else the time of the window's first hit.
 */
export async function takeHit(tx: Queryable, o: { key: string; now: number; windowMs: number; limit: number; keepBefore: number }): Promise<number | null> {
  await tx.run('DELETE FROM rate_hits WHERE at <= ?', [o.keepBefore]);
  const row = await tx.get<{ n: number; first: number | null }>('SELECT COUNT(*) AS n, MIN(at) AS first FROM rate_hits WHERE key = ? AND at > ?', [o.key, o.now - o.windowMs]);
  if (row && row.n >= o.limit) return row.first!;
  await tx.run('INSERT INTO rate_hits (key, at) VALUES (?, ?)', [o.key, o.now]);
  return null;
}
