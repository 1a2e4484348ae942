// Copies a SQLite gateway database into an empty PostgreSQL one (`agent-gateway migrate-store`, issue 25), then
// verifies it. The SQLite file is read on a read-only connection of its own inside one read transaction, so a
// gateway still writing to it cannot make the copy inconsistent (the copy is the WAL snapshot of its first read).
// The tables and columns come from PostgreSQL's catalog after `migratePostgres`: every base table but
// schema_migrations, every column SQLite has too (not the full-text vectors, generated or kept by a trigger),
// in foreign-key order; a column PostgreSQL has and SQLite does not (x402_payments.seq) is filled by its
// identity, rows inserted in SQLite rowid order. Rows go in batches of multi-row INSERTs in one PostgreSQL
// transaction with the user triggers disabled (the rows already carry their effects: counters, mentions, ledgers
// that refuse UPDATE), so the memory vectors a trigger keeps are filled afterwards (FILL_MEMORY_VECTORS);
// foreign keys stay checked. Identity sequences are moved past the copied ids (and past SQLite's AUTOINCREMENT
// high-water mark), triggers re-enabled, and every table read back inside the same transaction: row count and a
// SHA-256 over the rows in primary-key order must equal SQLite's, or the transaction is rolled back.
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { readMigrations } from './migrate.js';
import { migratePostgres, PG_MIGRATIONS_DIR } from './pg-migrate.js';
import { PgDb } from './postgres.js';
import { Database } from './sqlite-driver.js';
import { catalog, checkEmpty, clearSeeds, CopyStoreError, quote, type Column, type Kind, type Table } from './copy-catalog.js';
import { unpackValue } from './value-codec.js';

export { CopyStoreError };

/** The memory full-text vectors, which a trigger computes from each row and the copy's disabled triggers leave empty (migration 038). */
const FILL_MEMORY_VECTORS = 'UPDATE memory_entries SET fts = memory_fts_vector(key, tags, namespace, value, agent_id, visibility)';

export interface TableReport {
  table: string;
  rows: number;
  sha256: string;
  ms: number;
}

export interface CopyReport {
  from: string;
  to: string;
  schema_version: number;
  tables: TableReport[];
  rows: number;
  ms: number;
}

const MAX_PARAMS = 65_535;
const MAX_BATCH_ROWS = 1_000;
const MAX_BATCH_BYTES = 8 << 20;
const FETCH_ROWS = 2_000;

type SqlValue = string | number | bigint | Buffer | null;

/** A SQLite value as the PostgreSQL column takes it (what is sent, and what the checksum covers). */
function toTarget(v: SqlValue, kind: Kind, where: string): string | number | Buffer | null {
  if (v === null) return null;
  switch (kind) {
    case 'int':
      if (typeof v === 'bigint') return v.toString();
      if (typeof v === 'number' && Number.isInteger(v)) return String(v);
      throw new CopyStoreError(`${where}: a value that is not an integer in an integer column`);
    case 'float':
      if (typeof v === 'number' || typeof v === 'bigint') return Number(v);
      throw new CopyStoreError(`${where}: a value that is not a number in a floating-point column`);
    case 'bytes':
      return Buffer.isBuffer(v) ? v : Buffer.from(String(v), 'utf8');
    case 'json':
      // A BLOB in a JSON column is a deflated memory value (value-codec.ts): PostgreSQL gets its text.
      return Buffer.isBuffer(v) ? unpackValue(v) : String(v);
    case 'text':
    case 'other':
      return Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
  }
}

