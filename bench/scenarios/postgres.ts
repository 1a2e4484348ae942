// Issue 25, PostgreSQL beside SQLite: memory PUT/s and p99, /memory/search p99 at 100,000 entries, wall post/s and
// delay jobs drained, each with 1 and with 2 gateway instances on the same database (for SQLite, two processes on
// one data directory), in alternating runs (1, 2, 2, 1) whose means are compared. Targets on PostgreSQL: PUT ≥ 1,500/s, search p99 ≤ 30 ms at 100k, 2 instances ≥ 1 instance.
// The 100,000 entries go in through the API (bulk put, 100 items a call); agents are inserted straight into the
// database (the wall's per-handle posting limit needs thousands of them). The PostgreSQL server is a throwaway
// one (test/helpers/postgres.ts: fsync and synchronous_commit off), the gateway is the built one (dist/).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { hashSecret, newSecret } from '../../src/auth/secrets.js';
import type { Db } from '../../src/store/db.js';
import { openDatabase } from '../../src/store/open.js';
import { startPostgres, type TestPostgres } from '../../test/helpers/postgres.js';
import { rng, sentence, word } from '../lib/corpus.js';
import { processCpu, selfCpu, treeCpu } from '../lib/proc-cpu.js';
import { startGateway, type Running } from '../lib/processes.js';

type Store = 'sqlite' | 'postgres';

const MEMORY_AGENTS = 100;
const PER_AGENT = 1000; // 100 × 1,000 = 100,000 entries
const PUT_AGENTS = 8;
const WALL_AGENTS = Number(process.env.BENCH_PG_WALL_AGENTS ?? 5000); // a set each for the 1- and 2-instance runs
const JOBS = Number(process.env.BENCH_PG_JOBS ?? 2000);
const SEARCHES = 400;
const BULK_CALLS = 30;
const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_PG_DURATION ?? 10);
const WARMUP = 2;
/** Connections each instance may hold (GATEWAY_DATABASE_POOL); unset, the gateway's default of 10, as an operator adding an instance runs it. */
const POOL = process.env.GATEWAY_DATABASE_POOL;
/** Rounds of a 1-instance and a 2-instance run (in turn 1 then 2, and 2 then 1). */
const ROUNDS = Number(process.env.BENCH_PG_ROUNDS ?? 2);

const json = { 'content-type': 'application/json' };
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const T0 = performance.now();
/** Progress on stderr (the report goes to stdout). */
const note = (msg: string) => process.stderr.write(`[postgres bench ${((performance.now() - T0) / 1000).toFixed(0)} s] ${msg}\n`);
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');

