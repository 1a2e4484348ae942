// `agent-gateway migrate-store` (issue 25): a SQLite deployment with real data written through the API is copied
// by the built CLI into a fresh PostgreSQL database; the JSON report names every table with its rows; a gateway on
// PostgreSQL then reads back the same data (memory values and versions, a vault secret it can still decrypt,
// credits, the wall, follows, mail, a job) and hands new writes fresh ids. Also: a copy taken while the SQLite
// gateway keeps writing is one consistent snapshot; a non-empty target, a missing argument and a data directory
// without a database are refused. Needs a PostgreSQL server (test/helpers/postgres.ts); skipped without one.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/store/sqlite-driver.js';
import { api, register, startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';
import { hasPostgres, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const OPERATOR = 'operator-token-for-migrate-store-0123456789';
const ENV = { GATEWAY_OPERATOR_TOKEN: OPERATOR };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The built CLI, run asynchronously (a gateway in this process keeps serving meanwhile). */
function cli(args: string[]): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/main.js'), ...args], { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr, ms: Math.round(performance.now() - started) }));
  });
}

type Agent = { handle: string; secret: string };
let jobId = '';

/** Data across the areas, written through the API. */
async function seed(gw: TestGateway): Promise<Record<string, Agent>> {
  const alice = await register(gw.url, 'mig-alice');
  const bob = await register(gw.url, 'mig-bob');
  const r = await api(gw.url, 'POST', '/agents/register', { body: { handle: 'mig-carol', via: alice.handle } });
  expect(r.status).toBe(201);
  const carol = { handle: r.body.handle, secret: r.body.secret };
  const as = (who: Agent, method: string, p: string, body?: unknown) => api(gw.url, method, p, { body, secret: who.secret });
  for (let i = 1; i <= 4; i++) {
    gw.clock.advance(1000);
    expect((await as(alice, 'PUT', '/memory/notes/plan', { value: { step: i, z: 'last', a: [1, 2.5, null], text: `plan ${i} ☕ "q"`, long: 'ledger line '.repeat(40) }, tags: ['ops', `v${i}`] })).status).toBe(200);
  }
  expect((await as(alice, 'PUT', '/memory/notes/unicode', { value: 'é 日本語 🎈\nline', tags: ['intl'] })).status).toBe(200);
  expect((await as(bob, 'PUT', '/memory/scratch/n', { value: 12345678901 })).status).toBe(200);
  expect((await as(alice, 'POST', '/vault', { name: 'github', value: 'ghp_migrate_store_secret_value_0123', kind: 'api_key', metadata: { note: 'ci', allowed_hosts: ['127.0.0.1'] } })).status).toBeLessThan(300);
  expect((await api(gw.url, 'POST', '/operator/credits', { body: { handle: alice.handle, amount: 2500, reason: 'migration test' }, headers: { 'x-operator-token': OPERATOR } })).status).toBe(201);
  const root = await as(alice, 'POST', '/wall', { text: 'Moving house to #postgres, @mig-bob take a look' });
  expect(root.status).toBe(201);
  gw.clock.advance(1000);
  expect((await as(bob, 'POST', `/wall/${root.body.post_id}/react`, { reaction: 'like' })).status).toBeLessThan(300);
  expect((await as(carol, 'POST', '/wall', { text: 'Quoting the move #postgres', quote: root.body.post_id })).status).toBe(201);
  expect((await as(bob, 'POST', '/follow/mig-alice')).status).toBeLessThan(300);
  expect((await as(alice, 'POST', '/mail', { to: 'mig-bob', subject: 'Moved', body: 'See the wall' })).status).toBeLessThan(300);
  const job = await as(alice, 'POST', '/jobs', { type: 'delay', seconds: 3600 });
  expect(job.status).toBe(202);
  jobId = job.body.job_id;
  expect((await api(gw.url, 'POST', '/keys/issue', { body: { email: 'migrate@example.com' } })).status).toBeLessThan(300);
  return { alice, bob, carol };
}

/** What the API shows of the seeded data: equal on both stores. */
async function snapshot(gw: TestGateway, a: Record<string, Agent>): Promise<Record<string, unknown>> {
  const get = async (p: string, who?: Agent) => {
    const r = await api(gw.url, 'GET', p, { secret: who?.secret });
    expect(r.status, p).toBe(200);
    return r.body;
  };
  const shown = {
    plan: await get('/memory/notes/plan', a.alice),
    history: await get('/memory/notes/plan/history?limit=10', a.alice),
    v2: await get('/memory/notes/plan/v/2', a.alice),
    unicode: await get('/memory/notes/unicode', a.alice),
    scratch: await get('/memory/scratch/n', a.bob),
    vault: await get('/vault/github', a.alice),
    vaultList: await get('/vault', a.alice),
    credits: await get(`/agents/${a.alice.handle}/credits`, a.alice),
    ledger: await get(`/agents/${a.alice.handle}/credits/ledger`, a.alice),
    wall: await get('/wall?limit=20'),
    followers: await get(`/followers/${a.alice.handle}`),
    inbox: await get('/mail/inbox', a.bob),
    notifications: await get('/notifications', a.bob),
    job: await get(`/jobs/${jobId}`, a.alice),
  };
  return JSON.parse(JSON.stringify(shown).replace(/http:\/\/127\.0\.0\.1:\d+/g, 'BASE')); // the gateways' ports differ
}

