// Migration 044's triggers, case by case (trigger-cases.ts), on a fresh SQLite database and a fresh PostgreSQL one:
// the same rows after the same SQL, the same refusal, and each owner's counter equal to its rows measured again from
// scratch (content bytes plus 256 a row), so what the triggers add and take back never drifts from what is stored.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { migratePostgres } from '../../src/store/pg-migrate.js';
import { PgDb } from '../../src/store/postgres.js';
import { SqliteDb } from '../../src/store/sqlite.js';
import { registerFunctions } from '../../src/store/sqlite-connection.js';
import { Database } from '../../src/store/sqlite-driver.js';
import { tempDir } from '../helpers/gateway.js';
import { hasPostgres, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { COUNTERS, RECOUNT } from './recount.js';
import { storageBudgetCases } from './trigger-cases.js';

type Rows = Record<string, unknown>[];
/** Numbers as numbers, bytes as hex: the two drivers hand them over differently. */
const canon = (rows: Rows): Rows =>
  rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' || (typeof v === 'string' && /^-?\d+$/.test(v)) ? Number(v) : Buffer.isBuffer(v) ? v.toString('hex') : v])));

let image: Buffer;
let server: TestPostgres | undefined;
let admin: pg.Client | undefined;
const dir = tempDir();
let n = 0;

beforeAll(async () => {
  const sdb = await SqliteDb.open(path.join(dir, 'tmpl.db'));
  await migrate(sdb);
  await sdb.close();
  const raw = new Database(path.join(dir, 'tmpl.db'));
  raw.pragma('journal_mode = DELETE');
  image = raw.serialize();
  raw.close();
  if (!hasPostgres) return;
  server = await startPostgres();
  const tmpl = await PgDb.open(await server.createDatabase('tmpl'));
  await migratePostgres(tmpl);
  await tmpl.close();
  admin = new pg.Client(server.url);
  await admin.connect();
}, 120_000);
afterAll(async () => {
  await admin?.end();
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

type Step = (typeof storageBudgetCases)[number]['steps'][number];
const sqlOf = (s: Step, dialect: 'sqlite' | 'pg') => (typeof s === 'string' ? s : s[dialect]);

/** The case's steps on a fresh copy of one store: the checks' rows, the recount, and the last step's refusal. */
async function run(c: (typeof storageBudgetCases)[number], dialect: 'sqlite' | 'pg') {
  const last = c.rejects !== undefined ? c.steps.length - 1 : -1;
  let refused: string | undefined;
  if (dialect === 'sqlite') {
    const lite = new Database(image);
    registerFunctions(lite);
    lite.pragma('foreign_keys = ON');
    try {
      for (const [i, s] of c.steps.entries()) {
        try {
          lite.exec(sqlOf(s, 'sqlite'));
        } catch (err) {
          if (i !== last) throw err;
          refused = (err as Error).message;
        }
      }
      const checks = [...c.check, COUNTERS, RECOUNT].map((q) => canon(lite.prepare(q).all() as Rows));
      return { checks, refused };
    } finally {
      lite.close();
    }
  }
  const name = `case_${++n}`;
  await admin!.query(`CREATE DATABASE ${name} TEMPLATE tmpl`);
  const client = new pg.Client(server!.url.replace(/\/gateway$/, `/${name}`));
  await client.connect();
  try {
    for (const [i, s] of c.steps.entries()) {
      try {
        await client.query(sqlOf(s, 'pg'));
      } catch (err) {
        if (i !== last) throw err;
        refused = (err as Error).message;
      }
    }
    const checks: Rows[] = [];
    for (const q of [...c.check, COUNTERS, RECOUNT]) checks.push(canon((await client.query(q)).rows));
    return { checks, refused };
  } finally {
    await client.end();
  }
}

describe('storage budget triggers (migration 044)', () => {
  for (const c of storageBudgetCases) {
    it(c.name, async () => {
      const lite = await run(c, 'sqlite');
      expect(lite.refused).toBe(c.rejects);
      const [counters, recount] = lite.checks.slice(-2);
      // Owners whose rows are all gone keep a counter at 0, left out here; every other counter is its rows' measure.
      expect(counters).toEqual(recount.filter((r) => r.bytes !== 0));
      expect(counters.length).toBeGreaterThan(0);
      if (!hasPostgres) return;
      const pgRun = await run(c, 'pg');
      expect(pgRun.refused).toBe(c.rejects);
      expect(pgRun.checks).toEqual(lite.checks);
    });
  }
});
