// Migration 044 on a database that already holds rows of every charged kind (written before it, with no budget):
// each owner's counter starts at what its rows measure, memory's history included, and writes after it move the
// counters from there. On SQLite, and on PostgreSQL when it is installed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { migrate, readMigrations } from '../../src/store/migrate.js';
import { migratePostgres, PG_MIGRATIONS_DIR } from '../../src/store/pg-migrate.js';
import { PgDb } from '../../src/store/postgres.js';
import { STORAGE_ROW_BYTES } from '../../src/storage-budget.js';
import { migratedDb, type MigratedDb } from '../helpers/migrated-db.js';
import { hasPostgres, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { COUNTERS, RECOUNT } from './recount.js';

const BEFORE = 44;

/** Rows of every kind the budget charges, written by the schema before 044 (its memory triggers keep history). */
const SEED = (dialect: 'sqlite' | 'postgres') => {
  const bytes = (hex: string) => (dialect === 'sqlite' ? `x'${hex}'` : `'\\x${hex}'`);
  const upsert = dialect === 'sqlite' ? "ifnull(agent_id, '')" : "coalesce(agent_id, '')";
  const put = (agent: string, key: string, value: string) =>
    `INSERT INTO memory_entries (agent_id, namespace, key, value, size, tags, version, created_at, updated_at) VALUES ('${agent}', 'n', '${key}', '${value}', ${Buffer.byteLength(value)}, '[]', 1, 1, 1)
     ON CONFLICT (${upsert}, namespace, key) DO UPDATE SET value = excluded.value, size = excluded.size, version = memory_entries.version + 1`;
  return [
    "INSERT INTO agents (id, handle, secret_hash, created_at) VALUES ('ag_a', 'alice', 'h1', 1), ('ag_b', 'bob', 'h2', 1), ('ag_c', 'carol', 'h3', 1)",
    put('ag_a', 'k1', '"first"'),
    put('ag_a', 'k1', '"second, longer"'),
    put('ag_a', 'k1', '{"third":[1,2,3]}'),
    put('ag_a', 'k2', '"é"'),
    put('ag_b', 'k1', '[true]'),
    "INSERT INTO memory_entries (agent_id, namespace, key, value, size, tags, version, created_at, updated_at) VALUES (NULL, 'pad', 'k', '\"anon\"', 6, '[]', 1, 1, 1)",
    "INSERT INTO artifacts (id, agent_id, sha256, bytes, content_type, filename, created_at, expires_at) VALUES ('x1', 'ag_a', 's1', 1234, 'text/plain', 'notes.txt', 1, 99), ('x2', NULL, 's2', 9, 'text/plain', 'a', 1, 99)",
    `INSERT INTO vault_entries (agent_id, name, kind, metadata, nonce, ciphertext, created_at, updated_at) VALUES ('ag_b', 'gh', 'token', '{"s":1}', ${bytes('0011')}, ${bytes('aabbcc')}, 1, 1)`,
    "INSERT INTO wall_posts (id, agent_id, kind, text, topics, created_at) VALUES (1, 'ag_a', 'note', 'a post', '[]', 1), (2, 'ag_b', 'note', 'another post', '[]', 2)",
    "INSERT INTO wall_reactions (post_id, agent_id, kind, created_at) VALUES (1, 'ag_b', 'like', 1)",
    "INSERT INTO follows (follower_id, followee_id, created_at) VALUES ('ag_c', 'ag_a', 1)",
    "INSERT INTO mail (from_id, to_id, subject, body, created_at) VALUES ('ag_c', 'ag_a', 'hello', 'a letter', 1)",
    "INSERT INTO jobs (id, agent_id, type, input, status, result, created_at, due_at) VALUES ('j1', 'ag_c', 'delay', '{\"ms\":5}', 'succeeded', '{\"ok\":1}', 1, 1), ('j2', NULL, 'delay', '{}', 'queued', NULL, 1, 1)",
    "INSERT INTO handoffs (id, agent_id, task, context, status, created_at, expires_at) VALUES ('h1', 'ag_c', 'look', 'null', 'parked', 1, 9)",
    "INSERT INTO watches (id, agent_id, url, interval_hours, mode, status, created_at, renewed_at, expires_at, owner_seen_at) VALUES ('w1', 'ag_b', 'https://example.com', 24, 'text', 'active', 1, 1, 9, 1)",
    "INSERT INTO webhook_deliveries (source, ref, agent_id, url, body, secret, status, created_at) VALUES ('job', 'j1', 'ag_c', 'https://cb.example', '{}', 'sec', 'delivered', 1)",
    "INSERT INTO a2a_tasks (id, context_id, agent_id, state, status, history, artifacts, created_at, updated_at) VALUES ('t1', 'c1', 'ag_b', 'completed', '{\"state\":\"completed\"}', '[{\"role\":\"user\"}]', '[]', 1, 1), ('t2', 'c2', NULL, 'completed', '{}', '[]', '[]', 1, 1)",
    "INSERT INTO mcp_tasks (id, agent_id, tool, work_id, created_at, expires_at) VALUES ('m1', 'ag_c', 'job_create', 'j1', 1, 9)",
    "INSERT INTO revenue_accounts (id, email, name, key_hash, key_hint, client_hash, created_at) VALUES ('acct_1', 'a@x', 'A', 'kh', 'rk_', 'ch', 1)",
    "INSERT INTO orders (id, account_id, service, price_id, status, price, rail, hold_ref, hold_amount, payment_state, input, result, created_at, updated_at) VALUES ('o1', 'acct_1', 'copy', 'p1', 'delivered', 5, 'credits', 'h1', 5, 'captured', '{\"brief\":\"x\"}', '{\"text\":\"y\"}', 1, 1)",
  ];
};

const num = (rows: Record<string, unknown>[]) => rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'owner_id' || k === 'agent_id' ? v : Number(v)])));

