// The Db contract (src/store/db.ts) every driver keeps, run on SQLite (transactions.test.ts) and on PostgreSQL
// (pg-db.test.ts): transactions that cannot swallow other requests' statements, statements issued through the Db
// from inside a transaction that join it instead of deadlocking, nested savepoints, concurrent single statements
// of which a failing one fails alone, batches all or nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchError, type Db } from '../../src/store/db.js';

export function dbContract(name: string, open: () => Promise<{ db: Db; cleanup(): Promise<void> }>): void {
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await open());
    await db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)');
  });
  afterAll(async () => {
    await db?.close();
    await cleanup?.();
  });

  describe(`${name}: transactions`, () => {
    it('a failed transaction leaves nothing, and a concurrent write outside it is not rolled back with it', async () => {
      const tx = db.transaction(async (t) => {
        await t.run("INSERT INTO t VALUES ('a', 1)");
        await new Promise((r) => setTimeout(r, 20));
        throw new Error('boom');
      });
      const outside = db.run("INSERT INTO t VALUES ('b', 2)");
      await expect(tx).rejects.toThrow('boom');
      await outside;
      expect(await db.all('SELECT k FROM t ORDER BY k')).toEqual([{ k: 'b' }]);
    });

    it('statements through the Db inside a transaction join it (no deadlock) and see its writes', async () => {
      const seen = await db.transaction(async (t) => {
        await t.run("INSERT INTO t VALUES ('c', 3)");
        await db.run("UPDATE t SET v = 30 WHERE k = 'c'");
        return db.get<{ v: number }>("SELECT v FROM t WHERE k = 'c'");
      });
      expect(seen?.v).toBe(30);
    });

    it('a nested transaction is a savepoint: its failure undoes only its writes', async () => {
      await db.transaction(async (t) => {
        await t.run("INSERT INTO t VALUES ('d', 4)");
        await db.transaction(async (inner) => {
          await inner.run("INSERT INTO t VALUES ('e', 5)");
          throw new Error('inner');
        }).catch(() => undefined);
      });
      expect((await db.all<{ k: string }>("SELECT k FROM t WHERE k IN ('d', 'e')")).map((r) => r.k)).toEqual(['d']);
    });

    it('other requests never see uncommitted writes', async () => {
      let inserted!: () => void;
      let release!: () => void;
      const wrote = new Promise<void>((r) => (inserted = r));
      const hold = new Promise<void>((r) => (release = r));
      const tx = db.transaction(async (t) => {
        await t.run("INSERT INTO t VALUES ('f', 6)");
        inserted();
        await hold;
      });
      await wrote;
      // This read starts outside the transaction, as another request would.
      expect(await db.get("SELECT v FROM t WHERE k = 'f'")).toBeUndefined();
      release();
      await tx;
      expect(await db.get("SELECT v FROM t WHERE k = 'f'")).toEqual({ v: 6 });
    });
  });

  describe(`${name}: concurrent single statements`, () => {
    it('many concurrent single statements: all land, a failing one is rejected alone', async () => {
      await db.exec('CREATE TABLE g (k INTEGER PRIMARY KEY, v TEXT NOT NULL)');
      const writes = Array.from({ length: 300 }, (_, i) => db.run('INSERT INTO g (k, v) VALUES (?, ?)', [i, `v${i}`]));
      const dup = db.run("INSERT INTO g (k, v) VALUES (5, 'again')");
      const nul = db.run('INSERT INTO g (k, v) VALUES (?, NULL)', [1000]);
      const results = await Promise.allSettled([...writes, dup, nul]);
      expect(results.slice(0, 300).every((r) => r.status === 'fulfilled')).toBe(true);
      expect(results[300].status).toBe('rejected');
      expect(results[301].status).toBe('rejected');
      expect((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM g'))?.n).toBe(300);
      expect((await db.get<{ v: string }>('SELECT v FROM g WHERE k = 5'))?.v).toBe('v5');
    });
  });

  describe(`${name}: batch`, () => {
    it('applies its statements all or nothing and names the one that failed', async () => {
      await db.exec('CREATE TABLE b (k TEXT PRIMARY KEY, v INTEGER NOT NULL)');
      const ok = await db.batch([
        { sql: "INSERT INTO b VALUES ('x', 1)" },
        { sql: "INSERT INTO b VALUES ('y', 2) RETURNING k", rows: true },
      ]);
      expect(ok[0]).toMatchObject({ changes: 1 });
      expect(ok[1]).toEqual([{ k: 'y' }]);
      const failed = db.batch([{ sql: "INSERT INTO b VALUES ('z', 3)" }, { sql: "INSERT INTO b VALUES ('x', 4)" }]);
      await expect(failed).rejects.toMatchObject({ index: 1 });
      await expect(failed).rejects.toBeInstanceOf(BatchError);
      expect(await db.all('SELECT k FROM b ORDER BY k')).toEqual([{ k: 'x' }, { k: 'y' }]);
    });

    it('expectRow rolls the batch back when a statement returns no row', async () => {
      const r = db.batch([
        { sql: "UPDATE b SET v = 10 WHERE k = 'x' RETURNING v", expectRow: true },
        { sql: "UPDATE b SET v = 20 WHERE k = 'missing' RETURNING v", expectRow: true },
      ]);
      await expect(r).rejects.toMatchObject({ index: 1, code: 'BATCH_NO_ROW' });
      expect(await db.get("SELECT v FROM b WHERE k = 'x'")).toEqual({ v: 1 });
    });

    it('knows the statements behind a failed one the next time they come (their SQL travels only once)', async () => {
      const guarded = { sql: "UPDATE b SET v = v + 1 WHERE k = ? AND v < 100 RETURNING v", expectRow: true };
      const after = { sql: "INSERT INTO b (k, v) VALUES ('after-failed', 1) ON CONFLICT (k) DO UPDATE SET v = b.v + 1" };
      await expect(db.batch([{ ...guarded, params: ['missing'] }, after])).rejects.toMatchObject({ index: 0, code: 'BATCH_NO_ROW' });
      await db.batch([{ ...guarded, params: ['x'] }, after]);
      expect(await db.get("SELECT v FROM b WHERE k = 'after-failed'")).toEqual({ v: 1 });
    });

    it('a failing batch does not take the statements committed with it down', async () => {
      const writes = [db.run("INSERT INTO b VALUES ('p', 1)"), db.batch([{ sql: "INSERT INTO b VALUES ('q', 1)" }, { sql: 'INSERT INTO b VALUES (NULL, NULL)' }]), db.run("INSERT INTO b VALUES ('r', 1)")];
      const [p, q, r] = await Promise.allSettled(writes);
      expect([p.status, q.status, r.status]).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((await db.all<{ k: string }>("SELECT k FROM b WHERE k IN ('p', 'q', 'r') ORDER BY k")).map((x) => x.k)).toEqual(['p', 'r']);
    });

    it('inside a transaction it joins the transaction', async () => {
      await db
        .transaction(async () => {
          await db.batch([{ sql: "INSERT INTO b VALUES ('t', 1)" }]);
          throw new Error('undo');
        })
        .catch(() => undefined);
      expect(await db.get("SELECT k FROM b WHERE k = 't'")).toBeUndefined();
    });
  });

  describe(`${name}: a transaction that has ended`, () => {
    it('refuses statements sent through its tx afterwards instead of running them on their own', async () => {
      let kept: { run(sql: string): Promise<unknown> } | null = null;
      await db.transaction(async (t) => {
        kept = t;
      });
      await expect(kept!.run("INSERT INTO t VALUES ('late', 1)")).rejects.toThrow(/no transaction is open/);
      expect(await db.get("SELECT k FROM t WHERE k = 'late'")).toBeUndefined();
    });
  });
}
