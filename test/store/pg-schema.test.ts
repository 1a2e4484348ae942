// The PostgreSQL port of the schema (src/store/pg-migrations, issue 25) against the SQLite one it ports, on a real
// PostgreSQL server: every file applies in order, the tables, columns, types, NOT NULLs and named indexes are the
// same (FTS5 tables being tsvector columns, listed below), and the full-text columns find what FTS5 finds.
// The triggers are compared statement by statement in pg-schema-triggers.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../src/store/migrate.js';
import { SqliteDb } from '../../src/store/sqlite.js';
import { Database } from '../../src/store/sqlite-driver.js';
import { registerFunctions } from '../../src/store/sqlite-connection.js';
import { tempDir } from '../helpers/gateway.js';
import { hasPostgres, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const PG_DIR = fileURLToPath(new URL('../../src/store/pg-migrations/', import.meta.url));
const pgFiles = () => fs.readdirSync(PG_DIR).filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f)).sort();

/** What PostgreSQL has beyond SQLite: FTS5 virtual tables became tsvector columns with GIN indexes. */
/** Columns PostgreSQL has beyond SQLite's, with their types: full-text vectors, and the insertion order SQLite's rowid gives. */
const EXTRA_COLUMNS: Record<string, Record<string, string>> = { memory_entries: { fts: 'tsvector' }, wall_posts: { fts: 'tsvector' }, x402_payments: { seq: 'bigint' } };
const EXTRA_INDEXES = ['memory_entries_fts', 'wall_posts_fts'];
/** TEXT columns holding JSON that the gateway queries inside: JSONB in PostgreSQL (docs/decisions/postgres-schema.md). */
const JSONB = new Set(
  [
    'memory_entries.tags', 'memory_changes.tags', 'notifications.data', 'webhook_deliveries.attempts', 'wall_posts.topics', 'wall_posts.mention_ids',
  ],
);
/** TEXT columns holding documents stored and given back as written (key order, spacing): JSON in PostgreSQL. */
const JSON_DOCS = new Set(
  [
    'memory_entries.value', 'memory_versions.value', 'memory_changes.value', 'vault_entries.metadata', 'jobs.input', 'jobs.result', 'jobs.callback', 'handoffs.context', 'handoffs.result', 'handoffs.callback',
    'a2a_tasks.status', 'a2a_tasks.history', 'a2a_tasks.artifacts', 'oauth_records.payload', 'orders.hold_data', 'orders.input', 'orders.result',
    'orders.usage',
  ],
);
const PG_TYPE: Record<string, string> = { INTEGER: 'bigint', REAL: 'double precision', BLOB: 'bytea', TEXT: 'text' };

async function applyAll(url: string): Promise<string[]> {
  const c = new pg.Client(url);
  await c.connect();
  const applied: string[] = [];
  try {
    for (const f of pgFiles()) {
      await c.query('BEGIN');
      try {
        await c.query(fs.readFileSync(path.join(PG_DIR, f), 'utf8'));
        await c.query('COMMIT');
      } catch (err) {
        await c.query('ROLLBACK');
        throw new Error(`${f}: ${(err as Error).message}`);
      }
      applied.push(f);
    }
  } finally {
    await c.end();
  }
  return applied;
}

let server: TestPostgres;
let pgc: pg.Client;
let lite: InstanceType<typeof Database>;
const dir = tempDir();