/** JSON with object keys sorted, so JSONB's reordering reads back equal. */
function canonicalJson(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonicalJson);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = canonicalJson((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/** One value in the checksum's canonical form: numbers as decimal text, bytes as hex, JSON re-serialised sorted. */
function canonical(v: string | number | Buffer | null, kind: Kind, where: string): string | null {
  if (v === null) return null;
  if (kind === 'bytes') return `b:${(v as Buffer).toString('hex')}`;
  if (kind === 'int' || kind === 'float') return `n:${kind === 'float' ? String(Number(v)) : String(v)}`;
  if (kind === 'json') {
    try {
      return `j:${JSON.stringify(canonicalJson(JSON.parse(String(v))))}`;
    } catch {
      throw new CopyStoreError(`${where}: a value that is not JSON in a JSON column`);
    }
  }
  return `s:${String(v)}`;
}

class RowHash {
  rows = 0;
  private readonly h: Hash = createHash('sha256');
  constructor(private readonly cols: Column[], private readonly table: string) {}
  add(values: (string | number | Buffer | null)[]): void {
    this.rows++;
    this.h.update(JSON.stringify(values.map((v, i) => canonical(v, this.cols[i].kind, `${this.table}.${this.cols[i].name}`))));
    this.h.update('\n');
  }
  digest(): string {
    return this.h.digest('hex');
  }
}

/** ORDER BY the primary key: bytewise text order on both (SQLite's BINARY collation is PostgreSQL's "C"). */
function orderBy(t: Table, pg: boolean): string {
  const keys = t.primaryKey.length ? t.primaryKey : t.columns.map((c) => c.name);
  return keys
    .map((k) => {
      const col = t.allColumns.find((c) => c.name === k);
      const collate = pg && col && (col.kind === 'text' || col.kind === 'json') ? ' COLLATE "C"' : '';
      // Qualified: a bare name would sort by the select list's column of that name (`seq::text AS seq`).
      const qualified = pg ? `${quote(t.name)}.${quote(k)}` : quote(k);
      const expr = pg && col?.kind === 'json' ? `${qualified}::text` : qualified;
      return `${expr}${collate}${pg ? ' NULLS FIRST' : ''}`;
    })
    .join(', ');
}

const pgSelect = (c: Column): string => (c.kind === 'float' || c.kind === 'bytes' || c.kind === 'text' ? quote(c.name) : `${quote(c.name)}::text`);

function readSqlite(lite: BetterSqlite3.Database, t: Table, order: string): IterableIterator<SqlValue[]> {
  const st = lite.prepare(`SELECT ${t.columns.map((c) => quote(c.name)).join(', ')} FROM ${quote(t.name)} ORDER BY ${order}`);
  return st.raw(true).safeIntegers(true).iterate() as IterableIterator<SqlValue[]>;
}

async function insertBatch(client: pg.PoolClient, t: Table, rows: (string | number | Buffer | null)[][]): Promise<void> {
  const n = t.columns.length;
  const tuples = rows.map((_, r) => `(${t.columns.map((c, i) => `$${r * n + i + 1}::${c.type}`).join(', ')})`);
  const sql = `INSERT INTO ${quote(t.name)} (${t.columns.map((c) => quote(c.name)).join(', ')}) VALUES ${tuples.join(', ')}`;
  try {
    await client.query(sql, rows.flat());
  } catch (err) {
    throw new CopyStoreError(`copying ${t.name} failed: ${(err as Error).message}`);
  }
}

/** Copies one table's rows; returns SQLite's checksum (computed here when the copy reads in key order). */
async function copyTable(lite: BetterSqlite3.Database, client: pg.PoolClient, t: Table): Promise<RowHash> {
  const inKeyOrder = !t.needsRowidOrder;
  const hash = new RowHash(t.columns, t.name);
  const selfRefs = new Set(t.selfRefColumns);
  const perBatch = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMS / t.columns.length)));
  let batch: (string | number | Buffer | null)[][] = [];
  let bytes = 0;
  for (const raw of readSqlite(lite, t, t.needsRowidOrder ? 'rowid' : orderBy(t, false))) {
    const row = raw.map((v, i) => toTarget(v, t.columns[i].kind, `${t.name}.${t.columns[i].name}`));
    if (inKeyOrder) hash.add(row);
    // A reference to a row of the same table is set once all its rows are in (see fixSelfRefs).
    batch.push(selfRefs.size ? row.map((v, i) => (selfRefs.has(t.columns[i].name) ? null : v)) : row);
    for (const v of row) bytes += typeof v === 'string' ? v.length : Buffer.isBuffer(v) ? v.length : 8;
    if (batch.length >= perBatch || bytes >= MAX_BATCH_BYTES) {
      await insertBatch(client, t, batch);
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length) await insertBatch(client, t, batch);
  if (!inKeyOrder) for (const raw of readSqlite(lite, t, orderBy(t, false))) hash.add(raw.map((v, i) => toTarget(v, t.columns[i].kind, t.name)));
  if (selfRefs.size) await fixSelfRefs(lite, client, t);
  return hash;
}

