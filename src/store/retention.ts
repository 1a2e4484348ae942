// SQL of the retention of per-request records (src/retention.ts, docs/decisions/retention.md): which rows of each
// kind are finished, and their deletion in bounded chunks. The same statements on SQLite and PostgreSQL; each
// rule has a partial index of the same condition (migration 030), so a chunk reads only what it deletes.
import type { Queryable } from './db.js';

/** The records kept for a while after they are finished, and what "finished before" means for each. */
const RULES = {
  // A task still working or waiting for input stays, however old.
  a2a_tasks: "state IN ('completed', 'canceled', 'failed', 'rejected') AND updated_at < ?",
  jobs: 'finished_at IS NOT NULL AND finished_at < ?',
  webhook_deliveries: 'finished_at IS NOT NULL AND finished_at < ?',
  notifications: 'created_at < ?',
} as const;

export type RetainedRecord = keyof typeof RULES;
export const RETAINED_RECORDS = Object.keys(RULES) as RetainedRecord[];

/** Deletes at most `limit` records of `kind` finished before `before` (ms); returns how many. */
export async function pruneChunk(q: Queryable, kind: RetainedRecord, before: number, limit: number): Promise<number> {
  const r = await q.run(`DELETE FROM ${kind} WHERE id IN (SELECT id FROM ${kind} WHERE ${RULES[kind]} LIMIT ?)`, [before, limit]);
  return r.changes;
}
