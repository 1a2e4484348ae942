// SQL for mail: every query names the caller as a party, so another agent's mail can never be read.
import type { Db } from '../../../src/store/db.js';

export interface MailRow {
  id: number;
  from_handle: string;
  to_handle: string;
  from_id: string;
  to_id: string;
  subject: string;
  body: string;
  created_at: number;
  read_at: number | null;
}

const COLS = 'm.id, f.handle AS from_handle, t.handle AS to_handle, m.from_id, m.to_id, m.subject, m.body, m.created_at, m.read_at';
const JOINS = 'mail m JOIN agents f ON f.id = m.from_id JOIN agents t ON t.id = m.to_id';

export const insertMail = async (db: Db, m: { fromId: string; toId: string; subject: string; body: string; now: number }): Promise<number> =>
  (await db.get<{ id: number }>('INSERT INTO mail (from_id, to_id, subject, body, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id', [m.fromId, m.toId, m.subject, m.body, m.now]))!.id;

export const inbox = (db: Db, agentId: string, o: { limit: number; before: number | null; unreadOnly: boolean }) =>
  db.all<MailRow>(
    `SELECT ${COLS} FROM ${JOINS} WHERE m.to_id = ? AND m.recipient_deleted = 0 AND m.id < ? AND (? = 0 OR m.read_at IS NULL) ORDER BY m.id DESC LIMIT ?`,
    [agentId, o.before ?? Number.MAX_SAFE_INTEGER, o.unreadOnly ? 1 : 0, o.limit],
  );

export const sent = (db: Db, agentId: string, o: { limit: number; before: number | null }) =>
  db.all<MailRow>(`SELECT ${COLS} FROM ${JOINS} WHERE m.from_id = ? AND m.sender_deleted = 0 AND m.id < ? ORDER BY m.id DESC LIMIT ?`, [
    agentId,
    o.before ?? Number.MAX_SAFE_INTEGER,
    o.limit,
  ]);

/** One message, only if the agent is a party that has not removed it from its view. */
export const mailFor = (db: Db, id: number, agentId: string) =>
  db.get<MailRow>(
    `SELECT ${COLS} FROM ${JOINS} WHERE m.id = ?1 AND ((m.to_id = ?2 AND m.recipient_deleted = 0) OR (m.from_id = ?2 AND m.sender_deleted = 0))`,
    [id, agentId],
  );

export const markRead = async (db: Db, id: number, recipientId: string, now: number): Promise<void> => {
  await db.run('UPDATE mail SET read_at = ? WHERE id = ? AND to_id = ? AND read_at IS NULL', [now, id, recipientId]);
};

export const unreadMail = async (db: Db, agentId: string): Promise<number> =>
  (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM mail WHERE to_id = ? AND recipient_deleted = 0 AND read_at IS NULL', [agentId]))?.n ?? 0;

/** Removes a message from one party's view; the row goes once both parties removed it. */
export async function removeFor(db: Db, id: number, agentId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const changed =
      (await tx.run('UPDATE mail SET recipient_deleted = 1 WHERE id = ? AND to_id = ? AND recipient_deleted = 0', [id, agentId])).changes +
      (await tx.run('UPDATE mail SET sender_deleted = 1 WHERE id = ? AND from_id = ? AND sender_deleted = 0', [id, agentId])).changes;
    await tx.run('DELETE FROM mail WHERE id = ? AND sender_deleted = 1 AND recipient_deleted = 1', [id]);
    return changed > 0;
  });
}
