// Stopping the scheduler (a gateway closing) while a drain is claiming: the claim ends before the database closes,
// what it claimed does not run and its lease is given back; a drain that fails (the database went away under it) is
// logged, never left as an unhandled rejection.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import type { Db, Params } from '../../src/store/db.js';
import { enqueue } from '../../src/store/work-items.js';
import { eventually } from '../helpers/eventually.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

const CLAIM = /^UPDATE work_items SET lease_owner/;

/** The gateway's database, with each claim held until `hold` resolves or failed with `fail`. */
function gatedDb(db: Db, claim: { hold?: Promise<void>; fail?: Error; seen: number }): Db {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'all') {
        return async (sql: string, params?: Params) => {
          if (CLAIM.test(sql)) {
            claim.seen++;
            if (claim.fail) throw claim.fail;
            await claim.hold;
          }
          return target.all(sql, params);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

it('waits for a claim under way when it stops, runs nothing it claimed and gives the lease back', async () => {
  const db = gw.gateway.db;
  let release!: () => void;
  const claim = { hold: new Promise<void>((r) => (release = r)), seen: 0 };
  const scheduler = new Scheduler({ db: gatedDb(db, claim), clock: gw.clock, log: createLogger('silent') });
  const ran: string[] = [];
  scheduler.register({ kind: 'test_stop', leaseMs: 60_000, maxAttempts: 1, run: async (ref) => void ran.push(ref) });
  await enqueue(db, 'test_stop', 'item', gw.clock.now(), gw.clock.now());
  scheduler.kick();
  await eventually(async () => expect(claim.seen).toBe(1));
  let stopped = false;
  const stopping = scheduler.stop().then(() => (stopped = true));
  await new Promise((r) => setTimeout(r, 50));
  expect(stopped).toBe(false);
  release();
  await stopping;
  expect(ran).toEqual([]);
  const row = await db.get<{ lease_owner: string | null }>("SELECT lease_owner FROM work_items WHERE kind = 'test_stop'");
  expect(row).toEqual({ lease_owner: null });
});

it('logs a drain that fails rather than leaving an unhandled rejection', async () => {
  const errors: string[] = [];
  const log = createLogger('error', { write: (line: string) => void errors.push(JSON.parse(line).msg) });
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    const claim = { fail: new Error('database is closed'), seen: 0 };
    const scheduler = new Scheduler({ db: gatedDb(gw.gateway.db, claim), clock: gw.clock, log });
    scheduler.register({ kind: 'test_fail', leaseMs: 60_000, maxAttempts: 1, run: async () => undefined });
    scheduler.kick();
    await eventually(async () => expect(errors).toContain('scheduler: a drain failed'));
    await new Promise((r) => setTimeout(r, 20));
    expect(unhandled).toEqual([]);
    await scheduler.stop();
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
