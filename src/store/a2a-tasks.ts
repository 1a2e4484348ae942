// SQL for A2A tasks (migration 011). Status, history and artifacts are JSON columns: a task is read and
// written whole. Updates name the states they may leave, so a cancel and a finishing job cannot both win.
import type { Queryable } from './db.js';

export const TERMINAL_STATES = ['completed', 'canceled', 'failed', 'rejected'] as const;

export interface TaskRow {
  id: string;
  context_id: string;
  agent_id: string | null;
  state: string;
  status: string;
  history: string;
  artifacts: string;
  waiting_kind: 'job' | 'handoff' | null;
  waiting_ref: string | null;
  created_at: number;
  updated_at: number;
}

export type TaskWrite = Omit<TaskRow, 'created_at'>;

const COLUMNS = 'id, context_id, agent_id, state, status, history, artifacts, waiting_kind, waiting_ref, created_at, updated_at';
const NOT_TERMINAL = `state NOT IN (${TERMINAL_STATES.map((s) => `'${s}'`).join(', ')})`;

/** Inserts a new task; concurrent inserts share the writer's commits. */
export async function insertTask(q: Queryable, t: TaskWrite & { created_at: number }): Promise<void> {
  await q.run(`INSERT INTO a2a_tasks (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
    t.id,
    t.context_id,
    t.agent_id,
    t.state,
    t.status,
    t.history,
    t.artifacts,
    t.waiting_kind,
    t.waiting_ref,
    t.created_at,
    t.updated_at,
  ]);
}

export const taskById = (q: Queryable, id: string) => q.get<TaskRow>(`SELECT ${COLUMNS} FROM a2a_tasks WHERE id = ?`, [id]);

/** Rewrites a task that is not terminal yet; false when it was (or is gone). */
export async function updateOpenTask(q: Queryable, t: TaskWrite): Promise<boolean> {
  const r = await q.run(
    `UPDATE a2a_tasks SET state = ?, status = ?, history = ?, artifacts = ?, waiting_kind = ?, waiting_ref = ?, updated_at = ?
     WHERE id = ? AND ${NOT_TERMINAL}`,
    [t.state, t.status, t.history, t.artifacts, t.waiting_kind, t.waiting_ref, t.updated_at, t.id],
  );
  return r.changes > 0;
}

/** Open tasks waiting for one job or handoff. */
export const tasksWaitingOn = (q: Queryable, kind: 'job' | 'handoff', ref: string) =>
  q.all<TaskRow>(`SELECT ${COLUMNS} FROM a2a_tasks WHERE waiting_kind = ? AND waiting_ref = ? AND ${NOT_TERMINAL}`, [kind, ref]);

/** Every open task that waits for durable work (checked once at start-up). */
export const waitingTasks = (q: Queryable, limit: number) =>
  q.all<TaskRow>(`SELECT ${COLUMNS} FROM a2a_tasks WHERE waiting_ref IS NOT NULL AND ${NOT_TERMINAL} ORDER BY created_at LIMIT ?`, [limit]);

/** The latest tasks of a conversation for one owner (agent, or anonymous), newest first. */
export const contextTasks = (q: Queryable, contextId: string, agentId: string | null, limit: number) =>
  q.all<Pick<TaskRow, 'history'>>(
    `SELECT history FROM a2a_tasks WHERE context_id = ?1 AND (agent_id = ?2 OR (agent_id IS NULL AND ?2 IS NULL))
     ORDER BY created_at DESC LIMIT ?3`,
    [contextId, agentId, limit],
  );

/** The rows of listened tasks as the task hub's poll reads them (src/a2a/hub.ts), for moves made elsewhere. */
export const polledTasks = <T>(q: Queryable, ids: string[]) =>
  q.all<T>(`SELECT id, context_id, state, status, artifacts, waiting_ref FROM a2a_tasks WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);

export interface TaskListQuery {
  agentId: string;
  contextId?: string;
  state?: string;
  /** Only tasks updated at or after this time (ms). */
  updatedFrom?: number;
  /** Resume after this task of the previous page (updated_at, id), newest first. */
  after?: { updatedAt: number; id: string };
  limit: number;
}

const listFilter = (o: TaskListQuery, params: (string | number)[]) => {
  const where = ['agent_id = ?'];
  params.push(o.agentId);
  if (o.contextId !== undefined) where.push('context_id = ?'), params.push(o.contextId);
  if (o.state !== undefined) where.push('state = ?'), params.push(o.state);
  if (o.updatedFrom !== undefined) where.push('updated_at >= ?'), params.push(o.updatedFrom);
  return where;
};

/** An agent's tasks, newest update first, one page (A2A v1.0 ListTasks), and how many match in all. */
export async function listTasks(q: Queryable, o: TaskListQuery): Promise<{ rows: TaskRow[]; total: number }> {
  const countParams: (string | number)[] = [];
  const countWhere = listFilter(o, countParams);
  const total = Number((await q.get<{ n: number }>(`SELECT COUNT(*) AS n FROM a2a_tasks WHERE ${countWhere.join(' AND ')}`, countParams))?.n ?? 0);
  const params: (string | number)[] = [];
  const where = listFilter(o, params);
  if (o.after) where.push('(updated_at < ? OR (updated_at = ? AND id < ?))'), params.push(o.after.updatedAt, o.after.updatedAt, o.after.id);
  params.push(o.limit);
  const rows = await q.all<TaskRow>(`SELECT ${COLUMNS} FROM a2a_tasks WHERE ${where.join(' AND ')} ORDER BY updated_at DESC, id DESC LIMIT ?`, params, { heavy: true });
  return { rows, total };
}
