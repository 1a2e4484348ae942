// What `migrate-store` copies (copy-store.ts), read from PostgreSQL's catalog and matched against the SQLite
// file's tables: the base tables but schema_migrations, their non-generated columns, primary keys, the foreign
// keys that decide the order tables are filled in, and the refusal of a target that already holds data.
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';

/** A refusal or a failed check: the message says what and where, never a value. Exit code 1. */
export class CopyStoreError extends Error {}

export const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** How a column's values are sent, read back and put in the checksum. */
export type Kind = 'int' | 'float' | 'text' | 'json' | 'bytes' | 'other';

export interface Column {
  name: string;
  /** format_type(): the cast each parameter gets. */
  type: string;
  kind: Kind;
  identity: boolean;
}

export interface Table {
  name: string;
  /** The columns copied: PostgreSQL's non-generated columns that SQLite has too, in PostgreSQL's order. */
  columns: Column[];
  /** Every non-generated PostgreSQL column (an identity SQLite lacks, x402_payments.seq, included). */
  allColumns: Column[];
  primaryKey: string[];
  /** Columns referencing the same table (agents.invited_by): set after the table's rows are in. */
  selfRefColumns: string[];
  /** A PostgreSQL-only identity numbers the rows in insertion order, so they go in SQLite's rowid order. */
  needsRowidOrder: boolean;
}

type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/**
 * Rows the migrations themselves write (settings' defaults, the wall's counters at 0): a freshly migrated
 * database holds them and is still empty; the copy replaces them with SQLite's.
 */
const SEEDS: Record<string, string> = {
  gateway_settings: "(key, value) NOT IN (('memory_versions_kept', '50'), ('memory_max_entries', '100000'), ('memory_max_bytes', '268435456'))",
  wall_counters: 'n <> 0',
};

const KINDS: Record<string, Kind> = {
  int2: 'int', int4: 'int', int8: 'int', float4: 'float', float8: 'float', json: 'json', jsonb: 'json', bytea: 'bytes', text: 'text', varchar: 'text', bpchar: 'text',
};

async function baseTables(db: Queryable): Promise<string[]> {
  const res = await db.query<{ name: string }>(
    "SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname <> 'schema_migrations' ORDER BY 1",
  );
  return res.rows.map((r) => r.name);
}

