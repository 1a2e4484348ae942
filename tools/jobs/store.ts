// SQL for jobs (errands).
import type { BatchStatement, Db, Queryable, SqlValue } from '../../src/store/db.js';
import { NOTIFICATION_INSERT, notificationValues } from '../notifications/store.js';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';

export interface JobRow {
  id: string;
  agent_id: string | null;
  type: string;
  input: string;
  status: JobStatus;
  result: string | null;
  error: string | null;
  attempts: number;
  callback_url: string | null;
  callback_secret: string | null;
  created_at: number;
  due_at: number;
  started_at: number | null;
  finished_at: number | null;
}

type NewJob = Omit<JobRow, 'status' | 'result' | 'error' | 'attempts' | 'started_at' | 'finished_at'>;

const INSERT_JOB = `INSERT INTO jobs (id, agent_id, type, input, status, callback_url, callback_secret, created_at, due_at) VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?)`;
const jobParams = (j: NewJob) => [j.id, j.agent_id, j.type, j.input, j.callback_url, j.callback_secret, j.created_at, j.due_at];

/**
 * Writes a job with its work item (`enqueue`, the scheduler's statement, plain `?` placeholders), both or neither,
 * in one round trip: on SQLite a batch (one message to the writer), on PostgreSQL one statement whose WITH inserts
 * the job (a data-modifying WITH runs whether or not the statement reads it), instead of a transaction's four.
 */
export async function insertJob(db: Db, j: NewJob, enqueue: BatchStatement): Promise<void> {
  if (db.dialect === 'postgres') await db.run(`WITH job AS (${INSERT_JOB}) ${enqueue.sql}`, [...jobParams(j), ...(enqueue.params as SqlValue[])]);
  else await db.batch([{ sql: INSERT_JOB, params: jobParams(j) }, enqueue]);
}

export const jobById = (q: Queryable, id: string) => q.get<JobRow>('SELECT * FROM jobs WHERE id = ?', [id]);

/**
 * Moves a queued job (or one whose earlier run failed) to running and returns it as it is now, in one statement;
 * undefined when it is missing or has ended (canceled meanwhile).
 */
export const startJob = (q: Queryable, id: string, now: number) =>
  q.get<JobRow>("UPDATE jobs SET status = 'running', started_at = coalesce(started_at, ?), attempts = attempts + 1 WHERE id = ? AND status IN ('queued', 'running') RETURNING *", [now, id]);

const FINISH_JOB = "UPDATE jobs SET status = ?, result = ?, error = ?, finished_at = ? WHERE id = ? AND status IN ('queued', 'running')";
const finishParams = (id: string, status: 'succeeded' | 'failed', result: unknown, error: string | null, now: number) => [
  status,
  result === undefined ? null : JSON.stringify(result),
  error,
  now,
  id,
];

/** Ends a job still queued or running; whether it was. */
export const finishJob = async (q: Queryable, id: string, status: 'succeeded' | 'failed', result: unknown, error: string | null, now: number): Promise<boolean> =>
  (await q.run(FINISH_JOB, finishParams(id, status, result, error, now))).changes > 0;

/**
 * finishJob and, when it ended the job, a notification in its owner's tray, in one round trip instead of a
 * transaction's four: on PostgreSQL one statement (the insert a data-modifying WITH reading the update's row), on
 * SQLite a batch (one message to the writer; the insert happens when the update changed a row).
 */
export async function finishJobNotifying(
  db: Db,
  j: { id: string; agentId: string },
  outcome: { status: 'succeeded' | 'failed'; result: unknown; error: string | null },
  told: { kind: string; title: string; data: unknown },
  now: number,
): Promise<boolean> {
  const params = [...finishParams(j.id, outcome.status, outcome.result, outcome.error, now), ...notificationValues(j.agentId, told, now)];
  if (db.dialect === 'postgres') {
    const sql = `WITH done AS (${FINISH_JOB} RETURNING id), told AS (${NOTIFICATION_INSERT} SELECT ?, ?, ?, ?, ? FROM done) SELECT COUNT(*) AS n FROM done`;
    return ((await db.get<{ n: number }>(sql, params))?.n ?? 0) > 0;
  }
  const [done] = (await db.batch([
    { sql: `${FINISH_JOB} RETURNING id`, params: params.slice(0, 5), rows: true },
    { sql: `${NOTIFICATION_INSERT} SELECT ?, ?, ?, ?, ? WHERE changes() > 0`, params: params.slice(5) },
  ])) as [unknown[]];
  return done.length > 0;
}

export const cancelJob = async (q: Queryable, id: string, now: number): Promise<boolean> =>
  (await q.run("UPDATE jobs SET status = 'canceled', finished_at = ? WHERE id = ? AND status = 'queued'", [now, id])).changes > 0;

export const jobsFinishedSince = (db: Db, agentId: string, since: number) =>
  db.all<Pick<JobRow, 'id' | 'type' | 'status' | 'finished_at'>>(
    'SELECT id, type, status, finished_at FROM jobs WHERE agent_id = ? AND finished_at IS NOT NULL AND finished_at > ? ORDER BY finished_at LIMIT 100',
    [agentId, since],
  );

/** An agent's jobs that have not finished yet (queued or running), oldest first. */
export const openJobsOf = (db: Db, agentId: string, limit = 20) =>
  db.all<Pick<JobRow, 'id' | 'type' | 'status' | 'created_at'>>(
    "SELECT id, type, status, created_at FROM jobs WHERE agent_id = ? AND status IN ('queued', 'running') ORDER BY created_at LIMIT ?",
    [agentId, limit],
  );