/** Sets the self-referencing columns (agents.invited_by) left NULL by the insert, by primary key. */
async function fixSelfRefs(lite: BetterSqlite3.Database, client: pg.PoolClient, t: Table): Promise<void> {
  const keys = t.primaryKey.map((k) => t.columns.find((c) => c.name === k)!);
  const refs = t.selfRefColumns.map((k) => t.columns.find((c) => c.name === k)!);
  const cols = [...keys, ...refs];
  const where = refs.map((c) => `${quote(c.name)} IS NOT NULL`).join(' OR ');
  const st = lite.prepare(`SELECT ${cols.map((c) => quote(c.name)).join(', ')} FROM ${quote(t.name)} WHERE ${where} ORDER BY ${orderBy(t, false)}`);
  const flush = async (rows: (string | number | Buffer | null)[][]) => {
    const n = cols.length;
    const tuples = rows.map((_, r) => `(${cols.map((c, i) => `$${r * n + i + 1}::${c.type}`).join(', ')})`);
    const alias = cols.map((_, i) => `c${i}`).join(', ');
    const set = refs.map((c, i) => `${quote(c.name)} = v.c${keys.length + i}`).join(', ');
    const match = keys.map((c, i) => `${quote(t.name)}.${quote(c.name)} = v.c${i}`).join(' AND ');
    await client.query(`UPDATE ${quote(t.name)} SET ${set} FROM (VALUES ${tuples.join(', ')}) AS v(${alias}) WHERE ${match}`, rows.flat());
  };
  let batch: (string | number | Buffer | null)[][] = [];
  for (const raw of st.raw(true).safeIntegers(true).iterate() as IterableIterator<SqlValue[]>) {
    batch.push(raw.map((v, i) => toTarget(v, cols[i].kind, t.name)));
    if (batch.length >= 500) {
      await flush(batch);
      batch = [];
    }
  }
  if (batch.length) await flush(batch);
}

/** PostgreSQL's rows of a table in key order, hashed as SQLite's were (a cursor: the table need not fit in memory). */
async function hashPostgres(client: pg.PoolClient, t: Table): Promise<RowHash> {
  const hash = new RowHash(t.columns, t.name);
  const cursor = `agw_verify_${t.name}`;
  await client.query(`DECLARE ${quote(cursor)} NO SCROLL CURSOR FOR SELECT ${t.columns.map(pgSelect).join(', ')} FROM ${quote(t.name)} ORDER BY ${orderBy(t, true)}`);
  for (;;) {
    const res = await client.query({ text: `FETCH ${FETCH_ROWS} FROM ${quote(cursor)}`, rowMode: 'array' });
    for (const row of res.rows as (string | number | Buffer | null)[][]) hash.add(row);
    if (res.rows.length < FETCH_ROWS) break;
  }
  await client.query(`CLOSE ${quote(cursor)}`);
  return hash;
}

/** Moves each identity past the largest id copied and past SQLite's AUTOINCREMENT high-water mark. */
async function setIdentities(lite: BetterSqlite3.Database, client: pg.PoolClient, tables: Table[]): Promise<void> {
  const hasSeq = lite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'").get() !== undefined;
  const seqOf = hasSeq ? lite.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').pluck().safeIntegers(true) : null;
  for (const t of tables) {
    for (const c of t.allColumns.filter((c) => c.identity)) {
      const max = (await client.query<{ m: string | null }>(`SELECT max(${quote(c.name)})::text AS m FROM ${quote(t.name)}`)).rows[0].m;
      let next = max === null ? 0n : BigInt(max);
      const seq = seqOf?.get(t.name) as bigint | undefined;
      if (typeof seq === 'bigint' && seq > next && t.columns.some((x) => x.name === c.name)) next = seq;
      if (next < 1n) continue;
      await client.query('SELECT setval(pg_get_serial_sequence($1, $2), $3::bigint, true)', [quote(t.name), c.name, next.toString()]);
    }
  }
}

