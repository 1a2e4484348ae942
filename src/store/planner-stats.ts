// Planner statistics the gateway keeps. ANALYZE (or PRAGMA optimize, run by an operator) leaves per-table counts
// in sqlite_stat1 and, in this SQLite build (STAT4), samples of index values in sqlite_stat4. The gateway's
// parameters reach SQLite as +? (sqlite-connection.ts), so samples no longer make a statement prepare again on
// each binding, as they did for every indexed equality; they would still weigh the literals in its SQL. They are
// dropped at start-up so that plans stay the ones measured here, whether or not an operator ran ANALYZE; the
// counts stay.
import type { Db } from './db.js';

export async function dropValueSamples(db: Db): Promise<void> {
  if (db.dialect !== 'sqlite') return; // PostgreSQL plans generic statements from its own statistics
  // Dropping the table (not emptying it) changes the schema, so every connection reloads its statistics.
  if (await db.get("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat4'")) await db.exec('DROP TABLE sqlite_stat4');
}
