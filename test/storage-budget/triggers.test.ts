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
import { STORAGE_ROW_BYTES } from '../../src/storage-budget.js';
import { tempDir } from '../helpers/gateway.js';
import { hasPostgres, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { storageBudgetCases } from './trigger-cases.js';

/** Every owner's rows measured from scratch, as the budget counts them (a memory entry's history included). */
const RECOUNT = `SELECT owner_id, SUM(bytes) AS bytes FROM (
  SELECT agent_id AS owner_id, size + ${STORAGE_ROW_BYTES} AS bytes FROM memory_entries WHERE agent_id IS NOT NULL
  UNION ALL SELECT e.agent_id, v.size + ${STORAGE_ROW_BYTES} FROM memory_versions v JOIN memory_entries e ON e.id = v.entry_id WHERE e.agent_id IS NOT NULL
  UNION ALL SELECT agent_id, bytes + octet_length(filename) + octet_length(content_type) + 256 FROM artifacts WHERE agent_id IS NOT NULL
  UNION ALL SELECT agent_id, octet_length(name) + octet_length(kind) + octet_length(CAST(metadata AS TEXT)) + octet_length(nonce) + octet_length(ciphertext) + 256 FROM vault_entries
  UNION ALL SELECT agent_id, octet_length(text) + 256 FROM wall_posts
  UNION ALL SELECT agent_id, 256 FROM wall_reactions
  UNION ALL SELECT follower_id, 256 FROM follows
  UNION ALL SELECT from_id, octet_length(subject) + octet_length(body) + 256 FROM mail
  UNION ALL SELECT agent_id, octet_length(CAST(input AS TEXT)) + coalesce(octet_length(callback_url), 0) + coalesce(octet_length(callback_secret), 0)
      + coalesce(octet_length(CAST(result AS TEXT)), 0) + coalesce(octet_length(error), 0) + coalesce(octet_length(CAST(callback AS TEXT)), 0) + 256 FROM jobs WHERE agent_id IS NOT NULL
  UNION ALL SELECT agent_id, octet_length(task) + octet_length(CAST(context AS TEXT)) + coalesce(octet_length(callback_url), 0) + coalesce(octet_length(callback_secret), 0)
      + coalesce(octet_length(CAST(result AS TEXT)), 0) + coalesce(octet_length(reason), 0) + coalesce(octet_length(CAST(callback AS TEXT)), 0) + 256 FROM handoffs WHERE agent_id IS NOT NULL
  UNION ALL SELECT agent_id, octet_length(url) + coalesce(octet_length(selector), 0) + coalesce(octet_length(callback_url), 0) + 256 FROM watches
  UNION ALL SELECT agent_id, octet_length(url) + octet_length(body) + octet_length(secret) + 256 FROM webhook_deliveries WHERE agent_id IS NOT NULL
  UNION ALL SELECT agent_id, octet_length(CAST(status AS TEXT)) + octet_length(CAST(history AS TEXT)) + octet_length(CAST(artifacts AS TEXT)) + 256 FROM a2a_tasks WHERE agent_id IS NOT NULL
  UNION ALL SELECT agent_id, octet_length(tool) + octet_length(work_id) + 256 FROM mcp_tasks WHERE agent_id IS NOT NULL
  UNION ALL SELECT account_id, octet_length(CAST(input AS TEXT)) + coalesce(octet_length(CAST(result AS TEXT)), 0) + coalesce(octet_length(CAST(usage AS TEXT)), 0) + coalesce(octet_length(error), 0)
      + coalesce(octet_length(CAST(hold_data AS TEXT)), 0) + coalesce(octet_length(revision_notes), 0) + coalesce(octet_length(webhook_url), 0) + coalesce(octet_length(webhook_secret), 0) + 256 FROM orders
) s GROUP BY owner_id ORDER BY owner_id`;
const COUNTERS = 'SELECT owner_id, bytes FROM storage_usage WHERE bytes <> 0 ORDER BY owner_id';

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
