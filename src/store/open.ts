// The gateway's database: PostgreSQL when GATEWAY_DATABASE_URL is set (several instances may share it), else the
// embedded SQLite file in the data directory. The PostgreSQL modules load only when it is chosen.
import type { Config } from '../config.js';
import { databaseFile } from '../paths.js';
import type { Db } from './db.js';
import { migrate } from './migrate.js';
import { SqliteDb } from './sqlite.js';
import { traceDb } from '../tracing/db.js';

/** Opens the database (connects, or starts SQLite's writer thread); `migrateDatabase` brings its schema up to date. */
export async function openDatabase(config: Pick<Config, 'dataDir' | 'database'>): Promise<Db> {
  // Transactions and batches become spans while tracing is on (src/tracing/db.ts); a null check while it is off.
  if (!config.database.url) return traceDb(await SqliteDb.open(databaseFile(config.dataDir)));
  const { PgDb } = await import('./postgres.js');
  const { poolSize: max, preparedStatements } = config.database;
  return traceDb(await PgDb.open(config.database.url, { max, preparedStatements }));
}

/** Applies the pending migrations of the database's dialect; returns the schema version in force. */
export async function migrateDatabase(db: Db): Promise<number> {
  if (db.dialect === 'sqlite') return migrate(db);
  const [{ migratePostgres }, { PgDb }] = await Promise.all([import('./pg-migrate.js'), import('./postgres.js')]);
  if (!(db instanceof PgDb)) throw new Error('a postgres database must be a PgDb');
  return migratePostgres(db);
}
