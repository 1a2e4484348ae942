// SQL of the retention of per-request records (src/retention.ts, docs/decisions/retention.md): which rows of each
// kind are finished, and their deletion in bounded chunks. The same statements on SQLite and PostgreSQL; each
// rule has a partial index of the same condition (migrations 030 and 048), so a chunk reads only what it deletes.
import type { Db } from './db.js';

/** The records kept for a while after they are finished, and what "finished before" means for each. */
const RULES = {
  // A task still working or waiting for input stays, however old.
  a2a_tasks: "state IN ('completed', 'canceled', 'failed', 'rejected') AND updated_at < ?",
  jobs: 'finished_at IS NOT NULL AND finished_at < ?',
  webhook_deliveries: 'finished_at IS NOT NULL AND finished_at < ?',
  notifications: 'created_at < ?',
  // Parked handoffs stay until resolved or expired, however old.
  handoffs: "status <> 'parked' AND resolved_at < ?",
  // Only anonymous runs: an agent's are the record of its template badges.
  template_runs: 'agent_id IS NULL AND created_at < ?',
} as const;

export type RetainedRecord = keyof typeof RULES;

/**
 * Rules SQLite's planner would read through another index: `agent_id IS NULL` matches template_runs_agent's first
 * column, so it walked every anonymous run (recent ones included) in slug order rather than the partial index.
 */
const SQLITE_INDEX: Partial<Record<RetainedRecord, string>> = { template_runs: 'template_runs_anonymous' };
export const RETAINED_RECORDS = Object.keys(RULES) as RetainedRecord[];

/** A finished A2A task of a caller without credentials: nobody can list it, and it is kept hours, not days. */
const ANONYMOUS_TASKS = `agent_id IS NULL AND ${RULES.a2a_tasks}`;

/**
 * The DELETE of at most `limit` rows of `table` matching `where`. On PostgreSQL the ids are an array made once
 * (= ANY(ARRAY(…))), found by primary key: an IN over the LIMIT subquery may be planned as a semi-join that reads
 * the whole partial index for each chunk, or reruns the subquery per row.
 */
async function deleteChunk(db: Pick<Db, 'run' | 'dialect'>, table: string, where: string, before: number, limit: number, sqliteIndex?: string): Promise<number> {
  const ids = idsOf(db.dialect, table, where, sqliteIndex);
  const r = await db.run(db.dialect === 'postgres' ? `DELETE FROM ${table} WHERE id = ANY(ARRAY(${ids}))` : `DELETE FROM ${table} WHERE id IN (${ids})`, [before, limit]);
  return r.changes;
}

const idsOf = (dialect: Db['dialect'], table: string, where: string, sqliteIndex?: string, key = 'id') =>
  `SELECT ${key} FROM ${table}${sqliteIndex && dialect === 'sqlite' ? ` INDEXED BY ${sqliteIndex}` : ''} WHERE ${where} LIMIT ?`;

/** The query of a chunk's ids for `kind` (parameters: before, limit), for plan tests. */
export const chunkIdsQuery = (dialect: Db['dialect'], kind: RetainedRecord): string => idsOf(dialect, kind, RULES[kind], SQLITE_INDEX[kind]);

/** Deletes at most `limit` records of `kind` finished before `before` (ms); returns how many. */
export const pruneChunk = (db: Pick<Db, 'run' | 'dialect'>, kind: RetainedRecord, before: number, limit: number): Promise<number> =>
  deleteChunk(db, kind, RULES[kind], before, limit, SQLITE_INDEX[kind]);

/**
 * How long a `/start?via=` visit waits for its client's registration to credit the referrer (tools/identity). Older
 * visits are never credited, and each new client address made one, so they are deleted (migration 049's index).
 */
export const REFERRAL_WINDOW_MS = 7 * 86_400_000;

/** The query of a chunk of start visits older than `before` (parameters: before, limit), for plan tests. */
export const startVisitsQuery = (dialect: Db['dialect']): string => idsOf(dialect, 'start_visits', 'created_at < ?', undefined, 'client_hash');

/**
 * Deletes at most `limit` start visits made before `before` (ms). A visit is a row per client that a new visit
 * refreshes in place, so the time is checked again on the row deleted: one refreshed since the ids were read stays.
 */
export async function pruneStartVisits(db: Pick<Db, 'run' | 'dialect'>, before: number, limit: number): Promise<number> {
  const ids = startVisitsQuery(db.dialect);
  const which = db.dialect === 'postgres' ? `client_hash = ANY(ARRAY(${ids}))` : `client_hash IN (${ids})`;
  return (await db.run(`DELETE FROM start_visits WHERE ${which} AND created_at < ?`, [before, limit, before])).changes;
}

/** Deletes at most `limit` finished anonymous A2A tasks finished before `before` (ms). */
export const pruneAnonymousTasks = (db: Pick<Db, 'run' | 'dialect'>, before: number, limit: number): Promise<number> =>
  deleteChunk(db, 'a2a_tasks', ANONYMOUS_TASKS, before, limit);
