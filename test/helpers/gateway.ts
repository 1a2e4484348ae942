// Starts a real gateway on an ephemeral port with a temporary data dir, for end-to-end tests.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Gateway, type CatalogAdditions } from '../../src/app.js';
import { ManualClock, type Clock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/log.js';

export interface TestGateway {
  gateway: Gateway;
  url: string;
  /** The commercial group's listener ({api_url}). */
  apiUrl: string;
  dataDir: string;
  clock: ManualClock;
  /** Stops the gateway; the data dir stays until `cleanup`. */
  stop(): Promise<void>;
  cleanup(): Promise<void>;
}

export const tempDir = (prefix = 'gw-test-'): string => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

const createdDatabases = new Set<string>();

/**
 * The store settings a process needs to use a data directory's data: nothing on SQLite (the file is in the
 * directory); under GATEWAY_TEST_STORE=postgres (the server is the global setup's), GATEWAY_DATABASE_URL of the
 * directory's own database, created on first use. One database per directory, so a gateway restarted on the
 * same directory, or a stdio process given it, finds the same data, as with the SQLite file.
 */
export function storeEnv(dataDir: string): Record<string, string> {
  const server = process.env.TEST_PG_URL;
  if (!server) return {};
  const name = `gw_${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 20)}`;
  if (!createdDatabases.has(name)) {
    try {
      execFileSync('psql', [server, '-qAtc', `CREATE DATABASE ${name}`], { stdio: 'pipe' });
    } catch (err) {
      if (!String((err as { stderr?: Buffer }).stderr).includes('already exists')) throw err;
    }
    createdDatabases.add(name);
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { GATEWAY_DATABASE_URL: url.toString() };
}

/**
 * Every test registers its agents from one address: the hourly registration allowance (20 by default) is lifted, as
 * the bench does; test/work/anonymous-creates.test.ts checks the allowance itself.
 */
export const TEST_ALLOWANCES = { GATEWAY_REGISTRATIONS_PER_HOUR: '1000000' };

export async function startGateway(
  opts: { env?: Record<string, string>; dataDir?: string; clock?: Clock; additions?: CatalogAdditions; log?: Logger } = {},
): Promise<TestGateway> {
  const dataDir = opts.dataDir ?? tempDir();
  const config = loadConfig({ PORT: '0', GATEWAY_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...TEST_ALLOWANCES, ...storeEnv(dataDir), ...opts.env });
  const clock = (opts.clock as ManualClock | undefined) ?? new ManualClock();
  // TEST_LOG=error (or any level) shows a test gateway's log when a test needs looking into.
  const gateway = await Gateway.create({ config, clock, log: opts.log ?? createLogger((process.env.TEST_LOG as 'error') ?? 'silent'), additions: opts.additions });
  const { url, apiUrl } = await gateway.listen();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await gateway.close();
  };
  return {
    gateway,
    url,
    apiUrl,
    dataDir,
    clock,
    stop,
    cleanup: async () => {
      await stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A small JSON HTTP client for REST tests. */
export async function api(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; secret?: string; headers?: Record<string, string>; raw?: string } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.secret) headers.authorization = `Bearer ${opts.secret}`;
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** Registers an agent and returns its handle and secret. */
export async function register(base: string, handle: string): Promise<{ handle: string; secret: string }> {
  const r = await api(base, 'POST', '/agents/register', { body: { handle } });
  if (r.status !== 201) throw new Error(`register ${handle}: ${r.status} ${JSON.stringify(r.body)}`);
  return { handle: r.body.handle, secret: r.body.secret };
}