/** Refuses a target where any gateway table holds a row the migrations did not write; names the first one. */
export async function checkEmpty(db: Queryable): Promise<void> {
  for (const name of await baseTables(db)) {
    const where = SEEDS[name] ? ` WHERE ${SEEDS[name]}` : '';
    const res = await db.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${quote(name)}${where}) AS any`);
    if (res.rows[0].any) throw new CopyStoreError(`the PostgreSQL database is not empty: table ${name} has rows; migrate-store only writes into an empty database`);
  }
}

/** Removes the migrations' own rows (checkEmpty allowed only those), with the triggers already disabled. */
export async function clearSeeds(client: pg.PoolClient): Promise<void> {
  for (const name of Object.keys(SEEDS)) await client.query(`DELETE FROM ${quote(name)}`);
}

interface SqliteTable {
  columns: Set<string>;
  rowid: boolean;
}

/** SQLite's copyable tables: not sqlite_*, schema_migrations, FTS5 tables or their shadow tables. */
function sqliteTables(lite: BetterSqlite3.Database): Map<string, SqliteTable> {
  const all = lite.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all() as { name: string; sql: string | null }[];
  const virtual = all.filter((t) => /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(t.sql ?? '')).map((t) => t.name);
  const out = new Map<string, SqliteTable>();
  for (const t of all) {
    if (t.name.startsWith('sqlite_') || t.name === 'schema_migrations') continue;
    if (virtual.some((v) => t.name === v || t.name.startsWith(`${v}_`))) continue;
    const cols = lite.prepare(`PRAGMA table_xinfo(${quote(t.name)})`).all() as { name: string; hidden: number | bigint }[];
    out.set(t.name, {
      columns: new Set(cols.filter((c) => Number(c.hidden) === 0).map((c) => c.name)),
      rowid: !/\bWITHOUT\s+ROWID\b/i.test(t.sql ?? ''),
    });
  }
  return out;
}

/** The tables to copy, parents before the tables referencing them. */
export async function catalog(client: pg.PoolClient, lite: BetterSqlite3.Database): Promise<Table[]> {
  const names = await baseTables(client);
  const cols = (
    await client.query<{ tbl: string; name: string; type: string; typname: string; generated: boolean; identity: boolean; notnull: boolean; hasdef: boolean }>(
      `SELECT c.relname AS tbl, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, t.typname::text AS typname,
              a.attgenerated <> '' AS generated, a.attidentity <> '' AS identity, a.attnotnull AS notnull, a.atthasdef AS hasdef
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_type t ON t.oid = a.atttypid
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY c.relname, a.attnum`,
    )
  ).rows;
  const keys = (
    await client.query<{ tbl: string; name: string }>(
      `SELECT c.relname AS tbl, a.attname AS name
         FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
        WHERE i.indisprimary AND n.nspname = current_schema()
        ORDER BY c.relname, k.ord`,
    )
  ).rows;
  const fks = (
    await client.query<{ child: string; parent: string; cols: string[] }>(
      `SELECT c.relname AS child, p.relname AS parent,
              ARRAY(SELECT a.attname::text FROM pg_attribute a WHERE a.attrelid = k.conrelid AND a.attnum = ANY (k.conkey)) AS cols
         FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE k.contype = 'f' AND n.nspname = current_schema()`,
    )
  ).rows;

  const lites = sqliteTables(lite);
  for (const name of lites.keys()) if (!names.includes(name)) throw new CopyStoreError(`SQLite table ${name} has no PostgreSQL counterpart`);
  const tables = new Map<string, Table>();
  for (const name of names) {
    const src = lites.get(name);
    if (!src) throw new CopyStoreError(`PostgreSQL table ${name} has no SQLite counterpart`);
    const mine = cols.filter((c) => c.tbl === name && !c.generated);
    const allColumns = mine.map((c) => ({ name: c.name, type: c.type, kind: KINDS[c.typname] ?? 'other', identity: c.identity }));
    const pgNames = new Set(mine.map((c) => c.name));
    for (const c of src.columns) if (!pgNames.has(c)) throw new CopyStoreError(`column ${name}.${c} of SQLite has no PostgreSQL counterpart`);
    let needsRowidOrder = false;
    for (const c of mine.filter((c) => !src.columns.has(c.name))) {
      if (c.identity && src.rowid) needsRowidOrder = true;
      else if (c.notnull && !c.hasdef && !c.identity) throw new CopyStoreError(`column ${name}.${c.name} of PostgreSQL has no SQLite counterpart to fill it`);
    }
    const primaryKey = keys.filter((k) => k.tbl === name).map((k) => k.name);
    const columns = allColumns.filter((c) => src.columns.has(c.name));
    for (const k of primaryKey) if (!src.columns.has(k)) throw new CopyStoreError(`primary key column ${name}.${k} is not in SQLite`);
    const selfRefColumns = [...new Set(fks.filter((f) => f.child === name && f.parent === name).flatMap((f) => f.cols))];
    for (const c of selfRefColumns) {
      if (mine.find((m) => m.name === c)?.notnull) throw new CopyStoreError(`${name}.${c} references its own table and is NOT NULL: not supported`);
    }
    if (selfRefColumns.length && !primaryKey.length) throw new CopyStoreError(`${name} references itself and has no primary key: not supported`);
    tables.set(name, { name, columns, allColumns, primaryKey, selfRefColumns, needsRowidOrder });
  }

  // Kahn's algorithm over the foreign keys (self-references aside), by name among the ready ones.
  const parents = new Map(names.map((n) => [n, new Set(fks.filter((f) => f.child === n && f.parent !== n).map((f) => f.parent))]));
  const order: Table[] = [];
  const done = new Set<string>();
  while (order.length < names.length) {
    const ready = names.find((n) => !done.has(n) && [...parents.get(n)!].every((p) => done.has(p)));
    if (!ready) throw new CopyStoreError(`the foreign keys between ${names.filter((n) => !done.has(n)).join(', ')} form a cycle: not supported`);
    done.add(ready);
    order.push(tables.get(ready)!);
  }
  return order;
}
