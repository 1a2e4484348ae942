// Several gateway instances on one PostgreSQL (issue 25): three processes of the built CLI, one database, one
// shared data directory, requests spread round-robin. The database decides, so a monthly quota stops exactly at
// its limit under 50 concurrent calls, one compare-and-set of 20 wins, each entry's facts and embedding are made
// once whichever instances were written to, 1,000 durable delay jobs each run once whichever instance claims them,
// a subscriptions/listen stream on one instance hears a write made on another, a cached context card is built again
// after a write on another instance, and `kill -9` of one instance under write load loses no acknowledged write.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgDb } from '../../src/store/postgres.js';
import { POSTS_PER_MINUTE } from '../../tools/wall/limits.js';
import { eventually } from '../helpers/eventually.js';
import { api, register, tempDir } from '../helpers/gateway.js';
import { modernPost } from '../helpers/modern-mcp.js';
import { startOpenAiServer, type FakeUpstream } from '../helpers/openai-server.js';
import { hasPostgres, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { startInstance as startInstanceIn, type Instance } from './instances-harness.js';

let server: TestPostgres;
let dbUrl: string;
let db: PgDb;
/** The embeddings API the instances call (every memory write is embedded in the background). */
let embeddings: FakeUpstream;
const dataDir = tempDir();
const instances: Instance[] = [];

// The change feed's poll is slowed to a minute: a listen stream hears another instance's write by its NOTIFY.
const startInstance = () =>
  startInstanceIn(dbUrl, dataDir, { GATEWAY_MCP_CHANGE_POLL_MS: '60000', EMBEDDINGS_BASE_URL: embeddings.url, EMBEDDINGS_MODEL: 'test-embed' });

let turn = 0;
/** The next instance, round-robin, among those still alive. */
const next = (): string => {
  const alive = instances.filter((i) => i.child.exitCode === null && i.child.signalCode === null);
  return alive[turn++ % alive.length].url;
};

beforeAll(async () => {
  if (!hasPostgres) return;
  server = await startPostgres();
  dbUrl = server.url;
  embeddings = await startOpenAiServer();
  // Started together: the migrations run once under the advisory lock.
  instances.push(...(await Promise.all([startInstance(), startInstance(), startInstance()])));
  db = await PgDb.open(dbUrl);
}, 120_000);

afterAll(async () => {
  for (const i of instances) i.child.kill('SIGKILL');
  await db?.close();
  await server?.stop();
  await embeddings?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!hasPostgres)('three instances on one PostgreSQL', () => {
  it('migrated the schema once', async () => {
    const rows = await db.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.length).toBeGreaterThanOrEqual(25);
    expect(new Set(rows.map((r) => r.version)).size).toBe(rows.length);
  });

  it('stops a monthly quota exactly at its limit under 50 concurrent calls spread over the instances', async () => {
    const issued = await api(next(), 'POST', '/keys/issue', { body: { email: 'quota@example.com' } });
    expect(issued.status).toBe(201);
    const key = issued.body.key as string;
    const quota = issued.body.monthly_quota as number;
    const usage = await api(next(), 'GET', '/keys/usage', { headers: { 'x-api-key': key } });
    const id = (await db.get<{ id: string }>('SELECT id FROM api_keys WHERE hint = ?', [usage.body.key]))!.id;
    // 30 calls left of the month's quota.
    await db.run("INSERT INTO key_usage (key_id, period, scope, used) VALUES (?, ?, '*', ?)", [id, usage.body.period, quota - 30]);
    const calls = await Promise.all(
      Array.from({ length: 50 }, () => api(next(), 'POST', '/tools/base_convert', { body: { value: '7', from_base: 10, to_base: 2 }, headers: { 'x-api-key': key } })),
    );
    const statuses = calls.map((c) => c.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(new Set(statuses.filter((s) => s !== 200))).toEqual(new Set([402]));
    expect((await db.get<{ used: number }>("SELECT used FROM key_usage WHERE key_id = ? AND scope = '*'", [id]))!.used).toBe(quota);
  });

  it('counts a per-handle rate window across the instances: exactly its limit of concurrent wall posts passes', async () => {
    const a = await register(next(), 'burst-agent');
    const posts = await Promise.all(Array.from({ length: POSTS_PER_MINUTE + 6 }, (_, i) => api(next(), 'POST', '/wall', { secret: a.secret, body: { text: `burst number ${i}` } })));
    const statuses = posts.map((p) => p.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(POSTS_PER_MINUTE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
  });

  it('lets exactly one of 20 concurrent compare-and-set writes through', async () => {
    const a = await register(next(), 'cas-agent');
    expect((await api(next(), 'PUT', '/memory/cas/counter', { secret: a.secret, body: { value: 0 } })).body.version).toBe(1);
    const writes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api(next(), 'PUT', '/memory/cas/counter', { secret: a.secret, body: { value: i + 1, if_version: 1 } })),
    );
    expect(writes.filter((w) => w.status === 200)).toHaveLength(1);
    expect(writes.filter((w) => w.status === 409)).toHaveLength(19);
    const winner = writes.find((w) => w.status === 200)!;
    const read = await api(next(), 'GET', '/memory/cas/counter', { secret: a.secret });
    expect(read.body).toMatchObject({ version: 2 });
    expect(winner.body.version).toBe(2);
  });

  it("extracts each entry's facts and embeds its text once, whichever instances were written to", async () => {
    const a = await register(next(), 'worker-agent');
    const keys = Array.from({ length: 150 }, (_, i) => `shared-${i}`);
    for (let i = 0; i < keys.length; i += 30) {
      const puts = await Promise.all(
        keys.slice(i, i + 30).map((key, j) =>
          api(next(), 'PUT', `/memory/work/${key}`, { secret: a.secret, body: { value: { note: `Alice Martin met Bob Stone in Lisbon about case ${i + j}`, status: 'open' } } }),
        ),
      );
      expect(puts.map((p) => p.status)).toEqual(puts.map(() => 200));
    }
    const agent = "(SELECT id FROM agents WHERE handle = 'worker-agent')";
    await eventually(async () => {
      const done = await db.get<{ facts: number; embedded: number }>(
        `SELECT COUNT(*) FILTER (WHERE e.facts_version = e.version) AS facts, COUNT(m.entry_id) AS embedded
         FROM memory_entries e LEFT JOIN memory_embeddings m ON m.entry_id = e.id WHERE e.agent_id = ${agent}`,
      );
      expect(done).toEqual({ facts: 150, embedded: 150 });
    }, 60_000);
    // Each text went to the embeddings API once, and no fact was written twice.
    const sent = embeddings.requests
      .filter((r) => r.path === '/v1/embeddings')
      .flatMap((r) => (Array.isArray(r.body.input) ? r.body.input : [r.body.input]) as string[])
      .map((t) => t.split('\n')[0])
      .filter((k) => k.startsWith('shared-'));
    expect(sent.sort()).toEqual([...keys].sort());
    const twice = await db.all(
      `SELECT f.entry_id, f.kind, f.norm, f.object, COUNT(*) AS n FROM memory_facts f JOIN memory_entries e ON e.id = f.entry_id
       WHERE e.agent_id = ${agent} AND f.superseded_at IS NULL GROUP BY 1, 2, 3, 4 HAVING COUNT(*) > 1`,
    );
    expect(twice).toEqual([]);
    expect((await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM memory_facts f JOIN memory_entries e ON e.id = f.entry_id WHERE e.agent_id = ${agent}`))!.n).toBeGreaterThanOrEqual(150);
  }, 90_000);

  it('runs each of 1,000 delay jobs exactly once, whichever instance claims it', async () => {
    const a = await register(next(), 'job-agent');
    const ids: string[] = [];
    for (let batch = 0; batch < 1000; batch += 50) {
      const made = await Promise.all(
        Array.from({ length: 50 }, () => api(next(), 'POST', '/jobs', { secret: a.secret, body: { type: 'delay', seconds: 1 } })),
      );
      for (const m of made) {
        expect(m.status).toBe(202);
        ids.push(m.body.job_id);
      }
    }
    expect(new Set(ids).size).toBe(1000);
    await eventually(async () => {
      const left = await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM jobs WHERE status <> 'succeeded' AND id IN (SELECT id FROM jobs WHERE agent_id = (SELECT id FROM agents WHERE handle = 'job-agent'))");
      expect(left!.n).toBe(0);
    }, 120_000);
    const runs = await db.all<{ attempts: number; n: number }>(
      "SELECT attempts, COUNT(*) AS n FROM jobs WHERE agent_id = (SELECT id FROM agents WHERE handle = 'job-agent') GROUP BY attempts",
    );
    expect(runs).toEqual([{ attempts: 1, n: 1000 }]);
  }, 180_000);

  it('streams a change made on one instance to a subscriptions/listen stream held by another, woken by its NOTIFY', async () => {
    const a = await register(next(), 'listen-agent');
    const uri = 'memory://listen-agent/notes/today';
    const [holder, writer] = [instances[0].url, instances[1].url];
    const controller = new AbortController();
    const res = await modernPost(holder, 'subscriptions/listen', { notifications: { resourceSubscriptions: [uri] } }, { id: 'listen-x', signal: controller.signal, headers: { authorization: `Bearer ${a.secret}` } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = '';
    const pump = (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        text += new TextDecoder().decode(value);
      }
    })();
    try {
      await eventually(async () => expect(text).toContain('notifications/subscriptions/acknowledged'));
      expect((await api(writer, 'PUT', '/memory/notes/today', { secret: a.secret, body: { value: 'written on another instance' } })).status).toBe(200);
      await eventually(async () => expect(text).toContain(`"uri":"${uri}"`), 10_000);
    } finally {
      controller.abort();
      await reader.cancel().catch(() => undefined);
      await pump;
    }
  });

  it('builds a context card again when the memory changed on another instance (no stale cache)', async () => {
    const a = await register(next(), 'card-agent');
    const [reader, writer] = [instances[0].url, instances[1].url];
    expect((await api(writer, 'PUT', '/memory/notes/first', { secret: a.secret, body: { value: 'one' } })).status).toBe(200);
    const c1 = await api(reader, 'GET', '/memory/context/card-agent', { secret: a.secret });
    expect((await api(reader, 'GET', '/memory/context/card-agent', { secret: a.secret })).body.cached).toBe(true);
    expect((await api(writer, 'PUT', '/memory/notes/second', { secret: a.secret, body: { value: 'two', pinned: true } })).status).toBe(200);
    const c2 = await api(reader, 'GET', '/memory/context/card-agent', { secret: a.secret });
    expect(c2.body.cached).toBe(false);
    expect(c2.body.pinned.map((e: { key: string }) => e.key)).toEqual(['second']);
    expect(c1.body.pinned).toEqual([]);
  });

  it('keeps every acknowledged write when one instance is killed with SIGKILL under write load', async () => {
    const a = await register(next(), 'kill-agent');
    const acknowledged = new Map<string, number>();
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const key = `w${w}-${i}`;
        const r = await api(next(), 'PUT', `/memory/load/${key}`, { secret: a.secret, body: { value: { w, i } } }).catch(() => null);
        if (r?.status === 200) acknowledged.set(key, i);
      }
    };
    const running = Array.from({ length: 8 }, (_, w) => writer(w));
    await new Promise((r) => setTimeout(r, 1500));
    const victim = instances[2];
    victim.child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 1500));
    stop = true;
    await Promise.all(running);
    expect(victim.child.signalCode).toBe('SIGKILL');
    expect(acknowledged.size).toBeGreaterThan(50);
    const survivor = instances[0].url;
    const listed = new Map<string, unknown>();
    let cursor: string | undefined;
    do {
      const page = await api(survivor, 'GET', `/memory/load?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { secret: a.secret });
      expect(page.status).toBe(200);
      for (const e of page.body.keys) listed.set(e.key, e);
      cursor = page.body.next_cursor ?? undefined;
    } while (cursor);
    const missing = [...acknowledged.keys()].filter((k) => !listed.has(k));
    expect(missing).toEqual([]);
    for (const [key, i] of [...acknowledged].slice(0, 20)) {
      const r = await api(survivor, 'GET', `/memory/load/${key}`, { secret: a.secret });
      expect(r.body.value).toEqual({ w: Number(key.slice(1, key.indexOf('-'))), i });
    }
  }, 60_000);
});
