// SQL for the notification tray.
import type { BatchStatement, Db, Queryable } from '../../src/store/db.js';

export interface NotificationRow {
  id: number;
  kind: string;
  title: string;
  data: string;
  created_at: number;
  read_at: number | null;
}

/** How many of an agent's latest unread entries are searched for a twin: enough for a toggle, at a bounded cost. */
const TWIN_WINDOW = 50;

/** A notification's insert, its values `notificationValues` in this order: for a statement that adds one beside another write. */
export const NOTIFICATION_INSERT = 'INSERT INTO notifications (agent_id, kind, title, data, created_at)';

export const notificationValues = (agentId: string, n: { kind: string; title: string; data?: unknown }, now: number) => [
  agentId,
  n.kind,
  n.title,
  JSON.stringify(n.data ?? {}),
  now,
];

/** The statement that adds an entry and returns its id (no row when `once` found its twin: see addNotification). */
function insertStatement(agentId: string, n: { kind: string; title: string; data: unknown }, now: number, once: boolean): BatchStatement {
  const twin = `SELECT 1 FROM (SELECT kind, data FROM notifications WHERE agent_id = ?1 AND read_at IS NULL ORDER BY id DESC LIMIT ${TWIN_WINDOW}) AS latest WHERE kind = ?2 AND data = ?4`;
  return { sql: `${NOTIFICATION_INSERT} SELECT ?1, ?2, ?3, ?4, ?5 ${once ? `WHERE NOT EXISTS (${twin})` : ''} RETURNING id`, params: notificationValues(agentId, n, now), rows: true };
}

/**
 * Adds an entry and answers its id. `once`: not while the same entry (kind and data) still waits unread among
 * the agent's latest; nothing is added then and the answer is null. That check is exact on SQLite (one writer);
 * addNotificationOnce makes it exact on PostgreSQL too.
 */
export async function addNotification(q: Queryable, agentId: string, n: { kind: string; title: string; data: unknown }, now: number, once = false): Promise<number | null> {
  const s = insertStatement(agentId, n, now, once);
  return (await q.get<{ id: number }>(s.sql, s.params))?.id ?? null;
}

/**
 * addNotification with `once`, checked and inserted under the agent's lock (a keyed batch): on PostgreSQL two
 * concurrent twins would each miss the other's uncommitted row and both be added (docs/decisions/limits.md).
 */
export async function addNotificationOnce(db: Db, agentId: string, n: { kind: string; title: string; data: unknown }, now: number): Promise<number | null> {
  const [rows] = (await db.batch([insertStatement(agentId, n, now, true)], { lockKey: `notify-once:${agentId}` })) as [{ id: number }[]];
  return rows[0]?.id ?? null;
}

/** Unread first (newest first), then read ones; `unreadOnly` leaves the read ones out. */
export const listNotifications = (db: Db, agentId: string, o: { limit: number; offset: number; unreadOnly: boolean; kind: string | null }) =>
  db.all<NotificationRow>(
    `SELECT id, kind, title, data, created_at, read_at FROM notifications
     WHERE agent_id = ? AND (? = 0 OR read_at IS NULL) AND (CAST(? AS TEXT) IS NULL OR kind = ?)
     ORDER BY read_at IS NOT NULL, id DESC LIMIT ? OFFSET ?`,
    [agentId, o.unreadOnly ? 1 : 0, o.kind, o.kind, o.limit, o.offset],
  );

export const unreadCount = async (db: Db, agentId: string): Promise<number> =>
  (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM notifications WHERE agent_id = ? AND read_at IS NULL', [agentId]))?.n ?? 0;

/** Marks some (ids) or all of an agent's notifications read; returns how many changed. */
export async function markRead(db: Db, agentId: string, ids: number[] | 'all', now: number): Promise<number> {
  if (ids === 'all') return (await db.run('UPDATE notifications SET read_at = ? WHERE agent_id = ? AND read_at IS NULL', [now, agentId])).changes;
  if (ids.length === 0) return 0;
  return (await db.run(`UPDATE notifications SET read_at = ? WHERE agent_id = ? AND read_at IS NULL AND id IN (${ids.map(() => '?').join(',')})`, [now, agentId, ...ids])).changes;
}

export const deleteNotification = async (db: Db, agentId: string, id: number): Promise<boolean> =>
  (await db.run('DELETE FROM notifications WHERE agent_id = ? AND id = ?', [agentId, id])).changes > 0;
