// PostgreSQL's numbered migrations (src/store/pg-migrations/NNN_name.sql, the same numbers and names as SQLite's),
// each applied once in its own transaction. Instances that start together take a session advisory lock first, so
// exactly one migrates and the others find the work done; the lock goes with the connection if an instance dies.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../paths.js';
import { readMigrations, type Migration } from './migrate.js';
import type { PgDb } from './postgres.js';

export const PG_MIGRATIONS_DIR = path.join(projectRoot(fileURLToPath(import.meta.url)), 'src', 'store', 'pg-migrations');

/** The advisory lock's key: any constant the gateway alone uses ('AGWM'). */
const MIGRATION_LOCK = 0x4147574d;

/** Applies pending migrations; returns the schema version now in force. */
export async function migratePostgres(db: PgDb, migrations: Migration[] = readMigrations(PG_MIGRATIONS_DIR)): Promise<number> {
  const client = await db.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
    const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      try {
        await client.query('BEGIN');
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, Date.now()]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`migration ${m.name} failed: ${(err as Error).message}`);
      }
    }
    const row = (await client.query<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations')).rows[0];
    return row?.v ?? 0;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}
