// Statements keep the plan they were prepared with: every placeholder is written so that SQLite does not re-plan
// on each binding, and index value samples (STAT4) left by ANALYZE are dropped at start-up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropValueSamples } from '../../src/store/planner-stats.js';
import { Connection, planStableParameters } from '../../src/store/sqlite-connection.js';
import { migratedDb, type MigratedDb } from '../helpers/migrated-db.js';

describe('bound parameters', () => {
  it('are rewritten as +? (also numbered), and quoted text and comments are left alone', () => {
    expect(planStableParameters('SELECT a FROM t WHERE b = ? AND c IN (?, ?) ORDER BY a LIMIT ? OFFSET ?')).toBe(
      'SELECT a FROM t WHERE b = +? AND c IN (+?, +?) ORDER BY a LIMIT +? OFFSET +?',
    );
    expect(planStableParameters('select a from t where b=?2 limit\n  ?1')).toBe('select a from t where b=+?2 limit\n  +?1');
    expect(planStableParameters("SELECT 'it''s ?' || ? AS s, \"q?\" FROM [t?] WHERE k LIKE ? ESCAPE '\\' -- why?\n AND x = ? /* ? */")).toBe(
      "SELECT 'it''s ?' || +? AS s, \"q?\" FROM [t?] WHERE k LIKE +? ESCAPE '\\' -- why?\n AND x = +? /* ? */",
    );
    for (const sql of ['SELECT a FROM t LIMIT 5', 'SELECT a FROM t LIMIT +?', "SELECT '?' AS q", 'SELECT 1 -- ?']) expect(planStableParameters(sql)).toBe(sql);
  });

  it('reach SQLite as +?, the statement SQLite keeps', () => {
    const conn = Connection.open(':memory:', { readonly: false });
    try {
      conn.exec('CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT, n INTEGER)');
      conn.run('INSERT INTO kv (k, v, n) VALUES (?, ?, ?)', ['a', 'x', 1]);
      expect(conn.all('SELECT k FROM kv WHERE v = ? ORDER BY n LIMIT ?', ['x', 5])).toEqual([{ k: 'a' }]);
      expect(conn.statements).toEqual(['INSERT INTO kv (k, v, n) VALUES (+?, +?, +?)', 'SELECT k FROM kv WHERE v = +? ORDER BY n LIMIT +?']);
    } finally {
      conn.close();
    }
  });

  describe('on a real database', () => {
    let m: MigratedDb;
    beforeAll(async () => {
      m = await migratedDb();
      await m.db.exec('CREATE TABLE nums (n INTEGER PRIMARY KEY)');
      await m.db.exec(`INSERT INTO nums (n) ${Array.from({ length: 10 }, (_, i) => `SELECT ${i + 1}`).join(' UNION ALL ')}`);
    });
    afterAll(async () => m.remove());

    it('still page the rows as asked, binding after binding', async () => {
      const page = (limit: number, offset: number) => m.db.all<{ n: number }>('SELECT n FROM nums ORDER BY n LIMIT ? OFFSET ?', [limit, offset]);
      expect((await page(3, 0)).map((r) => r.n)).toEqual([1, 2, 3]);
      expect((await page(2, 7)).map((r) => r.n)).toEqual([8, 9]);
      expect((await page(5, 9)).map((r) => r.n)).toEqual([10]);
      const numbered = await m.db.all<{ n: number }>('SELECT n FROM nums WHERE n > ?2 ORDER BY n LIMIT ?1', [2, 4]);
      expect(numbered.map((r) => r.n)).toEqual([5, 6]);
    });
  });
});

describe('index value samples', () => {
  let m: MigratedDb;
  beforeAll(async () => {
    m = await migratedDb();
    await m.db.exec('CREATE TABLE tagged (id INTEGER PRIMARY KEY, tag TEXT NOT NULL); CREATE INDEX tagged_tag ON tagged (tag)');
    await m.db.exec(`INSERT INTO tagged (tag) ${Array.from({ length: 200 }, (_, i) => `SELECT 'tag${i % 7}'`).join(' UNION ALL ')}`);
    await m.db.exec('ANALYZE');
  });
  afterAll(async () => m.remove());

  const statTables = async () => (await m.db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE name LIKE 'sqlite_stat%' ORDER BY name")).map((r) => r.name);

  it('are dropped, while the per-table statistics stay', async () => {
    expect(await statTables()).toContain('sqlite_stat4');
    await dropValueSamples(m.db);
    expect(await statTables()).toEqual(['sqlite_stat1']);
    expect(await m.db.get("SELECT stat FROM sqlite_stat1 WHERE idx = 'tagged_tag'")).toBeTruthy();
    // Nothing to drop the second time; queries on the index still answer.
    await dropValueSamples(m.db);
    expect((await m.db.all('SELECT id FROM tagged WHERE tag = ?', ['tag3'])).length).toBe(29);
  });
});
