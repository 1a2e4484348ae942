// The user's light install, for the test and the bench (docs/decisions/light-install.md): `npm pack` of this
// checkout, then `npm install <tarball>` into an empty folder, on a Node the package supports, measured (time, size on
// disk, packages); and the installed gateway's bin started as a user would start it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { nodeInRange } from '../../scripts/bundle-node.js';

const run = promisify(execFile);
export const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };

/** npm settings kept from the environment: where the registry is and how to reach it, and the cache. */
const KEPT = /^npm_config_(registry|cafile|ca|proxy|https_proxy|noproxy|strict_ssl|cache|userconfig|globalconfig)$/i;

/**
 * The environment without npm's script variables: `npm test` exports npm_config_* of the checkout (its prefix, its
 * allowScripts…) and npm_package_*, which would make a child npm act on the checkout instead of its own folder.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => (!/^npm_/i.test(k) || KEPT.test(k)) && k !== 'INIT_CWD'));
  return { ...env, ...extra };
}

/** Whether the npm registry answers (its ping), and which registry it is. */
export async function registryReachable(): Promise<{ ok: true; registry: string } | { ok: false; why: string }> {
  try {
    const { stdout } = await run('npm', ['config', 'get', 'registry'], { env: cleanEnv(), timeout: 30_000 });
    const registry = stdout.trim().replace(/\/?$/, '/');
    const res = await fetch(`${registry}-/ping`, { signal: AbortSignal.timeout(15_000) });
    await res.arrayBuffer();
    return res.ok ? { ok: true, registry } : { ok: false, why: `${registry}-/ping answered ${res.status}` };
  } catch (err) {
    return { ok: false, why: (err as Error).message };
  }
}

/** The bin directory of a Node the package's `engines` accepts: this one, one unpacked already, or Node 24 from the npm registry. */
export async function supportedNodeBin(): Promise<string> {
  const found = nodeInRange(PACKAGE.engines.node);
  if (found) return path.dirname(found);
  const { stdout } = await run('bash', [path.join(ROOT, 'scripts', 'node-from-registry.sh'), '24'], { env: cleanEnv(), timeout: 300_000 });
  return stdout.trim();
}

export interface LightInstall {
  /** The folder the package was installed into (its node_modules holds agent-gateway). */
  dir: string;
  tarball: string;
  tarballBytes: number;
  /** PATH with the supported Node first. */
  path: string;
  /** The installed package's bin. */
  bin: string;
  seconds: number;
  /** node_modules on disk, as `du` counts it. */
  diskBytes: number;
  /** Installed packages (every node_modules/<name> and node_modules/@scope/<name>, nested ones too). */
  packages: number;
  cleanup(): void;
}

/** Disk usage and package count of a node_modules tree (a hard-linked file counted once). */
export function measureTree(nodeModules: string): { diskBytes: number; packages: number } {
  let diskBytes = 0;
  let packages = 0;
  const seen = new Set<string>();
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      const st = fs.lstatSync(p);
      const id = `${st.dev}:${st.ino}`;
      if (seen.has(id)) continue;
      seen.add(id);
      diskBytes += st.blocks * 512;
      if (!e.isDirectory()) continue;
      const parent = path.basename(dir);
      const isPackage = (parent === 'node_modules' && !e.name.startsWith('@') && !e.name.startsWith('.')) || (parent.startsWith('@') && path.basename(path.dirname(dir)) === 'node_modules');
      if (isPackage && fs.existsSync(path.join(p, 'package.json'))) packages++;
      walk(p);
    }
  };
  walk(nodeModules);
  return { diskBytes, packages };
}

/**
 * Packs the checkout and installs the tarball into an empty folder, as a user would. `npm pack` runs with
 * --ignore-scripts: its `prepare` would only build dist/ again (the test suite's global setup and `npm run bench` have
 * just built it), and rebuilding dist/ while other tests run it would race them. `cache` gives npm an empty cache
 * (a first install on a machine); by default it uses the user's.
 */
export async function lightInstall(opts: { cache?: 'empty' } = {}): Promise<LightInstall> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'light-install-'));
  const nodeBin = await supportedNodeBin();
  const PATH = `${nodeBin}${path.delimiter}${process.env.PATH ?? ''}`;
  const env = cleanEnv({ PATH });
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: ROOT, env, timeout: 300_000, maxBuffer: 64 << 20 });
  const tarball = path.join(dir, stdout.trim().split('\n').at(-1)!);
  const app = path.join(dir, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'light-install-check', version: '1.0.0', private: true }, null, 2));
  const cache = opts.cache === 'empty' ? ['--cache', path.join(dir, 'npm-cache')] : [];
  const started = performance.now();
  await run('npm', ['install', tarball, '--no-audit', '--no-fund', ...cache], { cwd: app, env, timeout: 900_000, maxBuffer: 64 << 20 });
  const seconds = (performance.now() - started) / 1000;
  const tree = measureTree(path.join(app, 'node_modules'));
  return {
    dir: app,
    tarball,
    tarballBytes: fs.statSync(tarball).size,
    path: PATH,
    bin: path.join(app, 'node_modules', '.bin', 'agent-gateway'),
    seconds,
    ...tree,
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export interface Served {
  url: string;
  apiUrl: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the installed gateway's bin with `serve` on free ports, resolving with its URLs once it logs that it is ready. */
export function serveInstalled(install: LightInstall, env: Record<string, string>): Promise<Served> {
  const child = spawn(install.bin, ['serve'], {
    cwd: install.dir,
    env: { PATH: install.path, HOME: process.env.HOME ?? os.tmpdir(), PORT: '0', GATEWAY_API_PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the installed gateway did not start within 60 s:\n${out}`));
    }, 60_000);
    // Its log lines, on stdout or stderr: the first "gateway ready" has its URLs.
    for (const stream of [child.stdout!, child.stderr!]) {
      let partial = '';
      stream.setEncoding('utf8').on('data', (s: string) => {
        out += s;
        const lines = (partial + s).split('\n');
        partial = lines.pop()!;
        for (const line of lines) {
          if (!line.includes('"gateway ready"')) continue;
          const ready = JSON.parse(line) as { url: string; api_url: string };
          clearTimeout(timer);
          resolve({ url: ready.url, apiUrl: ready.api_url, child, stop });
        }
      });
    }
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the installed gateway exited (${code}) before it was ready:\n${out}`));
    });
  });
}
