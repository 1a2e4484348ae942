// Issue 26, memory: a long mixed load (BENCH_SOAK_MINUTES, default 10) sampling the gateway's resident memory every
// 15 s, then a minute idle; the plateau set against what the configured cache bounds predict (bench/lib/
// soak-prediction.ts). First a control run (BENCH_SOAK_CONTROL_MINUTES, default 2) of the same load on a gateway
// whose caches hold next to nothing measures everything else; before both, the heap one MCP session keeps.
// BENCH_SOAK_GATEWAY_ENV="K=V …" passes settings to the soaked gateway (another cache size, MALLOC_ARENA_MAX).
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { heapOf, mb, procMemory } from '../lib/proc-memory.js';
import { BENCH_OPERATOR_TOKEN, enterpriseKey, startGateway, type Running } from '../lib/processes.js';
import { predict, verdict, type Sample } from '../lib/soak-prediction.js';
import { sessionHeapBytes } from '../lib/session-heap.js';
import { newCounts, runClient, type SoakClient, type SoakCounts } from '../lib/soak-load.js';
import { diskByWorkload, WORKLOADS, type Workload } from '../lib/soak-disk.js';

const SAMPLE_MS = 15_000;
/** dbstat reads every page of the file: the disk is taken apart per workload once a minute. */
const DISK_EVERY = 4;
/** The control's bounds: caches that hold next to nothing (SQLite keeps a few pages whatever it is told). */
const CONTROL_BOUNDS = {
  GATEWAY_SQLITE_CACHE_KB: '0',
  GATEWAY_MCP_MAX_SESSIONS: '1',
  GATEWAY_WALL_PAGE_CACHE_BYTES: '0',
  GATEWAY_MEMORY_CARD_CACHE: '0',
  GATEWAY_CREDENTIAL_CACHE_ENTRIES: '0',
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const envPairs = (s: string): Record<string, string> => Object.fromEntries(s.split(/\s+/).filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));

type Gw = Running & { dataDir: string };

/** The database's bytes per workload beside the bytes clients were acknowledged for, at one time. */
interface DiskSample {
  t: number;
  rss: number;
  disk: Record<Workload, number>;
  acknowledged: Record<Workload, number>;
}

function diskSample(gw: Gw, s: Sample, counts: SoakCounts): DiskSample | null {
  const file = path.join(gw.dataDir, 'gateway.db');
  if (!fs.existsSync(file)) return null;
  return { t: s.t, rss: s.rss, disk: diskByWorkload(file), acknowledged: { ...counts.acknowledged.bytes } };
}

function dbBytes(dir: string): number {
  return ['gateway.db', 'gateway.db-wal'].reduce((n, f) => n + (fs.existsSync(path.join(dir, f)) ? fs.statSync(path.join(dir, f)).size : 0), 0);
}

async function sample(gw: Gw, t0: number, counts: SoakCounts): Promise<Sample> {
  const m = procMemory(gw.child.pid!);
  const h = await heapOf(gw.url);
  return { t: Math.round((Date.now() - t0) / 1000), rss: m.rss, anon: m.anon, file: m.file, heapUsed: h.heapUsed, heapTotal: h.heapTotal, db: dbBytes(gw.dataDir), requests: counts.requests, sessions: counts.sessionsOpened };
}

