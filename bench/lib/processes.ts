// Starts benchmark servers as child processes (one core for the server, one for the load generator).
import { spawn, type ChildProcess } from 'node:child_process';
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
export async function startScript(file: string): Promise<Running> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'bench', 'servers', file)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const m = await waitFor(child, 'stdout', /READY (\d+)/);
  return { url: `http://127.0.0.1:${m[1]}`, child, startupMs: performance.now() - t0, stop: stopper(child) };
}

/** The built gateway (dist/) with a fresh or given data dir. */
export async function startGateway(env: Record<string, string> = {}, dataDir?: string): Promise<Running & { dataDir: string }> {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-'));
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'main.js'), 'serve'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', GATEWAY_DATA_DIR: dir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const m = await waitFor(child, 'stderr', /"url":"(http:[^"]+)".*"msg":"gateway ready"/);
  // Keep draining the logs so the server never blocks on a full pipe.
  child.stderr!.on('data', () => undefined);
  return { url: m[1], child, startupMs: performance.now() - t0, stop: stopper(child), dataDir: dir };
}