beforeAll(async () => {
  if (!hasPostgres) return;
  server = await startPostgres();
  await applyAll(server.url);
  pgc = new pg.Client(server.url);
  await pgc.connect();
  const sdb = await SqliteDb.open(path.join(dir, 'ref.db'));
  await migrate(sdb);
  await sdb.close();
  lite = new Database(path.join(dir, 'ref.db'));
  registerFunctions(lite); // the triggers read memory values through memory_value()
  lite.pragma('foreign_keys = ON');
});
afterAll(async () => {
  lite?.close();
  await pgc?.end();
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** SQLite's tables, without its own, the migrations table, FTS5 virtual tables and their shadow tables. */
function sqliteTables(): string[] {
  const all = lite.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string; sql: string }[];
  const fts = all.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
  const shadow = (n: string) => fts.some((v) => new RegExp(`^${v}_(data|idx|content|docsize|config)$`).test(n));
  return all.map((t) => t.name).filter((n) => n !== 'schema_migrations' && !fts.includes(n) && !shadow(n)).sort();
}

describe.skipIf(!hasPostgres)('PostgreSQL schema (src/store/pg-migrations)', () => {
  it('has one file per SQLite migration, same number and name, and all of them apply in order on an empty database', async () => {
    expect(pgFiles()).toEqual(readMigrations().map((m) => m.name));
    expect(pgFiles()).toHaveLength(50);
    const url = await server.createDatabase('fresh');
    expect(await applyAll(url)).toEqual(pgFiles());
  });

  it('has the tables and views of SQLite, with the same columns, types and NOT NULLs', async () => {
    const tables = sqliteTables();
    expect(tables.length).toBeGreaterThan(50);
    const { rows: pgTables } = await pgc.query<{ table_name: string; table_type: string }>(
      "SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(pgTables.filter((t) => t.table_type === 'BASE TABLE').map((t) => t.table_name).sort()).toEqual(tables);
    const liteViews = (lite.prepare("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name").all() as { name: string }[]).map((v) => v.name);
    expect(pgTables.filter((t) => t.table_type === 'VIEW').map((t) => t.table_name)).toEqual(liteViews);

    const { rows: cols } = await pgc.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
      "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'public'",
    );
    for (const t of tables) {
      // table_xinfo also lists generated columns (memory_entries.scope); hidden = 1 would be a virtual table's.
      const liteCols = (lite.prepare(`PRAGMA table_xinfo(${t})`).all() as { name: string; type: string; notnull: number; pk: number; hidden: number }[]).filter(
        (c) => c.hidden !== 1,
      );
      const pgCols = cols.filter((c) => c.table_name === t);
      expect(pgCols.map((c) => c.column_name).sort(), t).toEqual([...liteCols.map((c) => c.name), ...Object.keys(EXTRA_COLUMNS[t] ?? {})].sort());
      for (const c of liteCols) {
        const p = pgCols.find((x) => x.column_name === c.name)!;
        const want = JSONB.has(`${t}.${c.name}`) ? 'jsonb' : JSON_DOCS.has(`${t}.${c.name}`) ? 'json' : PG_TYPE[c.type.toUpperCase()];
        expect(`${t}.${c.name} ${p.data_type}`).toBe(`${t}.${c.name} ${want}`);
        // A PRIMARY KEY column is NOT NULL in PostgreSQL (SQLite lets a non-integer one hold NULL, never used).
        expect(`${t}.${c.name} ${p.is_nullable}`).toBe(`${t}.${c.name} ${c.notnull || c.pk ? 'NO' : 'YES'}`);
      }
    }
    for (const [t, extra] of Object.entries(EXTRA_COLUMNS)) {
      for (const [c, type] of Object.entries(extra)) expect(cols.find((x) => x.table_name === t && x.column_name === c)?.data_type).toBe(type);
    }
  });

  it('has every index SQLite named, on the same table, as unique and as partial as there', async () => {
    const liteIdx = (lite.prepare("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex_%'").all() as {
      name: string;
      tbl_name: string;
    }[]).map((i) => {
      const info = (lite.prepare(`PRAGMA index_list(${i.tbl_name})`).all() as { name: string; unique: number; partial: number }[]).find((x) => x.name === i.name)!;
      return { name: i.name, table: i.tbl_name, unique: Boolean(info.unique), partial: Boolean(info.partial) };
    });
    expect(liteIdx.length).toBeGreaterThan(60);
    const { rows } = await pgc.query<{ name: string; table: string; unique: boolean; partial: boolean }>(
      `SELECT c.relname AS name, t.relname AS table, i.indisunique AS unique, i.indpred IS NOT NULL AS partial
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
       WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
    );
    const byName = new Map(rows.map((r) => [r.name, r]));
    for (const i of liteIdx) expect(byName.get(i.name), i.name).toEqual(i);
    // Nothing else but the full-text indexes (PRIMARY KEY and UNIQUE constraints make their own, left out above).
    expect(rows.map((r) => r.name).filter((n) => !liteIdx.some((i) => i.name === n)).sort()).toEqual(EXTRA_INDEXES);
  });

  it('keeps the memory scope tokens SQLite computes (its hex() of the UTF-8 bytes)', async () => {
    const put = (a: string | null, ns: string, key: string, vis: string) =>
      `INSERT INTO memory_entries (agent_id, namespace, key, value, size, visibility, version, created_at, updated_at)
       VALUES (${a === null ? 'NULL' : `'${a}'`}, '${ns}', '${key}', '{}', 2, '${vis}', 1, 1, 1)`;
    const stmts = [
      "INSERT INTO agents (id, handle, secret_hash, created_at) VALUES ('agt_Ünï', 'scope-a', 'sa', 1)",
      put('agt_Ünï', 'notes/é', 'k1', 'private'),
      put('agt_Ünï', 'pub ns', 'k2', 'public'),
      put(null, 'scratch', 'k3', 'private'),
    ];
    for (const s of stmts) lite.exec(s), await pgc.query(s);
    const q = "SELECT key, scope FROM memory_entries WHERE key IN ('k1', 'k2', 'k3') ORDER BY key";
    const want = lite.prepare(q).all();
    expect((await pgc.query(q)).rows).toEqual(want);
    expect(want).toHaveLength(3);
  });
});

describe.skipIf(!hasPostgres)('PostgreSQL full text (memory_fts and memory_fts_pub → memory_entries.fts, wall_fts → wall_posts.fts)', () => {
  const entries: [string | null, string, string, string, string, string][] = [
    // agent, namespace, key, text, tags, visibility
    ['fa1', 'recipes', 'bread', 'flour water salt yeast oven', '["baking"]', 'private'],
    ['fa1', 'recipes', 'soup', 'water onion carrot', '["dinner"]', 'public'],
    ['fa2', 'travel', 'lisbon trip', 'tram pastel oven visit bread', '["holiday", "baking"]', 'private'],
    [null, 'scratch', 'note', 'yeast starter feeding schedule', '[]', 'private'],
  ];
  const posts = ['the oven is hot today', 'yeast and flour prices', 'a quiet tram ride in lisbon', 'water water everywhere'];

  beforeAll(async () => {
    if (!hasPostgres) return;
    const stmts = [
      "INSERT INTO agents (id, handle, secret_hash, created_at) VALUES ('fa1', 'fts-one', 'f1', 1), ('fa2', 'fts-two', 'f2', 1)",
      ...entries.map(
        ([a, ns, k, text, tags, vis]) =>
          `INSERT INTO memory_entries (agent_id, namespace, key, value, size, visibility, tags, version, created_at, updated_at)
           VALUES (${a ? `'${a}'` : 'NULL'}, '${ns}', '${k}', '"${text}"', 10, '${vis}', '${tags}', 1, 5, 5)`,
      ),
      ...posts.map((t, i) => `INSERT INTO wall_posts (agent_id, kind, text, created_at) VALUES ('fa${(i % 2) + 1}', 'note', '${t}', ${i + 1})`),
    ];
    for (const s of stmts) lite.exec(s), await pgc.query(s);
    lite.exec('INSERT INTO wall_fts (rowid, text) SELECT id, text FROM wall_posts'); // the indexer's batch, on SQLite only
  });

  const keysOf = (rows: { key: string }[]) => rows.map((r) => r.key).sort();
  /** SQLite's two full-text indexes, private and public entries (migration 033), asked the same FTS5 query twice. */
  const LITE_FTS = '(SELECT rowid, rank FROM memory_fts WHERE memory_fts MATCH ? UNION ALL SELECT rowid, rank FROM memory_fts_pub WHERE memory_fts_pub MATCH ?)';

  it.each(['oven', 'yeast', 'water', 'baking', 'recipes', 'lisbon', 'flour yeast', 'tram oven', 'dinner carrot', 'nothing'])(
    'memory: %s',
    async (words) => {
      const match = words.split(' ').map((w) => `"${w}"`).join(' ');
      const mine = "(e.agent_id LIKE 'fa_' OR e.namespace = 'scratch')";
      const want = keysOf(
        lite.prepare(`SELECT e.key FROM ${LITE_FTS} f JOIN memory_entries e ON e.id = f.rowid WHERE ${mine}`).all(`{namespace key text tags} : (${match})`, `{namespace key text tags} : (${match})`) as {
          key: string;
        }[],
      );
      // Asked as the gateway asks: words stemmed as the index stems them (pg migration 040, as FTS5's porter tokenizer).
      const got = keysOf((await pgc.query(`SELECT e.key FROM memory_entries e WHERE e.fts @@ plainto_tsquery('gateway_porter', $1) AND ${mine}`, [words])).rows);
      expect(got).toEqual(want);
      if (words !== 'nothing') expect(want.length).toBeGreaterThan(0);
    },
  );

  it('memory: the scope tokens filter inside the index (weight D), as the FTS5 scope column did', async () => {
    const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex').toUpperCase();
    // What fa2 may see: its own, public ones and the scratchpad; then only fa1's namespace 'recipes' shared with it.
    const cases = [
      { scope: ['pub', `o${hex('fa2')}`], word: 'water' },
      { scope: ['pub', `o${hex('fa2')}`], word: 'oven' },
      { scope: ['pub', `n${hex('fa1/recipes')}`], word: 'oven' },
      { scope: ['pub'], word: 'yeast' },
    ];
    for (const c of cases) {
      const ftsQ = `scope : (${c.scope.join(' OR ')}) AND {namespace key text tags} : ("${c.word}")`;
      const want = keysOf(lite.prepare(`SELECT e.key FROM ${LITE_FTS} f JOIN memory_entries e ON e.id = f.rowid WHERE (e.agent_id IS NULL OR e.agent_id LIKE 'fa_')`).all(ftsQ, ftsQ) as { key: string }[]);
      const scope = `(${c.scope.map((s) => `${s}:D`).join(' | ')})`;
      const got = keysOf(
        (
          await pgc.query(
            "SELECT key FROM memory_entries WHERE fts @@ (to_tsquery('simple', $1) && to_tsquery('gateway_porter', $2)) AND (agent_id IS NULL OR agent_id LIKE 'fa_')",
            [scope, `${c.word}:ABC`],
          )
        ).rows,
      );
      expect(got, ftsQ).toEqual(want);
      expect(want.length, ftsQ).toBeGreaterThan(0);
    }
    // A key match ranks above a text match: FTS5's bm25(1, 4, 1, 2, 0) and ts_rank with weights {D, C, B, A}.
    const ranked = lite.prepare(`SELECT e.key FROM ${LITE_FTS} f JOIN memory_entries e ON e.id = f.rowid ORDER BY f.rank`).all('{namespace key text tags} : ("bread")', '{namespace key text tags} : ("bread")');
    const { rows } = await pgc.query(
      "SELECT key FROM memory_entries WHERE fts @@ plainto_tsquery('gateway_porter', 'bread') ORDER BY ts_rank('{0, 0.25, 0.5, 1}', fts, plainto_tsquery('gateway_porter', 'bread')) DESC",
    );
    expect(rows).toEqual(ranked);
    expect(ranked).toEqual([{ key: 'bread' }, { key: 'lisbon trip' }]);
  });

  it.each(['oven', 'yeast flour', 'water', 'lisbon tram', 'hot', 'missing'])('wall: %s', async (words) => {
    const match = words.split(' ').map((w) => `"${w}"`).join(' ');
    const want = (lite.prepare('SELECT p.text FROM wall_fts f JOIN wall_posts p ON p.id = f.rowid WHERE wall_fts MATCH ?').all(match) as { text: string }[]).map((r) => r.text).sort();
    const got = (await pgc.query("SELECT text FROM wall_posts WHERE fts @@ plainto_tsquery('simple', $1)", [words])).rows.map((r) => r.text).sort();
    expect(got).toEqual(want);
    if (words !== 'missing') expect(want.length).toBeGreaterThan(0);
  });

  it("keeps the memory full-text index's pending list within 1 MB, which every search reads in full (036)", async () => {
    const url = await server.createDatabase('pending');
    await applyAll(url);
    const c = new pg.Client(url);
    await c.connect();
    try {
      await c.query('CREATE EXTENSION pgstattuple');
      await c.query('ALTER TABLE memory_entries SET (autovacuum_enabled = false)'); // no vacuum may merge the list meanwhile
      // 1,200 entries of 40 distinct words each: about 2.5 MB of new index entries, which PostgreSQL's default 4 MB
      // pending list would hold all of.
      await c.query(
        `INSERT INTO memory_entries (agent_id, namespace, key, value, size, visibility, tags, version, created_at, updated_at)
         SELECT NULL, 'bulk', 'k' || g, jsonb_build_object('text', (SELECT string_agg(md5(g || '-' || i), ' ') FROM generate_series(1, 40) i)), 1400, 'public', '[]', 1, 0, 0
         FROM generate_series(1, 1200) g`,
      );
      const { rows } = await c.query<{ pending_pages: number; pending_tuples: string }>("SELECT pending_pages, pending_tuples FROM pgstatginindex('memory_entries_fts')");
      expect(rows[0].pending_pages * 8192).toBeLessThanOrEqual(1024 * 1024 + 8192);
      // Every word is still found, whether in the list or merged into the index.
      const word = (await c.query("SELECT md5('777-13') AS w")).rows[0].w as string;
      expect((await c.query("SELECT key FROM memory_entries WHERE fts @@ to_tsquery('simple', $1)", [`${word}:C`])).rows).toEqual([{ key: 'k777' }]);
    } finally {
      await c.end();
    }
  });
});
