// Issue 26 storage target: bytes on disk per byte of live memory value ≤ 2.0 at the default history depth, index
// included, at 10k and 100k entries; and the database bytes per acknowledged write. Values are written through the
// gateway (bulk put, 100 a request) as agents write notes: mostly small, some pages, a few long documents (0–20 KB),
// JSON objects of words; one write in five rewrites a key written before, so the history holds versions too. On
// SQLite (the default store) and on PostgreSQL (BENCH_STORAGE_STORES=sqlite for the first only).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Database } from '../../src/store/sqlite-driver.js';
import { rng, sentence } from '../lib/corpus.js';
import pg from 'pg';
import { startPostgres, type TestPostgres } from '../../test/helpers/postgres.js';
import { startGateway, type Running } from '../lib/processes.js';

const AGENTS = 10;
const REWRITES = 0.2;

async function post(url: string, body: unknown, secret?: string): Promise<{ status: number; body: any }> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(secret ? { authorization: `Bearer ${secret}` } : {}) }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

/** A note of 0–20 KB: 70% under 500 B, 25% up to 5 KB, 5% up to 20 KB (about 9 bytes a word). */
function note(rand: () => number, n: number): unknown {
  const r = rand();
  const bytes = r < 0.7 ? rand() * 500 : r < 0.95 ? 500 + rand() * 4500 : 5000 + rand() * 15000;
  return { title: sentence(rand, 4), body: sentence(rand, Math.max(1, Math.round(bytes / 9))), n, done: rand() < 0.5 };
}

type Store = 'sqlite' | 'postgres';

interface Measured {
  entries: number;
  writes: number;
  liveBytes: number;
  dbBytes: number;
  tables: { name: string; bytes: number }[];
}

/** Writes `entries` notes through the gateway, 100 a request, each agent in turn; returns the writes acknowledged. */
async function write(gw: Running, entries: number): Promise<number> {
  const secrets: string[] = [];
  for (let a = 0; a < AGENTS; a++) secrets.push((await post(`${gw.url}/agents/register`, { handle: `storage-${a}` })).body.secret);
  const rand = rng(11);
  const own = new Array<number>(AGENTS).fill(0);
  let writes = 0;
  while (own.reduce((x, y) => x + y, 0) < entries) {
    const agent = writes / 100 % AGENTS;
    const items = Array.from({ length: 100 }, () => {
      // A rewrite picks one of this agent's keys at random; the rest are new keys.
      const rewrite = own[agent] > 100 && rand() < REWRITES;
      const k = rewrite ? Math.floor(rand() * own[agent]) : own[agent]++;
      return { namespace: `ns${k % 5}`, key: `k${k}`, value: note(rand, k) };
    });
    const r = await post(`${gw.url}/memory/bulk/put`, { items }, secrets[agent]);
    if (r.status !== 200) throw new Error(`bulk put answered ${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`);
    writes += items.length;
  }
  return writes;
}

async function measureSqlite(entries: number): Promise<Measured> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-storage-'));
  const gw = await startGateway({}, dir);
  const writes = await write(gw, entries);
  await gw.stop();
  const file = path.join(dir, 'gateway.db');
  const db = new Database(file);
  // What stays on disk: the WAL folded back into the file, as a checkpoint does.
  db.pragma('wal_checkpoint(TRUNCATE)');
  const liveBytes = Number((db.prepare('SELECT SUM(bytes) AS b FROM memory_usage').get() as { b: number }).b);
  const count = Number((db.prepare('SELECT COUNT(*) AS n FROM memory_entries').get() as { n: number }).n);
  const tables = db.prepare("SELECT name, SUM(pgsize) AS bytes FROM dbstat WHERE name LIKE 'memory%' GROUP BY name ORDER BY bytes DESC LIMIT 6").all() as Measured['tables'];
  db.close();
  const dbBytes = fs.statSync(file).size;
  fs.rmSync(dir, { recursive: true, force: true });
  return { entries: count, writes, liveBytes, dbBytes, tables };
}

/**
 * PostgreSQL: the database's growth over a freshly migrated one (pg_database_size), after a VACUUM as autovacuum
 * would run; the parts are the memory tables with their indexes and TOAST.
 */
async function measurePostgres(server: TestPostgres, entries: number): Promise<Measured> {
  const url = await server.createDatabase(`storage_${entries}`);
  const gw = await startGateway({ GATEWAY_DATABASE_URL: url });
  const client = new pg.Client(url);
  await client.connect();
  const size = async () => Number((await client.query('SELECT pg_database_size(current_database()) AS b')).rows[0].b);
  const empty = await size();
  const writes = await write(gw, entries);
  await gw.stop();
  await client.query('VACUUM ANALYZE');
  const liveBytes = Number((await client.query('SELECT SUM(bytes) AS b FROM memory_usage')).rows[0].b);
  const count = Number((await client.query('SELECT COUNT(*) AS n FROM memory_entries')).rows[0].n);
  const tables = (
    await client.query(
      "SELECT relname AS name, pg_total_relation_size(oid) AS bytes FROM pg_class WHERE relkind = 'r' AND relname LIKE 'memory%' ORDER BY bytes DESC LIMIT 6",
    )
  ).rows.map((r) => ({ name: r.name as string, bytes: Number(r.bytes) }));
  const dbBytes = (await size()) - empty;
  await client.end();
  return { entries: count, writes, liveBytes, dbBytes, tables };
}

export async function storage(): Promise<string> {
  const out = ['## Storage (issue 26)', '', '| store | entries | acknowledged writes | live value bytes | database bytes | bytes per value byte | database bytes per write | largest parts (× value bytes) |', '|---|---:|---:|---:|---:|---:|---:|---|'];
  const sizes = [10_000, 100_000].filter((s) => s <= Number(process.env.BENCH_STORAGE_MAX ?? 100_000));
  const stores = (process.env.BENCH_STORAGE_STORES ?? 'sqlite,postgres').split(',') as Store[];
  const ratios: string[] = [];
  const server = stores.includes('postgres') ? await startPostgres() : null;
  try {
    for (const store of stores) {
      for (const size of sizes) {
        const m = store === 'sqlite' ? await measureSqlite(size) : await measurePostgres(server!, size);
        const ratio = m.dbBytes / m.liveBytes;
        ratios.push(`${store} ${size.toLocaleString('en')}: ${ratio.toFixed(2)}`);
        const parts = m.tables.map((t) => `${t.name} ${(t.bytes / m.liveBytes).toFixed(2)}`).join(', ');
        out.push(
          `| ${store} | ${m.entries.toLocaleString('en')} | ${m.writes.toLocaleString('en')} | ${m.liveBytes.toLocaleString('en')} | ${m.dbBytes.toLocaleString('en')} | ${ratio.toFixed(2)} | ${Math.round(m.dbBytes / m.writes).toLocaleString('en')} | ${parts} |`,
        );
      }
    }
  } finally {
    await server?.stop();
  }
  out.push('');
  out.push(`- bytes on disk per byte of live memory value, history at its default depth and the full-text index included: ${ratios.join(', ')} (issue 26 target ≤ 2.0)`);
  return out.join('\n');
}
