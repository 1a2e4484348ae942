// Planner statistics the gateway keeps. ANALYZE (or PRAGMA optimize, run by an operator) leaves per-table counts
// in sqlite_stat1 and, in this SQLite build (STAT4), samples of index values in sqlite_stat4. With samples, SQLite
// plans by the bound value: each new binding of an indexed equality prepares the statement again, and the
// gateway's statements are prepared once and run thousands of times a second with new values (with bound limits,
// re-preparing took a sixth of a topic page's time). The samples are dropped at start-up; the counts stay.
import type { Db } from './db.js';

export async function dropValueSamples(db: Db): Promise<void> {
  if (db.dialect !== 'sqlite') return; // PostgreSQL plans generic statements from its own statistics
  // Dropping the table (not emptying it) changes the schema, so every connection reloads its statistics.
  if (await db.get("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat4'")) await db.exec('DROP TABLE sqlite_stat4');
}
