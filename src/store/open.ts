// The gateway's database: PostgreSQL when GATEWAY_DATABASE_URL is set (several instances may share it), else the
// embedded SQLite file in the data directory. The PostgreSQL modules load only when it is chosen.
import type { Config } from '../config.js';
import { databaseFile } from '../paths.js';
import type { Db } from './db.js';
import { migrate } from './migrate.js';
import { dropValueSamples } from './planner-stats.js';
import { installPepper, setSetting } from './settings.js';
import { writeStorageBudget } from './storage-budget.js';
import { SqliteDb } from './sqlite.js';
import type { EarlyWriter } from './writer-client.js';
import { traceDb } from '../tracing/db.js';

/**
 * Opens the database (connects, or starts SQLite's writer thread, or hands the file to `early`, one started before
 * the configuration was read); `migrateDatabase` brings its schema up to date.
 */
export async function openDatabase(config: Pick<Config, 'dataDir' | 'database'> & { caches?: Pick<Config['caches'], 'sqlite'> }, early?: EarlyWriter): Promise<Db> {
  // Transactions and batches become spans while tracing is on (src/tracing/db.ts); a null check while it is off.
  if (!config.database.url) return traceDb(await SqliteDb.open(databaseFile(config.dataDir), config.caches?.sqlite, early));
  early?.discard();
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

/**
 * Makes an opened database ready to serve: its schema migrated, SQLite's value samples dropped, the settings the
 * memory triggers read (version pruning, the entry limit and the byte quota happen in triggers) and the storage
 * budget written, and the install's pepper made (the CLI does this while the modules load, so the services then only
 * read it).
 */
export async function prepareDatabase(db: Db, config: Pick<Config, 'memory' | 'storageBudget'>): Promise<Db> {
  await migrateDatabase(db);
  await dropValueSamples(db);
  // Issued together: the writer commits them in one round trip.
  await Promise.all([
    setSetting(db, 'memory_versions_kept', String(config.memory.versionsKept)),
    setSetting(db, 'memory_max_entries', String(config.memory.maxEntriesPerAgent)),
    setSetting(db, 'memory_max_bytes', String(config.memory.maxBytesPerAgent)),
    writeStorageBudget(db, config.storageBudget.bytesPerOwner),
    installPepper(db),
  ]);
  return db;
}
