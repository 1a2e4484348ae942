// SQL for the notification tray.
import type { Db, Queryable } from '../../src/store/db.js';

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

/**
 * Adds an entry and answers its id. `once`: not while the same entry (kind and data) still waits unread among
 * the agent's latest; nothing is added then and the answer is null.
 */
export async function addNotification(q: Queryable, agentId: string, n: { kind: string; title: string; data: unknown }, now: number, once = false): Promise<number | null> {
  const twin = `SELECT 1 FROM (SELECT kind, data FROM notifications WHERE agent_id = ?1 AND read_at IS NULL ORDER BY id DESC LIMIT ${TWIN_WINDOW}) AS latest WHERE kind = ?2 AND data = ?4`;
  const row = await q.get<{ id: number }>(
    `${NOTIFICATION_INSERT} SELECT ?1, ?2, ?3, ?4, ?5 ${once ? `WHERE NOT EXISTS (${twin})` : ''} RETURNING id`,
    notificationValues(agentId, n, now),
  );
  return row?.id ?? null;
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
