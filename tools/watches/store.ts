// SQL for watches.
import type { Db, Queryable } from '../../src/store/db.js';

export type WatchStatus = 'active' | 'paused' | 'expired' | 'cancelled';

export interface WatchRow {
  id: string;
  agent_id: string;
  /** The owner's handle (joined from agents). */
  owner: string;
  url: string;
  interval_hours: number;
  mode: 'raw' | 'text' | 'selector';
  selector: string | null;
  callback_url: string | null;
  status: WatchStatus;
  created_at: number;
  renewed_at: number;
  expires_at: number;
  owner_seen_at: number;
  last_checked_at: number | null;
  last_hash: string | null;
  last_artifact_id: string | null;
  last_changed_at: number | null;
  last_error: string | null;
  consecutive_failures: number;
  checks: number;
  changes: number;
}

export async function insertWatch(q: Queryable, w: Pick<WatchRow, 'id' | 'agent_id' | 'url' | 'interval_hours' | 'mode' | 'selector' | 'callback_url'>, now: number, expiresAt: number): Promise<void> {
  await q.run(
    `INSERT INTO watches (id, agent_id, url, interval_hours, mode, selector, callback_url, status, created_at, renewed_at, expires_at, owner_seen_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?)`,
    [w.id, w.agent_id, w.url, w.interval_hours, w.mode, w.selector, w.callback_url, now, now, expiresAt, now],
  );
}

const SELECT = 'SELECT w.*, a.handle AS owner FROM watches w JOIN agents a ON a.id = w.agent_id';

export const watchById = (q: Queryable, id: string) => q.get<WatchRow>(`${SELECT} WHERE w.id = ?`, [id]);

export const watchesOf = (db: Db, agentId: string) => db.all<WatchRow>(`${SELECT} WHERE w.agent_id = ? ORDER BY w.created_at`, [agentId]);

export const liveCount = async (q: Queryable, agentId: string): Promise<number> =>
  (await q.get<{ n: number }>("SELECT COUNT(*) AS n FROM watches WHERE agent_id = ? AND status IN ('active', 'paused')", [agentId]))?.n ?? 0;

export const cancel = (q: Queryable, id: string) => q.run("UPDATE watches SET status = 'cancelled' WHERE id = ?", [id]);

/**
 * An active watch pausing or expiring by the deadlines of `read`, the row as it was read: one cancelled, renewed or
 * listed since (its status or deadlines moved) is left as it is.
 */
export const leaveActive = (q: Queryable, read: Pick<WatchRow, 'id' | 'expires_at' | 'owner_seen_at'>, status: WatchStatus) =>
  q.run("UPDATE watches SET status = ? WHERE id = ? AND status = 'active' AND expires_at = ? AND owner_seen_at = ?", [status, read.id, read.expires_at, read.owner_seen_at]);

export const touchOwner = (db: Db, agentId: string, now: number) => db.run('UPDATE watches SET owner_seen_at = ? WHERE agent_id = ?', [now, agentId]);

export const renew = (q: Queryable, id: string, now: number, expiresAt: number) =>
  q.run("UPDATE watches SET status = 'active', renewed_at = ?, expires_at = ?, owner_seen_at = ?, consecutive_failures = 0 WHERE id = ?", [now, expiresAt, now, id]);

export const recordCheck = (q: Queryable, id: string, c: { now: number; hash: string; artifactId: string | null; changed: boolean }) =>
  q.run(
    `UPDATE watches SET last_checked_at = ?, last_hash = ?, last_artifact_id = coalesce(?, last_artifact_id), last_error = NULL, consecutive_failures = 0,
       checks = checks + 1, changes = changes + ?, last_changed_at = CASE WHEN ? = 1 THEN ? ELSE last_changed_at END WHERE id = ?`,
    [c.now, c.hash, c.artifactId, c.changed ? 1 : 0, c.changed ? 1 : 0, c.now, id],
  );

export const recordFailure = (q: Queryable, id: string, now: number, error: string) =>
  q.run('UPDATE watches SET last_checked_at = ?, last_error = ?, consecutive_failures = consecutive_failures + 1, checks = checks + 1 WHERE id = ?', [now, error, id]);
