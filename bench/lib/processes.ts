// Starts benchmark servers as child processes (one core for the server, one for the load generator).
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface Running {
  url: string;
  child: ChildProcess;
  /** Milliseconds from spawn to ready. */
  startupMs: number;
  stop(): Promise<void>;
}

function waitFor(child: ChildProcess, stream: 'stdout' | 'stderr', pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const src = child[stream]!;
    const onData = (c: Buffer) => {
      buf += c.toString();
      const m = pattern.exec(buf);
      if (m) {
        src.off('data', onData);
        src.resume();
        resolve(m);
      }
    };
    src.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before ready:\n${buf}`)));
  });
}

const stopper = (child: ChildProcess) => () =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** A baseline script from bench/servers printing `READY <port>`. */
export async function startScript(file: string, env: Record<string, string> = {}): Promise<Running> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'bench', 'servers', file)], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const m = await waitFor(child, 'stdout', /READY (\d+)/);
  return { url: `http://127.0.0.1:${m[1]}`, child, startupMs: performance.now() - t0, stop: stopper(child) };
}

/** A port free right now on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Polls GET /readyz until the gateway answers 200. */
async function ready(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gateway exited (${child.exitCode}) before ready`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * The built gateway (dist/) with a fresh data dir (removed when it stops) or a given one, at its default log
 * level (info, one line per request) with logs discarded, as a production gateway writing to a log file would
 * run. BENCH_NODE_ARGS adds node flags, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the gateway
 * under a scenario's load; BENCH_DIST (or `dist`) runs another build (a copy of dist/) to compare two versions side by side.
 */
export async function startGateway(env: Record<string, string> = {}, dataDir?: string, dist = process.env.BENCH_DIST ?? path.join(ROOT, 'dist')): Promise<Running & { dataDir: string }> {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-'));
  const port = await freePort();
  const t0 = performance.now();
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, path.join(dist, 'src', 'main.js'), 'serve'], {
    cwd: ROOT,
    // The commercial listener gets a free port too: at its default (8788) a second bench gateway could not start.
    // The bench registers its agents from one address: the hourly registration allowance is lifted.
    env: { PATH: process.env.PATH ?? '', PORT: String(port), GATEWAY_API_PORT: String(await freePort()), GATEWAY_DATA_DIR: dir, LOG_LEVEL: 'info', GATEWAY_REGISTRATIONS_PER_HOUR: '1000000', ...env },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const url = `http://127.0.0.1:${port}`;
  // A data dir made here goes with the gateway: a full run's databases would otherwise fill /tmp (GBs a run).
  const stop = async () => {
    await stopper(child)();
    if (!dataDir) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await ready(url, child);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, child, startupMs: performance.now() - t0, stop, dataDir: dir };
}

export const BENCH_OPERATOR_TOKEN = 'bench-operator-token-0123456789';

/**
 * An enterprise API key from a gateway started with BENCH_OPERATOR_TOKEN: paid tools are counted per call against
 * it (one conditional upsert) and it never runs out mid-bench.
 */
export async function enterpriseKey(url: string): Promise<string> {
  const res = await fetch(`${url}/keys/issue`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-operator-token': BENCH_OPERATOR_TOKEN },
    body: JSON.stringify({ email: 'bench@example.com', tier: 'enterprise' }),
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`keys/issue answered ${res.status}`);
  return ((await res.json()) as { key: string }).key;
}