describe.skipIf(!hasPostgres)('migrate-store', () => {
  let server: TestPostgres;
  const savedPgUrl = process.env.TEST_PG_URL;
  beforeAll(async () => {
    delete process.env.TEST_PG_URL; // the source gateways are SQLite ones, whatever the suite's store
    server = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    if (savedPgUrl !== undefined) process.env.TEST_PG_URL = savedPgUrl;
    await server?.stop();
  });

  it('copies a stopped SQLite deployment, and a PostgreSQL gateway reads the same data and writes fresh ids', async () => {
    const lite = await startGateway({ env: ENV });
    const agents = await seed(lite);
    const before = await snapshot(lite, agents);
    expect(before.vault).toMatchObject({ value: 'ghp_migrate_store_secret_value_0123' });
    const lastPost = (before.wall as { posts: { post_id: number }[] }).posts[0].post_id;
    await lite.stop();
    // x402 payments (no x402 wallet here): PostgreSQL's seq numbers them in SQLite's insertion (rowid) order.
    const file = path.join(lite.dataDir, 'gateway.db');
    const raw = new Database(file);
    const pay = raw.prepare(
      "INSERT INTO x402_payments (id, network, asset, payer, nonce, pay_to, amount, tool, transport, x402_version, valid_before, status, verify_ms, created_at, updated_at) VALUES (?, 'base-sepolia', '0xa', '0xb', ?, '0xc', '1000', 'base_convert', 'rest', 1, 1800000000, 'settled', 12.5, 5, 5)",
    );
    for (const [i, id] of ['pay_c', 'pay_a', 'pay_b'].entries()) pay.run(id, `0x${i}`);
    // A copy at an older schema version is refused.
    const old = tempDir();
    raw.exec(`VACUUM INTO '${path.join(old, 'gateway.db')}'`);
    raw.close();
    const oldDb = new Database(path.join(old, 'gateway.db'));
    oldDb.exec('DELETE FROM schema_migrations WHERE version = (SELECT MAX(version) FROM schema_migrations)');
    oldDb.close();
    const stale = await cli(['migrate-store', '--from', old, '--to', await server.createDatabase('copy_stale')]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/schema version \d+, this gateway's is \d+: start this gateway version once on/);
    fs.rmSync(old, { recursive: true, force: true });

    const url = await server.createDatabase('copy_stopped');
    const run = await cli(['migrate-store', '--from', lite.dataDir, '--to', url]);
    expect(run.stderr).toMatch(/row counts and checksums match/);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    console.log(`migrate-store: ${report.rows} rows of ${report.tables.length} tables copied and verified in ${report.ms} ms (CLI process ${run.ms} ms)`);
    const rows = Object.fromEntries(report.tables.map((t: { table: string; rows: number }) => [t.table, t.rows]));
    for (const t of report.tables) expect(t.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(rows).toMatchObject({ agents: 3, memory_entries: 3, memory_versions: 3, vault_entries: 1, vault_keys: 1, credit_ledger: 1, wall_posts: 2, wall_reactions: 1, follows: 1, mail: 1, jobs: 1 });
    expect(rows.wall_mentions).toBeGreaterThanOrEqual(1);
    expect(rows.api_keys).toBeGreaterThanOrEqual(1);
    expect(rows.x402_payments).toBe(3);
    expect(Object.keys(rows)).not.toContain('schema_migrations');
    expect(Object.keys(rows).some((t) => t.includes('fts'))).toBe(false);
    expect(run.stdout).not.toContain(agents.alice.secret);
    expect(run.stdout).not.toContain('ghp_migrate');

    const pgDb = new pg.Client({ connectionString: url });
    await pgDb.connect();
    try {
      // Every table PostgreSQL has (but the migrations' own) is in the report.
      const tables = (await pgDb.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations' ORDER BY 1")).rows.map((r) => r.tablename);
      expect(Object.keys(rows).sort()).toEqual(tables);
      expect((await pgDb.query('SELECT id FROM x402_payments ORDER BY seq')).rows.map((r) => r.id)).toEqual(['pay_c', 'pay_a', 'pay_b']);
      expect((await pgDb.query("SELECT verify_ms FROM x402_payments WHERE id = 'pay_a'")).rows[0].verify_ms).toBe(12.5);
      // The triggers are on again.
      const off = await pgDb.query("SELECT tgrelid::regclass::text AS t, tgname FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'D'");
      expect(off.rows).toEqual([]);

      const gw = await startGateway({ dataDir: lite.dataDir, env: { ...ENV, GATEWAY_DATABASE_URL: url } });
      try {
        gw.clock.set(lite.clock.now());
        expect(await snapshot(gw, agents)).toEqual(before);
        // The copied entries are in the full-text index: the copy fills the vector its disabled trigger would have.
        const found = await api(gw.url, 'GET', '/memory/search?q=ledger', { secret: agents.alice.secret });
        expect(found.body.results.map((r: { key: string }) => r.key)).toEqual(['plan']);
        expect((await pgDb.query('SELECT count(*)::int AS n FROM memory_entries WHERE fts IS NULL')).rows[0].n).toBe(0);
        // New writes: fresh ids past the copied ones, triggers counting again.
        const next = await api(gw.url, 'POST', '/wall', { body: { text: 'first post on #postgres' }, secret: agents.bob.secret });
        expect(next.status).toBe(201);
        expect(next.body.post_id).toBe(lastPost + 1);
        expect((await api(gw.url, 'PUT', '/memory/notes/plan', { body: { value: 'after the move' }, secret: agents.alice.secret })).body.version).toBe(5);
        expect((await api(gw.url, 'POST', '/operator/credits', { body: { handle: agents.bob.handle, amount: 100, reason: 'after' }, headers: { 'x-operator-token': OPERATOR } })).status).toBe(201);
        const ids = (await pgDb.query('SELECT id FROM credit_ledger ORDER BY id')).rows.map((r) => Number(r.id));
        expect(ids).toEqual([1, 2]);
        const dave = await register(gw.url, 'mig-dave');
        expect((await api(gw.url, 'PUT', '/memory/notes/x', { body: { value: 1 }, secret: dave.secret })).status).toBe(200);
      } finally {
        await gw.stop();
      }
    } finally {
      await pgDb.end();
    }

    // A second copy into the now non-empty database is refused, naming a table.
    const again = await cli(['migrate-store', '--from', lite.dataDir, '--to', url]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/not empty: table \w+ has rows/);
    expect(again.stdout).toBe('');
    fs.rmSync(lite.dataDir, { recursive: true, force: true });
  });

  it('copies one consistent snapshot of a gateway that keeps writing', async () => {
    const lite = await startGateway({ env: ENV });
    try {
      const agents = await seed(lite);
      let writing = true;
      let writes = 0;
      const writer = (async () => {
        while (writing) {
          const r = await api(lite.url, 'PUT', `/memory/load/k${writes % 50}`, { body: { value: { n: writes, pad: 'x'.repeat(200) }, tags: ['load'] }, secret: agents.bob.secret });
          expect(r.status).toBe(200);
          if (writes % 3 === 0) await api(lite.url, 'POST', '/wall', { body: { text: `load ${writes} @mig-alice #load` }, secret: agents.bob.secret });
          writes++;
        }
      })();
      await new Promise((r) => setTimeout(r, 200));
      const url = await server.createDatabase('copy_running');
      const run = await cli(['migrate-store', '--from', lite.dataDir, '--to', url]);
      const during = writes;
      await new Promise((r) => setTimeout(r, 100));
      writing = false;
      await writer;
      expect(run.stderr).toMatch(/row counts and checksums match/);
      expect(run.code).toBe(0);
      expect(writes).toBeGreaterThan(during); // writes went on while and after it ran
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        // What triggers keep in step with the rows agrees in the copy: one snapshot, not a mix.
        const usage = await c.query(
          `SELECT u.agent_id, u.entries, (SELECT count(*)::int FROM memory_entries e WHERE e.agent_id = u.agent_id) AS n FROM memory_usage u`,
        );
        for (const row of usage.rows) expect(Number(row.entries)).toBe(row.n);
        const posts = await c.query(`SELECT (SELECT n FROM wall_counters WHERE name = 'posts') AS counter, (SELECT count(*) FROM wall_posts) AS n`);
        expect(Number(posts.rows[0].counter)).toBe(Number(posts.rows[0].n));
      } finally {
        await c.end();
      }
    } finally {
      await lite.cleanup();
    }
  });

  it('refuses bad arguments (2) and a data directory without a database (1)', async () => {
    const noFrom = await cli(['migrate-store', '--to', server.url]);
    expect(noFrom.code).toBe(2);
    expect(noFrom.stderr).toMatch(/--from <sqlite data dir> is required/);
    const noTo = await cli(['migrate-store', '--from', '/tmp']);
    expect(noTo.code).toBe(2);
    const empty = tempDir();
    try {
      const missing = await cli(['migrate-store', '--from', empty, '--to', server.url]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain(`no gateway database at ${path.join(empty, 'gateway.db')}`);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
