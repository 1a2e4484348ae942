// Issue 5 targets, on a database of 100,000 entries from 100 agents: PUT/s and p99 at 20 connections, GET
// by key against the minimal express app, /memory/search p99, bulk put of 100 items p50, database size and
// RSS; then search latency at 10k, 100k and 1M entries.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { SqliteDb } from '../../src/store/sqlite.js';
import { migrate } from '../../src/store/migrate.js';
import { hashSecret, newSecret } from '../../src/auth/secrets.js';
import { baseline } from '../lib/baseline.js';
import { load, table } from '../lib/cannon.js';
import { rng, sentence, word } from '../lib/corpus.js';
import { startGateway } from '../lib/processes.js';

const AGENTS = 100;
const PER_AGENT = 1000;
const json = { 'content-type': 'application/json' };

async function post(url: string, body: unknown, secret?: string) {
  const r = await fetch(url, { method: 'POST', headers: { ...json, ...(secret ? { authorization: `Bearer ${secret}` } : {}) }, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as any };
}

const rssOf = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
const pct = (xs: number[], p: number) => xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** Seeds agents and entries straight into a database file (through the real schema and triggers). */
async function seedFile(dataDir: string, entries: number, agents: number): Promise<{ secrets: string[]; ms: number }> {
  const t0 = performance.now();
  fs.mkdirSync(dataDir, { recursive: true });
  const db = await SqliteDb.open(path.join(dataDir, 'gateway.db'));
  await migrate(db);
  const secrets: string[] = [];
  const rand = rng(42);
  await db.transaction(async (tx) => {
    for (let i = 0; i < agents; i++) {
      const s = newSecret();
      secrets.push(s);
      await tx.run('INSERT INTO agents (id, handle, secret_hash, created_at) VALUES (?, ?, ?, ?)', [`ag_b${i}`, `bench-${i}`, hashSecret(s), Date.now()]);
    }
  });
  const BATCH = 5000;
  for (let done = 0; done < entries; done += BATCH) {
    await db.transaction(async (tx) => {
      for (let i = done; i < Math.min(entries, done + BATCH); i++) {
        const text = sentence(rand);
        const value = JSON.stringify(text);
        const now = Date.now();
        await tx.run(
          `INSERT INTO memory_entries (agent_id, namespace, key, value, size, visibility, tags, version, created_at, updated_at, facts_version)
           VALUES (?, ?, ?, ?, ?, ?, '[]', 1, ?, ?, 1)`,
          [`ag_b${i % agents}`, `ns${i % 10}`, `k${i}`, value, value.length, i % 20 === 0 ? 'public' : 'private', now, now],
        );
      }
    });
  }
  await db.close();
  return { secrets, ms: performance.now() - t0 };
}

/** A question as an agent asks it: question and stop words around three words of the corpus. */
const question = (rand: () => number) => `what did I note about the ${word(rand)} and ${word(rand)} when ${word(rand)} came up?`;

async function searchLatency(entries: number): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gw-bench-search-${entries}-`));
  const seeded = await seedFile(dir, entries, AGENTS);
  const gw = await startGateway({}, dir);
  const rows: string[] = [];
  for (const [kind, q] of [['one word', word], ['question', question]] as const) {
    const rand = rng(7);
    const r = await load(`search @ ${entries.toLocaleString('en')} entries (${kind})`, {
      url: `${gw.url}/memory/search`,
      headers: { authorization: `Bearer ${seeded.secrets[0]}` },
      makePath: () => `/memory/search?${new URLSearchParams({ q: q(rand), limit: '20' })}`,
      connections: 10,
      duration: 8,
    });
    rows.push(`| ${entries.toLocaleString('en')} | ${kind} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} |`);
  }
  const size = fs.statSync(path.join(dir, 'gateway.db')).size;
  rows.push(`| ${entries.toLocaleString('en')} | database ${mb(size)}, seeded in ${(seeded.ms / 1000).toFixed(1)} s | | | | |`);
  await gw.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  return rows;
}

/** Search latency as the corpus grows: 10k, 100k and 1M entries (BENCH_MEMORY_MAX caps it). */
async function searchTable(): Promise<string[]> {
  const out = [
    'Search latency as the corpus grows (10 connections, 20 results; one-word queries, and questions of three corpus words among stop words). Target: p99 ≤ 20 ms at 1,000,000:',
    '',
    '| entries | query | req/s | p50 ms | p99 ms | non-2xx |',
    '|---:|---|---:|---:|---:|---:|',
  ];
  const max = Number(process.env.BENCH_MEMORY_MAX ?? 1_000_000);
  for (const size of [10_000, 100_000, 1_000_000].filter((s) => s <= max)) out.push(...(await searchLatency(size)));
  return out;
}

/** Only the search latency table (`npm run bench -- memory-search`). */
export const memorySearchLatency = async (): Promise<string> => ['## Memory search latency (issues 5, 26, 40)', '', ...(await searchTable())].join('\n');

export async function memory(): Promise<string> {
  const out = ['## Memory (issue 5)'];
  const expressRes = await baseline('express.mjs', 'minimal express GET', '/agents/x', { connections: 20 });
  const bareRes = await baseline('bare.mjs', 'bare node:http GET', '/agents/x', { connections: 20 });

  const gw = await startGateway();
  const secrets: string[] = [];
  for (let i = 0; i < AGENTS; i++) secrets.push((await post(`${gw.url}/agents/register`, { handle: `bench-agent-${i}` })).body.secret);
  // Load 100 × 1,000 entries through bulk put (100 items a request), timing each bulk call.
  const rand = rng(1);
  const bulkMs: number[] = [];
  const t0 = performance.now();
  for (let a = 0; a < AGENTS; a++) {
    for (let b = 0; b < PER_AGENT / 100; b++) {
      const items = Array.from({ length: 100 }, (_, i) => ({ namespace: `ns${b}`, key: `k${b * 100 + i}`, value: { text: sentence(rand), n: i }, tags: [word(rand)] }));
      const s = performance.now();
      const r = await post(`${gw.url}/memory/bulk/put`, { items }, secrets[a]);
      bulkMs.push(performance.now() - s);
      if (r.status !== 200) throw new Error(`bulk put failed: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    }
  }
  const loadSeconds = (performance.now() - t0) / 1000;
  const auth = { authorization: `Bearer ${secrets[0]}` };
  let n = 0;
  const putRes = await load('PUT /memory/{ns}/{key}', {
    url: `${gw.url}/memory/put/k`,
    method: 'PUT',
    headers: { ...auth, ...json },
    makePath: () => `/memory/put/k${n++ % 5000}`,
    body: JSON.stringify({ value: { text: 'benchmark write', n: 1 } }),
    connections: 20,
  });
  const getRand = rng(3);
  const getRes = await load('GET /memory/{ns}/{key}', {
    url: `${gw.url}/memory/ns0/k1`,
    headers: auth,
    makePath: () => {
      const i = Math.floor(getRand() * 1000);
      return `/memory/ns${Math.floor(i / 100)}/k${i}`;
    },
    connections: 20,
  });
  const sRand = rng(5);
  const searchRes = await load('GET /memory/search', { url: `${gw.url}/memory/search`, headers: auth, makePath: () => `/memory/search?q=${word(sRand)}`, connections: 20 });
  let bulkN = 0;
  const bulkRes = await load('POST /memory/bulk/put (100 items)', {
    url: `${gw.url}/memory/bulk/put`,
    method: 'POST',
    headers: { ...auth, ...json },
    makeBody: () => {
      bulkN++;
      return JSON.stringify({ items: Array.from({ length: 100 }, (_, i) => ({ namespace: 'bulkbench', key: `k${(bulkN * 100 + i) % 20000}`, value: i })) });
    },
    connections: 4,
  });
  const dbSize = fs.statSync(path.join(gw.dataDir, 'gateway.db')).size + (fs.existsSync(path.join(gw.dataDir, 'gateway.db-wal')) ? fs.statSync(path.join(gw.dataDir, 'gateway.db-wal')).size : 0);
  const rss = rssOf(gw.child.pid!);
  await gw.stop();

  out.push(table([bareRes, expressRes, putRes, getRes, searchRes, bulkRes], { express: expressRes.rps, bare: bareRes.rps }));
  out.push('');
  out.push(`- loaded ${(AGENTS * PER_AGENT).toLocaleString('en')} entries from ${AGENTS} agents via bulk put in ${loadSeconds.toFixed(1)} s; bulk put of 100 items while loading: p50 ${pct(bulkMs, 50).toFixed(1)} ms, p99 ${pct(bulkMs, 99).toFixed(1)} ms (target p50 ≤ 50 ms)`);
  out.push(`- PUT: ${putRes.rps}/s, p99 ${putRes.p99} ms at 20 connections (target ≥ 2,000/s, p99 ≤ 15 ms)`);
  out.push(`- GET by key: ${(getRes.rps / expressRes.rps).toFixed(2)}× minimal express (target ≥ 0.7), ${(getRes.rps / bareRes.rps).toFixed(2)}× bare node:http`);
  out.push(`- /memory/search: p99 ${searchRes.p99} ms (target ≤ 20 ms)`);
  out.push(`- database on disk after loading (db + WAL): ${mb(dbSize)}; gateway RSS: ${mb(rss)}`);
  out.push('');
  out.push(...(await searchTable()));
  return out.join('\n');
}
