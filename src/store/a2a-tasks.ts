// SQL for A2A tasks (migration 011). Status, history and artifacts are JSON columns: a task is read and
// written whole. Updates name the states they may leave, so a cancel and a finishing job cannot both win.
import type { Db, Queryable } from './db.js';

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

// The hot statements' texts, made once: a text built per call is a new string whose hash the writer's and the
// statement cache's lookups compute again each time.
const INSERT = `INSERT INTO a2a_tasks (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const BY_ID = `SELECT ${COLUMNS} FROM a2a_tasks WHERE id = ?`;
const UPDATE_OPEN = `UPDATE a2a_tasks SET state = ?, status = ?, history = ?, artifacts = ?, waiting_kind = ?, waiting_ref = ?, updated_at = ?
     WHERE id = ? AND ${NOT_TERMINAL}`;

/** Inserts a new task; concurrent inserts share the writer's commits. */
export async function insertTask(q: Queryable, t: TaskWrite & { created_at: number }): Promise<void> {
  await q.run(INSERT, [
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

export const taskById = (q: Queryable, id: string) => q.get<TaskRow>(BY_ID, [id]);

/** Rewrites a task that is not terminal yet; false when it was (or is gone). */
export async function updateOpenTask(q: Queryable, t: TaskWrite): Promise<boolean> {
  const r = await q.run(UPDATE_OPEN, [t.state, t.status, t.history, t.artifacts, t.waiting_kind, t.waiting_ref, t.updated_at, t.id]);
  return r.changes > 0;
}

/**
 * A task that waits for no job or handoff and is not finished expires (issue 42): in input-required or
 * auth-required the next move is the client's (credentials, payment or an answer); in submitted or working it is
 * the gateway's own in-process work, which ends in seconds or minutes unless the process running it stopped. One
 * waiting for durable work ends with that work instead. (Migration 043's partial index holds exactly these rows.)
 */
const LEFT_WAITING = "state IN ('submitted', 'working', 'input-required', 'auth-required') AND waiting_ref IS NULL";

export interface Expiry {
  now: number;
  /** How long (ms) a task may wait for the client; it ends at the time it started waiting plus this. */
  afterMs: number;
  /** The reply's sentence for a task that was in auth-required, in input-required, and in submitted or working. */
  authText: string;
  inputText: string;
  stoppedText: string;
  limit: number;
}

/**
 * Ends at most `limit` tasks left in one of those states (LEFT_WAITING) for longer than `afterMs`: state
 * failed, with an agent message saying why as the status message and the last message of the history. The task ends
 * when its wait ran out (its `updated_at` plus `afterMs`), whenever the sweep sees it: that is its status timestamp
 * and its new `updated_at`, from which retention counts, so a sweep after a long stop ends and prunes old tasks at
 * once. One guarded UPDATE, built in SQL from each row's id, context and state (quoted as JSON by the database).
 * On SQLite the one writer runs it whole, and the outer WHERE repeats the condition. On PostgreSQL the due rows are
 * locked as they are chosen (FOR UPDATE SKIP LOCKED, which checks the condition again on a row changed meanwhile):
 * instances sweeping at once take different rows, and a message that continued a task first wins. There the ids are
 * an array made once (= ANY(ARRAY(…))), found by primary key: an IN over the LIMIT subquery may be planned as a
 * nested loop that reruns it for every waiting row. Returns how many ended.
 */
export async function expireInterruptedTasks(db: Pick<Db, 'run' | 'dialect'>, e: Expiry): Promise<number> {
  const pg = db.dialect === 'postgres';
  const quote = (x: string) => (pg ? `to_json(${x})::text` : `json_quote(${x})`);
  const text = (column: string) => (pg ? `${column}::text` : column);
  const json = (x: string) => (pg ? `(${x})::json` : x);
  // The end in ISO 8601 with milliseconds, as isoTime writes it (exact on both: integer milliseconds).
  const endedAt = pg
    ? `to_char(timestamp 'epoch' + (updated_at + ?2) * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : `strftime('%Y-%m-%dT%H:%M:%fZ', (updated_at + ?2) / 1000.0, 'unixepoch')`;
  const history = text('history');
  // The agent's message, as JSON text: every value a client could have chosen (the context id) is quoted by the database.
  const message =
    `'{"kind":"message","messageId":' || ${quote("'expired-' || id")} || ',"role":"agent","parts":[{"kind":"text","text":' || ` +
    `CASE state WHEN 'auth-required' THEN ?3 WHEN 'input-required' THEN ?4 ELSE ?7 END || '},{"kind":"data","data":{"reason":"expired","state":' || ${quote('state')} || ` +
    `',"waitedSeconds":' || ?5 || '}}],"taskId":' || ${quote('id')} || ',"contextId":' || ${quote('context_id')} || '}'`;
  const r = await db.run(
    `UPDATE a2a_tasks SET
       state = 'failed',
       status = ${json(`'{"state":"failed","message":' || ${message} || ',"timestamp":"' || ${endedAt} || '"}'`)},
       history = ${json(`CASE WHEN ${history} = '[]' THEN '[' || ${message} || ']' ELSE substr(${history}, 1, length(${history}) - 1) || ',' || ${message} || ']' END`)},
       updated_at = updated_at + ?2
     WHERE ${
       pg
         ? `id = ANY(ARRAY(SELECT id FROM a2a_tasks WHERE ${LEFT_WAITING} AND updated_at < ?1 ORDER BY updated_at LIMIT ?6 FOR UPDATE SKIP LOCKED))`
         : `id IN (SELECT id FROM a2a_tasks WHERE ${LEFT_WAITING} AND updated_at < ?1 ORDER BY updated_at LIMIT ?6) AND ${LEFT_WAITING} AND updated_at < ?1`
     }`,
    [e.now - e.afterMs, e.afterMs, JSON.stringify(e.authText), JSON.stringify(e.inputText), String(Math.round(e.afterMs / 1000)), e.limit, JSON.stringify(e.stoppedText)],
  );
  return r.changes;
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
