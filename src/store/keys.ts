// SQL for API keys and their monthly counters.
import type { Db, Queryable } from './db.js';

export interface KeyRow {
  id: string;
  tier: 'free' | 'pro' | 'enterprise';
  hint: string;
  created_at: number;
  revoked_at: number | null;
  /** The agent that issued the key, when one did (POST /keys/issue with its secret), and since when it is suspended. */
  agent_id: string | null;
  suspended_at: number | null;
}

export interface NewKey {
  id: string;
  hash: string;
  hint: string;
  emailHash: string;
  clientHash: string;
  tier: string;
  agentId: string | null;
  now: number;
}

export async function insertKey(q: Queryable, k: NewKey): Promise<void> {
  await q.run(
    'INSERT INTO api_keys (id, key_hash, hint, email_hash, client_hash, tier, agent_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [k.id, k.hash, k.hint, k.emailHash, k.clientHash, k.tier, k.agentId, k.now],
  );
}

/** The limits an issue is checked against: free keys per email, and keys per client address since a time. */
export interface KeyLimits {
  freePerEmail?: number;
  perClient?: { limit: number; since: number };
}

/**
 * Inserts the key unless a limit is reached; returns the limit that refused it ('email' checked first), or null.
 * Count then insert: run it in a transaction that holds the issue lock (KeyService), so no other issue counts or
 * inserts between the two, on either store and across instances.
 */
export async function insertKeyWithin(tx: Queryable, k: NewKey, limits: KeyLimits): Promise<'email' | 'client' | null> {
  if (limits.freePerEmail !== undefined && k.tier === 'free' && (await countKeys(tx, { emailHash: k.emailHash, tier: 'free' })) >= limits.freePerEmail) return 'email';
  if (limits.perClient && (await countKeys(tx, { clientHash: k.clientHash, since: limits.perClient.since })) >= limits.perClient.limit) return 'client';
  await insertKey(tx, k);
  return null;
}

export const keyByHash = (db: Db, hash: string): Promise<KeyRow | undefined> =>
  db.get<KeyRow>(
    'SELECT k.id, k.tier, k.hint, k.created_at, k.revoked_at, k.agent_id, a.suspended_at FROM api_keys k LEFT JOIN agents a ON a.id = k.agent_id WHERE k.key_hash = ?',
    [hash],
  );

export async function countKeys(q: Queryable, by: { emailHash?: string; clientHash?: string; tier?: string; since?: number }): Promise<number> {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (by.emailHash) where.push('email_hash = ?'), params.push(by.emailHash);
  if (by.clientHash) where.push('client_hash = ?'), params.push(by.clientHash);
  if (by.tier) where.push('tier = ?'), params.push(by.tier);
  if (by.since !== undefined) where.push('created_at >= ?'), params.push(by.since);
  const row = await q.get<{ n: number }>(`SELECT COUNT(*) AS n FROM api_keys WHERE ${where.join(' AND ') || '1'}`, params);
  return row?.n ?? 0;
}

/**
 * Adds `n` to a counter unless that would pass `limit`; returns the new value, or null when refused.
 * One statement, so it is atomic even across gateway processes sharing the database.
 */
export async function consume(q: Queryable, keyId: string, period: string, scope: string, n: number, limit: number): Promise<number | null> {
  const row = await q.get<{ used: number }>(
    `INSERT INTO key_usage (key_id, period, scope, used) SELECT ?, ?, ?, ? WHERE ? <= ?
     ON CONFLICT (key_id, period, scope) DO UPDATE SET used = key_usage.used + excluded.used WHERE key_usage.used + excluded.used <= ?
     RETURNING used`,
    [keyId, period, scope, n, n, limit, limit],
  );
  return row?.used ?? null;
}

export async function refund(db: Db, keyId: string, period: string, scope: string, n: number): Promise<void> {
  await db.run('UPDATE key_usage SET used = CASE WHEN used > ?1 THEN used - ?1 ELSE 0 END WHERE key_id = ?2 AND period = ?3 AND scope = ?4', [n, keyId, period, scope]);
}

export async function usageOf(db: Db, keyId: string, period: string): Promise<Record<string, number>> {
  const rows = await db.all<{ scope: string; used: number }>('SELECT scope, used FROM key_usage WHERE key_id = ? AND period = ?', [keyId, period]);
  return Object.fromEntries(rows.map((r) => [r.scope, r.used]));
}

/** Revokes the unrevoked keys issued with an agent's secret (the secret rotated); returns how many. */
export async function revokeAgentKeys(q: Queryable, agentId: string, now: number): Promise<number> {
  return (await q.run('UPDATE api_keys SET revoked_at = ? WHERE agent_id = ? AND revoked_at IS NULL', [now, agentId])).changes;
}