interface Load {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

interface Jobs {
  createdS: number;
  doneS: number;
  jobsPerS: number;
  lateP50: number;
  lateP99: number;
}

/** Cores used during a load (CPU seconds a second) by the gateway instances, the database server and this process (the load generator). */
interface Cores {
  gateways: number;
  database: number;
  load: number;
}

/** A CPU reading of the processes a run involves; `coresSince` turns two readings into cores used between them. */
const cpuReading = (gws: Running[], pg: TestPostgres | undefined) => ({
  gateways: gws.reduce((sum, g) => sum + processCpu(g.child.pid!), 0),
  database: pg ? treeCpu(pg.pid) : 0,
  load: selfCpu(),
  at: performance.now(),
});

function coresSince(before: ReturnType<typeof cpuReading>, after: ReturnType<typeof cpuReading>): Cores {
  const us = (after.at - before.at) * 1000;
  return { gateways: (after.gateways - before.gateways) / us, database: (after.database - before.database) / us, load: (after.load - before.load) / us };
}

interface Figures {
  seedS: number;
  bulk: { p50: number; p99: number; entriesPerS: number };
  put1: Load & { runs: number[] };
  put2: Load & { runs: number[] };
  cpu1: Cores;
  cpu2: Cores;
  search: { p50: number; p99: number; results: number };
  question: { p50: number; p99: number; results: number };
  wall1: Load & { runs: number[] };
  wall2: Load & { runs: number[] };
  jobs1: Jobs & { runs: number[] };
  jobs2: Jobs & { runs: number[] };
  loadavg: string[];
}

interface Req {
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * `connections` in all, split evenly over the instances, all loaded at once (one autocannon each, same process);
 * req/s summed, p50/p99 the worse instance's, errors and non-2xx summed.
 */
async function cannon(urls: string[], method: 'PUT' | 'POST', make: () => Req): Promise<Load> {
  const per = Math.max(1, Math.round(CONNECTIONS / urls.length));
  const results = await Promise.all(
    urls.map((url) =>
      autocannon({
        url,
        method,
        connections: per,
        duration: DURATION,
        ...{ warmup: { connections: per, duration: WARMUP } }, // autocannon's warm-up, missing from its types
        requests: [{ setupRequest: (req) => ({ ...req, ...make(), method }) }],
      }),
    ),
  );
  return {
    rps: results.reduce((s, r) => s + Math.round(r.requests.average), 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    non2xx: results.reduce((s, r) => s + r.non2xx, 0),
    errors: results.reduce((s, r) => s + r.errors + r.timeouts, 0),
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Runs of one load averaged: req/s and latencies the mean, errors summed; `runs` each run's req/s. */
function meanLoad(ls: Load[]): Load & { runs: number[] } {
  return {
    rps: Math.round(mean(ls.map((l) => l.rps))),
    p50: Math.round(mean(ls.map((l) => l.p50))),
    p99: Math.round(mean(ls.map((l) => l.p99))),
    non2xx: ls.reduce((n, l) => n + l.non2xx, 0),
    errors: ls.reduce((n, l) => n + l.errors, 0),
    runs: ls.map((l) => l.rps),
  };
}

function meanJobs(js: Jobs[]): Jobs & { runs: number[] } {
  const pick = (f: (j: Jobs) => number) => mean(js.map(f));
  return { createdS: pick((j) => j.createdS), doneS: pick((j) => j.doneS), jobsPerS: pick((j) => j.jobsPerS), lateP50: pick((j) => j.lateP50), lateP99: pick((j) => j.lateP99), runs: js.map((j) => j.jobsPerS) };
}

/** Agents straight into the table (one multi-row INSERT per 500), with their secrets. */
async function seedAgents(db: Db, prefix: string, n: number): Promise<string[]> {
  const secrets = Array.from({ length: n }, () => newSecret());
  const now = Date.now();
  for (let i = 0; i < n; i += 500) {
    const rows = secrets.slice(i, i + 500);
    const args = rows.flatMap((s, j) => [`ag_${prefix.replace(/-/g, '_')}${i + j}`, `${prefix}${i + j}`, hashSecret(s), now]);
    await db.run(`INSERT INTO agents (id, handle, secret_hash, created_at) VALUES ${rows.map(() => '(?, ?, ?, ?)').join(', ')}`, args);
  }
  return secrets;
}

async function post(url: string, body: unknown, secret: string): Promise<{ status: number; body: any }> {
  const r = await fetch(url, { method: 'POST', headers: { ...json, authorization: `Bearer ${secret}` }, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as any };
}

/**
 * 100 agents × 1,000 entries (1 in 20 public) straight into memory_entries, 200 rows a statement, 5,000 a
 * transaction: the real schema, so triggers keep versions, the change feed, usage counts and the search index (on
 * PostgreSQL the generated tsvector and its GIN index; on SQLite FTS5). facts_version = version, as memory.ts seeds,
 * so the facts worker has no backlog of 100,000 entries running under the measurements. Bulk put through the API
 * holds the writers' lock for 100 statements a call: on this machine it loaded PostgreSQL at ~570 entries/s (~3 min
 * for 100k), too slow for the time this benchmark may take; bulkPut measures it on a sample.
 */
async function seedMemory(db: Db): Promise<number> {
  const t0 = performance.now();
  const rand = rng(1);
  const ROWS = 200;
  const total = MEMORY_AGENTS * PER_AGENT;
  for (let done = 0; done < total; done += 5000) {
    await db.transaction(async (tx) => {
      for (let b = done; b < done + 5000; b += ROWS) {
        const args: (string | number)[] = [];
        for (let i = b; i < b + ROWS; i++) {
          const text = sentence(rand);
          const value = JSON.stringify({ text, n: i % 100 });
          const now = Date.now();
          const ns = Math.floor((i % PER_AGENT) / 100);
          args.push(`ag_bench_mem_${Math.floor(i / PER_AGENT)}`, `ns${ns}`, `k${i % PER_AGENT}`, value, value.length, i % 20 === 0 ? 'public' : 'private', JSON.stringify([word(rand)]), now, now);
        }
        await tx.run(
          `INSERT INTO memory_entries (agent_id, namespace, key, value, size, visibility, tags, version, created_at, updated_at, facts_version) VALUES ${Array.from({ length: ROWS }, () => '(?, ?, ?, ?, ?, ?, ?, 1, ?, ?, 1)').join(', ')}`,
          args,
        );
      }
    });
  }
  return (performance.now() - t0) / 1000;
}

/** POST /memory/bulk/put of 100 items, sequential, BULK_CALLS calls into a namespace of their own. */
async function bulkPut(url: string, secret: string): Promise<{ p50: number; p99: number; entriesPerS: number }> {
  const rand = rng(2);
  const ms: number[] = [];
  for (let c = 0; c < BULK_CALLS; c++) {
    const items = Array.from({ length: 100 }, (_, i) => ({ namespace: 'bulkload', key: `k${c * 100 + i}`, value: { text: sentence(rand), n: i }, tags: [word(rand)] }));
    const t0 = performance.now();
    const r = await post(`${url}/memory/bulk/put`, { items }, secret);
    if (r.status !== 200) throw new Error(`bulk put failed: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    ms.push(performance.now() - t0);
  }
  return { p50: pct(ms, 50), p99: pct(ms, 99), entriesPerS: (BULK_CALLS * 100) / (ms.reduce((a, b) => a + b, 0) / 1000) };
}

/**
 * Sequential GET /memory/search (one request at a time) over a few query words, or questions of three of them among
 * stop words, after 40 unmeasured.
 */
async function searchLatency(url: string, secret: string, questions = false): Promise<{ p50: number; p99: number; results: number }> {
  const rand = rng(5);
  const words = [...new Set(Array.from({ length: 40 }, () => word(rand)))].slice(0, 8);
  const ms: number[] = [];
  let results = 0;
  for (let i = -40; i < SEARCHES; i++) {
    const w = (k: number) => words[(i + 40 + k) % words.length];
    const q = encodeURIComponent(questions ? `what did I note about the ${w(0)} and ${w(3)} when ${w(5)} came up?` : w(0));
    const t0 = performance.now();
    const r = await fetch(`${url}/memory/search?q=${q}&limit=20`, { headers: { authorization: `Bearer ${secret}` } });
    const body = (await r.json()) as { results?: unknown[] };
    if (r.status !== 200) throw new Error(`search answered ${r.status}`);
    if (i >= 0) {
      ms.push(performance.now() - t0);
      results += body.results?.length ?? 0;
    }
  }
  return { p50: pct(ms, 50), p99: pct(ms, 99), results: results / SEARCHES };
}

function putLoad(urls: string[], secrets: string[], run: string): Promise<Load> {
  let n = 0;
  return cannon(urls, 'PUT', () => {
    const i = n++;
    return { path: `/memory/put/${run}-${i}`, headers: { ...json, authorization: `Bearer ${secrets[i % secrets.length]}` }, body: JSON.stringify({ value: { text: 'benchmark write', n: i } }) };
  });
}

function wallLoad(urls: string[], secrets: string[]): Promise<Load> {
  const rand = rng(11);
  let n = 0;
  return cannon(urls, 'POST', () => {
    const topic = rand() < 0.6 ? ` #${word(rand)}` : '';
    return {
      path: '/wall',
      headers: { ...json, authorization: `Bearer ${secrets[n++ % secrets.length]}` },
      body: JSON.stringify({ text: `${sentence(rand)}${topic}`, kind: rand() < 0.1 ? 'question' : 'post' }),
    };
  });
}

/**
 * JOBS delay jobs of 1 s created through POST /jobs (50 in flight, spread over the instances); measured from the
 * first request to the moment all have succeeded, read from the database.
 */
async function drainJobs(db: Db, urls: string[], secrets: string[]): Promise<Jobs> {
  const before = (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM jobs WHERE status = 'succeeded'"))!.n;
  const t0 = performance.now();
  const since = Date.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < JOBS; i = next++) {
      const r = await post(`${urls[i % urls.length]}/jobs`, { type: 'delay', seconds: 1 }, secrets[i % secrets.length]);
      if (r.status !== 202) throw new Error(`POST /jobs answered ${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const created = performance.now();
  for (;;) {
    const n = (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM jobs WHERE status = 'succeeded'"))!.n;
    if (n - before >= JOBS) break;
    if (performance.now() - t0 > 120_000) throw new Error(`jobs not drained in 120 s: ${n - before} of ${JOBS}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const done = performance.now();
  const late = (await db.all<{ l: number }>('SELECT finished_at - due_at AS l FROM jobs WHERE created_at >= ? AND finished_at IS NOT NULL', [since])).map((r) => Number(r.l));
  return {
    createdS: (created - t0) / 1000,
    doneS: (done - t0) / 1000,
    jobsPerS: JOBS / ((done - t0) / 1000),
    lateP50: pct(late, 50) / 1000,
    lateP99: pct(late, 99) / 1000,
  };
}

async function measure(store: Store, pg?: TestPostgres): Promise<Figures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `gw-bench-pg-${store}-`));
  const url = pg ? await pg.createDatabase(`bench_${Date.now()}`) : undefined;
  // GATEWAY_API_PORT 0: each instance's commercial API listener on a free port, not both on the default 8788.
  const env: Record<string, string> = { GATEWAY_API_PORT: '0', ...(url ? { GATEWAY_DATABASE_URL: url, ...(POOL ? { GATEWAY_DATABASE_POOL: POOL } : {}) } : {}) };
  const gws: Running[] = [];
  let db: Db | undefined;
  const loadavg = [`start ${load()}`];
  try {
    gws.push(await startGateway(env, dataDir)); // migrates
    db = await openDatabase({ dataDir, database: { url, poolSize: 4, preparedStatements: 0 } });
    const memorySecrets = await seedAgents(db, 'bench-mem-', MEMORY_AGENTS);
    const wallOne = await seedAgents(db, 'bench-w1-', WALL_AGENTS);
    const wallTwo = await seedAgents(db, 'bench-w2-', WALL_AGENTS);
    const jobSecrets = await seedAgents(db, 'bench-job-', 20);
    const a = gws[0].url;
    note(`${store}: agents seeded`);
    const seedS = await seedMemory(db);
    note(`${store}: 100k entries in ${seedS.toFixed(1)} s`);
    const count = (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_entries'))!.n;
    if (count !== MEMORY_AGENTS * PER_AGENT) throw new Error(`expected ${MEMORY_AGENTS * PER_AGENT} entries, found ${count}`);
    if (db.dialect === 'postgres') await db.exec('VACUUM ANALYZE');
    const search = await searchLatency(a, memorySecrets[0]);
    const question = await searchLatency(a, memorySecrets[0], true);
    const bulk = await bulkPut(a, memorySecrets[1]);
    loadavg.push(`seeded ${load()}`);
    // One instance, and two on the same database loaded at once, in alternating rounds (1, 2, then 2, 1): the
    // machine's noise (±10% between runs here) and any drift over the runs fall on both sides alike, and each
    // figure is the mean of its runs.
    const putSecrets = memorySecrets.slice(0, PUT_AGENTS);
    note(`${store}: search p99 ${search.p99.toFixed(1)} ms, questions ${question.p99.toFixed(1)} ms`);
    const runs: { n: 1 | 2; put: Load; cpu: Cores; wall: Load; jobs: Jobs }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const n of round % 2 === 0 ? ([1, 2] as const) : ([2, 1] as const)) {
        // Each run starts its instances afresh.
        await Promise.all(gws.splice(0).map((g) => g.stop()));
        for (let i = 0; i < n; i++) gws.push(await startGateway(env, dataDir));
        const urls = gws.map((g) => g.url);
        const cpuBefore = cpuReading(gws, pg);
        const put = await putLoad(urls, putSecrets, `r${round}i${n}`);
        const cpu = coresSince(cpuBefore, cpuReading(gws, pg));
        const wall = await wallLoad(urls, n === 1 ? wallOne : wallTwo);
        const jobs = await drainJobs(db, urls, jobSecrets);
        note(`${store}: ${n} instance(s), round ${round + 1}: PUT ${put.rps}/s, wall ${wall.rps}/s, jobs ${jobs.jobsPerS.toFixed(0)}/s`);
        runs.push({ n, put, cpu, wall, jobs });
        loadavg.push(`${n} instance(s) ${load()}`);
      }
    }
    const of = (n: 1 | 2) => runs.filter((r) => r.n === n);
    const [put1, put2] = [meanLoad(of(1).map((r) => r.put)), meanLoad(of(2).map((r) => r.put))];
    const meanCores = (cs: Cores[]): Cores => ({ gateways: mean(cs.map((c) => c.gateways)), database: mean(cs.map((c) => c.database)), load: mean(cs.map((c) => c.load)) });
    const [cpu1, cpu2] = [meanCores(of(1).map((r) => r.cpu)), meanCores(of(2).map((r) => r.cpu))];
    const [wall1, wall2] = [meanLoad(of(1).map((r) => r.wall)), meanLoad(of(2).map((r) => r.wall))];
    const [jobs1, jobs2] = [meanJobs(of(1).map((r) => r.jobs)), meanJobs(of(2).map((r) => r.jobs))];
    return { seedS, bulk, put1, put2, cpu1, cpu2, search, question, wall1, wall2, jobs1, jobs2, loadavg };
  } finally {
    await db?.close();
    await Promise.all(gws.map((g) => g.stop()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const rate = (l: Load & { runs: number[] }) =>
  `${l.rps.toLocaleString('en')}/s (runs ${l.runs.map((r) => r.toLocaleString('en')).join(', ')}; p50 ${l.p50} ms, p99 ${l.p99} ms${l.non2xx || l.errors ? `, non-2xx ${l.non2xx}, errors ${l.errors}` : ''})`;
const ratio = (two: number, one: number) => `${(two / one).toFixed(2)}×`;
const jobs = (j: Jobs & { runs: number[] }) => `${j.jobsPerS.toFixed(0)} jobs/s (runs ${j.runs.map((r) => r.toFixed(0)).join(', ')}): created in ${j.createdS.toFixed(2)} s, all succeeded at ${j.doneS.toFixed(2)} s (lateness p50 ${j.lateP50.toFixed(2)} s, p99 ${j.lateP99.toFixed(2)} s)`;
/** Cores used by each part, and its CPU time a PUT (cores ÷ PUTs a second; the warm-up counts in both). SQLite has no server. */
const cores = (c: Cores, l: Load) => {
  const part = (what: string, x: number) => `${what} ${x.toFixed(2)} (${Math.round((x * 1e6) / l.rps)} µs)`;
  const parts = [part('gateways', c.gateways), ...(c.database > 0 ? [part('PostgreSQL', c.database)] : []), part('load generator', c.load)];
  return `${(c.gateways + c.database + c.load).toFixed(2)} cores: ${parts.join(', ')}`;
};
const met = (ok: boolean) => (ok ? '✅ met' : '❌ missed');

export async function postgres(): Promise<string> {
  const out = ['## PostgreSQL beside SQLite (issue 25)'];
  const only = process.env.BENCH_PG_STORE as Store | undefined;
  const pg = await startPostgres();
  let s: Figures | undefined;
  let p: Figures | undefined;
  try {
    if (only !== 'postgres') s = await measure('sqlite');
    if (only !== 'sqlite') p = await measure('postgres', pg);
  } finally {
    await pg.stop();
  }
  const col = (f: Figures | undefined, pick: (f: Figures) => string) => (f ? pick(f) : '—');
  const row = (what: string, pick: (f: Figures) => string, target = '', ok?: (f: Figures) => boolean) =>
    `| ${what} | ${col(s, pick)} | ${col(p, pick)} | ${target} | ${p && ok ? met(ok(p)) : ''} |`;
  out.push(
    `${(MEMORY_AGENTS * PER_AGENT).toLocaleString('en')} memory entries (${MEMORY_AGENTS} agents, seeded by SQL through the real schema and triggers), ${CONNECTIONS} connections for ${DURATION} s after ${WARMUP} s warm-up; runs alternate 1 and 2 instances (1, 2, 2, 1…), ${ROUNDS} rounds, each figure the mean of its runs; with 2 instances the connections are split over both and ` +
      `req/s summed, p50/p99 the worse instance's. PUTs: ${PUT_AGENTS} agents, a new key each. Wall: ${WALL_AGENTS.toLocaleString('en')} agents for the 1-instance runs, as many others for the 2-instance ones (10 posts a minute per handle). ` +
      `Jobs: ${JOBS.toLocaleString('en')} delay jobs of 1 s through POST /jobs, ${CONNECTIONS} in flight. Search: ${SEARCHES} sequential requests, 8 words, limit 20. ` +
      `PostgreSQL ${pg.url.replace(/\/\/[^@]*@/, '//')}: local, fsync off, a pool of ${POOL ?? 10} connections per instance.`,
  );
  out.push('');
  out.push('| figure | SQLite | PostgreSQL | target (PostgreSQL) | |');
  out.push('|---|---|---|---|---|');
  out.push(row('seed 100k entries (direct SQL, 200 rows a statement; not the API)', (f) => `${f.seedS.toFixed(1)} s`));
  out.push(row(`POST /memory/bulk/put, 100 items (${BULK_CALLS} sequential calls)`, (f) => `p50 ${f.bulk.p50.toFixed(0)} ms, p99 ${f.bulk.p99.toFixed(0)} ms (${f.bulk.entriesPerS.toFixed(0)} entries/s)`));
  out.push(row('memory PUT, 1 instance', (f) => rate(f.put1), '≥ 1,500/s', (f) => f.put1.rps >= 1500));
  out.push(row('memory PUT, 2 instances', (f) => rate(f.put2), '≥ 1 instance', (f) => f.put2.rps >= f.put1.rps));
  out.push(row('memory PUT, 2 ÷ 1 instances', (f) => ratio(f.put2.rps, f.put1.rps)));
  out.push(row('CPU during the PUTs, 1 instance (cores, and µs a PUT)', (f) => cores(f.cpu1, f.put1)));
  out.push(row('CPU during the PUTs, 2 instances', (f) => cores(f.cpu2, f.put2)));
  out.push(row('search at 100k entries (sequential)', (f) => `p50 ${f.search.p50.toFixed(1)} ms, p99 ${f.search.p99.toFixed(1)} ms (${f.search.results.toFixed(1)} hits a query)`, 'p99 ≤ 30 ms', (f) => f.search.p99 <= 30));
  out.push(row('search by question at 100k (sequential)', (f) => `p50 ${f.question.p50.toFixed(1)} ms, p99 ${f.question.p99.toFixed(1)} ms (${f.question.results.toFixed(1)} hits a query)`, 'p99 ≤ 30 ms', (f) => f.question.p99 <= 30));
  out.push(row('wall post, 1 instance', (f) => rate(f.wall1)));
  out.push(row('wall post, 2 instances', (f) => rate(f.wall2), '≥ 1 instance', (f) => f.wall2.rps >= f.wall1.rps));
  out.push(row('wall post, 2 ÷ 1 instances', (f) => ratio(f.wall2.rps, f.wall1.rps)));
  out.push(row('jobs drained, 1 instance', (f) => jobs(f.jobs1)));
  out.push(row('jobs drained, 2 instances', (f) => jobs(f.jobs2), '≥ 1 instance', (f) => f.jobs2.jobsPerS >= f.jobs1.jobsPerS));
  out.push(row('jobs, 2 ÷ 1 instances', (f) => ratio(f.jobs2.jobsPerS, f.jobs1.jobsPerS)));
  out.push(row('load average (1/5/15 min)', (f) => f.loadavg.join('; ')));
  out.push('');
  out.push(`- ${os.cpus().length} cores shared by the load generator, the gateway instance(s), PostgreSQL and whatever else runs on the machine.`);
  return out.join('\n');
}
