// Where the limit suites (test/multi/limits-*.test.ts) send their bursts: one in-process gateway on the run's store
// (SQLite, or PostgreSQL under GATEWAY_TEST_STORE=postgres), and three instances of the built CLI on one PostgreSQL
// database when PostgreSQL is installed. A suite registers its tests once and they run against both; requests go
// round-robin over the instances, so a burst of 50 lands on every instance at once.
import fs from 'node:fs';
import { afterAll, beforeAll, describe } from 'vitest';
import { api, startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';
import { hasPostgres, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { OPERATOR, startInstance, type Instance } from './instances-harness.js';

export { OPERATOR };

/** Requests in each burst. */
export const BURST = 50;

export interface Cluster {
  /** The next instance's main listener, round-robin. */
  next(): string;
  /** The next instance's commercial listener ({api_url}), round-robin. */
  nextApi(): string;
}

type Call = Awaited<ReturnType<typeof api>>;

/** `n` calls at once, each given its index; their answers in order. */
export const burst = (n: number, call: (i: number) => Promise<Call>): Promise<Call[]> => Promise.all(Array.from({ length: n }, (_, i) => call(i)));

/** How many answers had each status, e.g. {201: 10, 429: 40}. */
export const statusCounts = (calls: Call[]): Record<number, number> => {
  const out: Record<number, number> = {};
  for (const c of calls) out[c.status] = (out[c.status] ?? 0) + 1;
  return out;
};

/** Headers that make a request come from client address `ip` (the gateways trust X-Forwarded-For). */
export const from = (ip: string): Record<string, string> => ({ 'x-forwarded-for': ip });

const roundRobin = (urls: string[]) => {
  let turn = 0;
  return () => urls[turn++ % urls.length];
};

/** Runs `suite` against one gateway and against three instances on one PostgreSQL, each started with `env`. */
export function onEachCluster(title: string, env: Record<string, string>, suite: (cluster: () => Cluster) => void): void {
  const settings = { GATEWAY_TRUST_PROXY: 'true', GATEWAY_OPERATOR_TOKEN: OPERATOR, ...env };

  describe(`${title}, one gateway`, () => {
    let gw: TestGateway | undefined;
    beforeAll(async () => {
      gw = await startGateway({ env: settings });
    });
    afterAll(() => gw?.cleanup());
    suite(() => ({ next: () => gw!.url, nextApi: () => gw!.apiUrl }));
  });

  describe.skipIf(!hasPostgres)(`${title}, three instances on one PostgreSQL`, () => {
    let server: TestPostgres | undefined;
    const dataDir = tempDir();
    const instances: Instance[] = [];
    let cluster: Cluster | undefined;
    beforeAll(async () => {
      server = await startPostgres();
      // Started together: the migrations run once under their advisory lock.
      instances.push(...(await Promise.all([1, 2, 3].map(() => startInstance(server!.url, dataDir, settings)))));
      cluster = { next: roundRobin(instances.map((i) => i.url)), nextApi: roundRobin(instances.map((i) => i.apiUrl)) };
    }, 120_000);
    afterAll(async () => {
      for (const i of instances) i.child.kill('SIGKILL');
      await server?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    suite(() => cluster!);
  });
}