async function clientsOf(gw: Gw, n: number, prefix: string): Promise<SoakClient[]> {
  const apiKey = await enterpriseKey(gw.url);
  const out: SoakClient[] = [];
  for (let i = 0; i < n; i++) {
    const r = await fetch(`${gw.url}/agents/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ handle: `${prefix}-${i}` }) });
    if (r.status !== 201) throw new Error(`register ${prefix}-${i}: ${r.status}`);
    out.push({ secret: ((await r.json()) as { secret: string }).secret, apiKey });
  }
  return out;
}

/** The mixed load for `minutes`, sampled every 15 s (and once at the start). */
async function soakFor(gw: Gw, clients: SoakClient[], minutes: number, counts: SoakCounts, label: string, disk: DiskSample[] = []): Promise<Sample[]> {
  const t0 = Date.now();
  const end = t0 + minutes * 60_000;
  const samples = [await sample(gw, t0, counts)];
  const timer = setInterval(() => {
    void sample(gw, t0, counts).then((s) => {
      samples.push(s);
      if (samples.length % DISK_EVERY === 1 && disk.at(-1)?.t !== s.t) {
        const d = diskSample(gw, s, counts);
        if (d) disk.push(d);
      }
      process.stderr.write(`soak ${label} ${s.t}s: rss ${mb(s.rss)} MB, anon ${mb(s.anon)} MB, heap ${mb(s.heapUsed)} MB, db ${mb(s.db)} MB, ${s.requests} requests\n`);
    });
  }, SAMPLE_MS);
  await Promise.all(clients.map((c, i) => runClient(gw.url, c, i + 1, () => Date.now() > end, counts)));
  clearInterval(timer);
  const last = await sample(gw, t0, counts);
  samples.push(last);
  const d = disk.at(-1)?.t === last.t ? null : diskSample(gw, last, counts);
  if (d) disk.push(d);
  return samples;
}

const row = (s: Sample) => `| ${s.t} | ${mb(s.rss)} | ${mb(s.anon)} | ${mb(s.file)} | ${mb(s.heapUsed)} / ${mb(s.heapTotal)} | ${mb(s.db)} | ${s.requests.toLocaleString('en')} | ${s.sessions} |`;

export async function soak(): Promise<string> {
  const minutes = num('BENCH_SOAK_MINUTES', 10);
  const controlMinutes = num('BENCH_SOAK_CONTROL_MINUTES', 2);
  const nClients = num('BENCH_SOAK_CLIENTS', 8);
  const idleSeconds = num('BENCH_SOAK_IDLE_SECONDS', 60);
  // The clients all come from loopback but stand for many users: one client's share of the session table is lifted,
  // so the table fills to its bound as it would with many clients.
  const env = { GATEWAY_API_PORT: '0', GATEWAY_OPERATOR_TOKEN: BENCH_OPERATOR_TOKEN, GATEWAY_SESSIONS_PER_CLIENT: '1000000', ...envPairs(process.env.BENCH_SOAK_GATEWAY_ENV ?? '') };

  const sessionHeap = await sessionHeapBytes();
  // The control: the same load on a gateway whose caches hold next to nothing; its second half's peak is the baseline.
  const control = await startGateway({ ...env, ...CONTROL_BOUNDS });
  let controlSamples: Sample[];
  try {
    controlSamples = await soakFor(control, await clientsOf(control, nClients, 'control'), controlMinutes, newCounts(), 'control');
  } finally {
    await control.stop();
  }
  const controlTail = controlSamples.filter((s) => s.t >= (controlMinutes * 60) / 2);
  const controlPeak = Math.max(...controlTail.map((s) => s.anon));

  const gw = await startGateway(env);
  const config = loadConfig({ ...env, GATEWAY_DATA_DIR: gw.dataDir });
  const counts = newCounts(config.memory.versionsKept);
  const disk: DiskSample[] = [];
  let samples: Sample[];
  let idle: Sample;
  try {
    const clients = await clientsOf(gw, nClients, 'soak');
    samples = await soakFor(gw, clients, minutes, counts, 'gateway', disk);
    await sleep(idleSeconds * 1000);
    idle = { ...(await sample(gw, Date.now(), counts)), t: minutes * 60 + idleSeconds };
    const d = diskSample(gw, idle, counts);
    if (d) disk.push(d);
  } finally {
    await gw.stop();
  }

  const parts = predict(config, controlPeak, sessionHeap);
  const predicted = parts.reduce((a, p) => a + p.bytes, 0);
  const v = verdict(samples, predicted);
  const last = samples[samples.length - 1];
  const fiveXx = counts.byClass['5xx'] ?? 0;
  const out = [
    `## Soak (issue 26): resident memory over ${minutes} minutes of mixed load`,
    '',
    `${nClients} clients, one request at a time each: memory writes of 0–20 KB over 5 namespaces × 500 keys, reads, searches, wall posts and pages, calculators, MCP sessions (opened, used, mostly abandoned), A2A message/send, bad requests. ${counts.requests.toLocaleString('en')} requests (${Object.entries(counts.byClass).map(([k, n]) => `${k} ${n.toLocaleString('en')}`).join(', ')}); ${counts.sessionsOpened} MCP sessions opened, ${counts.sessionsAbandoned} abandoned, ${counts.sessionsLost} found evicted (404, reopened). Gateway settings: ${Object.keys(envPairs(process.env.BENCH_SOAK_GATEWAY_ENV ?? '')).length ? process.env.BENCH_SOAK_GATEWAY_ENV : 'defaults'}.`,
    '',
    '| t (s) | RSS MB | anon MB | file MB | main heap used / total MB | db + wal MB | requests | sessions opened |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...samples.map(row),
    `| idle ${idleSeconds} s | ${mb(idle.rss)} | ${mb(idle.anon)} | ${mb(idle.file)} | ${mb(idle.heapUsed)} / ${mb(idle.heapTotal)} | ${mb(idle.db)} | | |`,
    '',
    'What the bounds predict for anonymous resident memory (file-backed pages, the binary and the database mapped by the reader threads, are the kernel\'s to reclaim and are counted apart):',
    '',
    '| part | bound | MB |',
    '|---|---|---:|',
    ...parts.map((p) => `| ${p.part} | ${p.bound} | ${mb(p.bytes)} |`),
    `| **predicted ceiling** | | **${mb(predicted)}** |`,
    '',
    `- control (${controlMinutes} min, ${Object.entries(CONTROL_BOUNDS).map(([k, x]) => `${k}=${x}`).join(' ')}): anon ${controlSamples.map((s) => mb(s.anon)).join(', ')} MB; peak of its second half ${mb(controlPeak)} MB`,
    `- one held MCP session keeps ${(sessionHeap / 1024).toFixed(1)} KB of heap alive (500 opened and used once in a gateway in the bench's process, collected before and after)`,
    `- file-backed at the end: ${mb(last.file)} MB (bound: the binary, plus ${config.readerThreads} reader thread(s) × min(GATEWAY_SQLITE_MMAP_BYTES ${mb(config.caches.sqlite.mmapBytes)} MB, the database ${mb(last.db)} MB))`,
    `- anonymous memory: mean ${mb(v.middleMean)} MB over the middle third, ${mb(v.lastMean)} MB over the last (${v.slopeMbPerMin >= 0 ? '+' : ''}${v.slopeMbPerMin.toFixed(1)} MB/min) → ${v.levelled ? 'levelled off' : 'still growing'}; peak ${mb(v.peakAnon)} MB ${v.withinPrediction ? '≤' : '>'} predicted ${mb(predicted)} MB`,
    `- after ${idleSeconds} s idle: RSS ${mb(idle.rss)} MB (anon ${mb(idle.anon)} MB)`,
    `- 5xx and network errors: ${fiveXx + (counts.byClass.network ?? 0)}${counts.failures.length ? ` (${counts.failures.slice(0, 5).join('; ')})` : ''}`,
    ...diskReport(disk),
  ];
  return out.join('\n');
}

/** The most disk may hold per acknowledged byte of the workloads clients store (docs/decisions/storage.md, "Disk in the soak"). */
const DISK_FACTOR = 3;

/**
 * Disk per workload over time beside RSS and the acknowledged bytes, and the ratio at the end. The ratio is checked on
 * what clients store (memory, wall, A2A tasks); sessions, counters and rate windows are bounded by their own expiry.
 */
function diskReport(disk: DiskSample[]): string[] {
  if (disk.length === 0) return ['', 'Disk per workload: not measured (the database is not a SQLite file in the data directory).'];
  const cell = (d: DiskSample, w: Workload) => `${mb(d.disk[w])}${d.acknowledged[w] ? ` / ${mb(d.acknowledged[w])}` : ''}`;
  const last = disk[disk.length - 1];
  const stored = ['memory', 'wall', 'a2a'] as const;
  const onDisk = stored.reduce((n, w) => n + last.disk[w], 0);
  const acked = stored.reduce((n, w) => n + last.acknowledged[w], 0);
  const factor = acked ? onDisk / acked : 0;
  return [
    '',
    'Disk per workload (dbstat: tables with their indexes and full-text shadow tables; MB on disk / MB acknowledged and retained):',
    '',
    `| t (s) | RSS MB | ${WORKLOADS.join(' | ')} |`,
    `|---:|---:|${WORKLOADS.map(() => '---:').join('|')}|`,
    ...disk.map((d) => `| ${d.t} | ${mb(d.rss)} | ${WORKLOADS.map((w) => cell(d, w)).join(' | ')} |`),
    '',
    `- at the end, ${stored.map((w) => `${w} ${last.acknowledged[w] ? (last.disk[w] / last.acknowledged[w]).toFixed(2) : '–'}×`).join(', ')}: **${factor.toFixed(2)}×** the bytes clients were acknowledged for storing (target ≤ ${DISK_FACTOR}×) → ${factor <= DISK_FACTOR ? 'within' : 'OVER'}`,
  ];
}