function openSqlite(file: string): BetterSqlite3.Database {
  if (!fs.existsSync(file)) throw new CopyStoreError(`no gateway database at ${file}`);
  try {
    const lite = new Database(file, { readonly: true, fileMustExist: true });
    lite.pragma('busy_timeout = 10000');
    return lite;
  } catch (err) {
    throw new CopyStoreError(`cannot open ${file}: ${(err as Error).message}`);
  }
}

export async function copyStore(opts: { sqliteFile: string; pgUrl: string }): Promise<CopyReport> {
  const started = performance.now();
  const lite = openSqlite(opts.sqliteFile);
  let db: PgDb | undefined;
  try {
    // One read transaction: every SELECT below sees the snapshot the first one takes.
    lite.exec('BEGIN');
    const hasMigrations = lite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    if (!hasMigrations) throw new CopyStoreError(`${opts.sqliteFile} is not a gateway database (no schema_migrations)`);
    const version = Number(lite.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get() ?? 0);
    const latest = Math.max(0, ...readMigrations(PG_MIGRATIONS_DIR).map((m) => m.version));
    if (version !== latest) {
      throw new CopyStoreError(
        version < latest
          ? `the SQLite database is at schema version ${version}, this gateway's is ${latest}: start this gateway version once on ${opts.sqliteFile} to migrate it, then copy`
          : `the SQLite database is at schema version ${version}, newer than this gateway's ${latest}: upgrade the gateway first`,
      );
    }

    try {
      db = await PgDb.open(opts.pgUrl, { max: 2 });
    } catch (err) {
      throw new CopyStoreError(`cannot connect to PostgreSQL: ${(err as Error).message}`);
    }
    const target = db.path;
    await checkEmpty(db.pool);
    const pgVersion = await migratePostgres(db);
    if (pgVersion !== latest) throw new CopyStoreError(`the PostgreSQL database is at schema version ${pgVersion}, this gateway's is ${latest}: use the gateway version that migrated it`);

    const client = await db.pool.connect();
    const reports: TableReport[] = [];
    try {
      await client.query('BEGIN');
      const tables = await catalog(client, lite);
      for (const t of tables) await client.query(`LOCK TABLE ${quote(t.name)} IN ACCESS EXCLUSIVE MODE`);
      await checkEmpty(client); // again, under the locks: nothing may have written since
      for (const t of tables) await client.query(`ALTER TABLE ${quote(t.name)} DISABLE TRIGGER USER`);
      await clearSeeds(client);
      const expected = new Map<string, { rows: number; sha256: string; ms: number }>();
      for (const t of tables) {
        const t0 = performance.now();
        const h = await copyTable(lite, client, t);
        expected.set(t.name, { rows: h.rows, sha256: h.digest(), ms: Math.round(performance.now() - t0) });
      }
      await client.query(FILL_MEMORY_VECTORS);
      await setIdentities(lite, client, tables); // reads sqlite_sequence in the same snapshot
      lite.exec('COMMIT');
      for (const t of tables) await client.query(`ALTER TABLE ${quote(t.name)} ENABLE TRIGGER USER`);

      for (const t of tables) {
        const want = expected.get(t.name)!;
        const got = await hashPostgres(client, t);
        if (got.rows !== want.rows) throw new CopyStoreError(`verification failed: ${t.name} has ${got.rows} rows in PostgreSQL, ${want.rows} in SQLite`);
        const sha = got.digest();
        if (sha !== want.sha256) throw new CopyStoreError(`verification failed: ${t.name} has the same ${want.rows} rows in number but a different checksum (PostgreSQL ${sha.slice(0, 12)}…, SQLite ${want.sha256.slice(0, 12)}…)`);
        reports.push({ table: t.name, rows: want.rows, sha256: want.sha256, ms: want.ms });
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    return { from: opts.sqliteFile, to: target, schema_version: version, tables: reports, rows: reports.reduce((s, r) => s + r.rows, 0), ms: Math.round(performance.now() - started) };
  } finally {
    if (lite.inTransaction) lite.exec('ROLLBACK');
    lite.close();
    await db?.close();
  }
}