function suite(open: () => Promise<{ db: Db; finish(): Promise<void>; close(): Promise<void> }>) {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const o = await open();
    db = o.db;
    close = o.close;
    for (const s of SEED(db.dialect)) await db.run(s);
    await o.finish();
  }, 120_000);
  afterAll(() => close?.());

  it("starts every owner's counter at what its rows hold, memory's history included", async () => {
    const counters = num(await db.all(COUNTERS));
    expect(counters).toEqual(num(await db.all(RECOUNT)));
    expect(counters.map((c) => c.owner_id)).toEqual(['acct_1', 'ag_a', 'ag_b', 'ag_c']);
    // alice: k1 with its two replaced versions, k2, her artifact (bytes and names) and her post.
    const [k1, k2, v1, v2] = ['{"third":[1,2,3]}', '"é"', '"first"', '"second, longer"'].map((v) => Buffer.byteLength(v));
    const memory = k1 + k2 + v1 + v2 + 4 * STORAGE_ROW_BYTES;
    const alice = memory + (1234 + 'notes.txt'.length + 'text/plain'.length + STORAGE_ROW_BYTES) + ('a post'.length + STORAGE_ROW_BYTES);
    expect(counters.find((c) => c.owner_id === 'ag_a')!.bytes).toBe(alice);
    expect(num(await db.all("SELECT agent_id, entries, bytes, versions, version_bytes, charged FROM memory_usage WHERE agent_id = 'ag_a'"))).toEqual([
      { agent_id: 'ag_a', entries: 2, bytes: k1 + k2, versions: 2, version_bytes: v1 + v2, charged: memory },
    ]);
  });

  it('moves the counters from there on later writes and removals', async () => {
    await db.run("INSERT INTO wall_posts (id, agent_id, kind, text, topics, created_at) VALUES (3, 'ag_c', 'note', 'late', '[]', 3)");
    await db.run("DELETE FROM memory_entries WHERE agent_id = 'ag_a' AND key = 'k1'");
    await db.run("DELETE FROM mail WHERE from_id = 'ag_c'");
    expect(num(await db.all(COUNTERS))).toEqual(num(await db.all(RECOUNT)));
  });
}

describe('migration 044 on an existing SQLite database', () => {
  let m: MigratedDb;
  suite(async () => {
    m = await migratedDb(readMigrations().filter((x) => x.version < BEFORE));
    return { db: m.db, finish: async () => void (await migrate(m.db)), close: () => m.remove() };
  });
});

describe.skipIf(!hasPostgres)('migration 044 on an existing PostgreSQL database', () => {
  let server: TestPostgres;
  suite(async () => {
    server = await startPostgres();
    const db = await PgDb.open(await server.createDatabase('existing'));
    await migratePostgres(db, readMigrations(PG_MIGRATIONS_DIR).filter((x) => x.version < BEFORE));
    return {
      db,
      finish: async () => void (await migratePostgres(db)),
      close: async () => {
        await db.close();
        await server.stop();
      },
    };
  });
});
