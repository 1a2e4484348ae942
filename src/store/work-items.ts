// SQL for the scheduler's durable work items: enqueue, claim under a lease, finish, retry, release.
import type { BatchStatement, Db, Queryable } from './db.js';

export interface WorkItem {
  id: number;
  kind: string;
  ref: string;
  due_at: number;
  attempts: number;
}

/** Schedules (or reschedules) the one item of a kind for a ref. */
/** The enqueue as a statement, to commit in one batch with the change that makes the work. */
export const enqueueStatement = (kind: string, ref: string, dueAt: number, now: number): BatchStatement => ({
  sql: `INSERT INTO work_items (kind, ref, due_at, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (kind, ref) DO UPDATE SET due_at = excluded.due_at, attempts = 0, last_error = NULL`,
  params: [kind, ref, dueAt, now],
});

export async function enqueue(q: Queryable, kind: string, ref: string, dueAt: number, now: number): Promise<void> {
  const s = enqueueStatement(kind, ref, dueAt, now);
  await q.run(s.sql, s.params);
}

/**
 * Claims up to `limit` due items no live lease holds, in one statement: two processes can never claim the
 * same item. The lease expires at `leaseUntil`; a crashed owner's items become claimable again then.
 * On PostgreSQL, instances claim at once: the inner SELECT skips rows another instance's claim has locked
 * (FOR UPDATE SKIP LOCKED), and the outer WHERE checks the lease again on the row as it is when locked.
 */
export const claimDue = (db: Db, o: { owner: string; now: number; leaseUntil: number; limit: number; kinds: string[] }) =>
  db.all<WorkItem>(
    `UPDATE work_items SET lease_owner = ?1, lease_until = ?2
     WHERE id IN (SELECT id FROM work_items WHERE due_at <= ?3 AND (lease_until IS NULL OR lease_until < ?3)
                  AND kind IN (${o.kinds.map((_, i) => `?${i + 5}`).join(',')}) ORDER BY due_at LIMIT ?4${db.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : ''})
       AND (lease_until IS NULL OR lease_until < ?3)
     RETURNING id, kind, ref, due_at, attempts`,
    [o.owner, o.leaseUntil, o.now, o.limit, ...o.kinds],
  );

/** Finished: removed, unless someone else took it over (our lease is the proof we may act). */
export const finish = (q: Queryable, id: number, owner: string) => q.run('DELETE FROM work_items WHERE id = ? AND lease_owner = ?', [id, owner]);

export const reschedule = (q: Queryable, id: number, owner: string, dueAt: number, error: string | null, attempts: number) =>
  q.run('UPDATE work_items SET due_at = ?, lease_owner = NULL, lease_until = NULL, last_error = ?, attempts = ? WHERE id = ? AND lease_owner = ?', [
    dueAt,
    error,
    attempts,
    id,
    owner,
  ]);

/** Gives back every lease an owner holds (graceful shutdown). */
export const releaseAll = (db: Db, owner: string) => db.run('UPDATE work_items SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?', [owner]);

export const cancel = (q: Queryable, kind: string, ref: string) => q.run('DELETE FROM work_items WHERE kind = ? AND ref = ?', [kind, ref]);

/** The earliest due time in (now, before] of an item no live lease holds, or null. */
export const nextDue = async (db: Db, now: number, before: number): Promise<number | null> =>
  (await db.get<{ d: number | null }>('SELECT MIN(due_at) AS d FROM work_items WHERE due_at > ? AND due_at <= ? AND (lease_until IS NULL OR lease_until < ?)', [now, before, now]))?.d ?? null;
