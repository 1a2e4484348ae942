// The scheduler starts each claimed item in a free lane: a long item (a research job waiting on a slow site) holds
// its own lane, never the work that falls due behind it; runDue still waits for everything to end. Work due between
// two ticks runs when due.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { enqueue } from '../../src/store/work-items.js';
import { eventually } from '../helpers/eventually.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

it('runs work that falls due while a long item runs, and runDue waits for both', async () => {
  const scheduler = gw.gateway.registry.services.scheduler;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const ran: string[] = [];
  scheduler.register({ kind: 'test_slow', leaseMs: 60_000, maxAttempts: 1, run: async (ref) => (await gate, void ran.push(ref)) });
  scheduler.register({ kind: 'test_fast', leaseMs: 60_000, maxAttempts: 1, run: async (ref) => void ran.push(ref) });
  const now = gw.clock.now();
  await scheduler.enqueue('test_slow', 'slow', now);
  await eventually(async () => expect(ran).toEqual([]), 200);
  await scheduler.enqueue('test_fast', 'fast-1', now);
  await scheduler.enqueue('test_fast', 'fast-2', now);
  await eventually(async () => expect(ran).toEqual(['fast-1', 'fast-2']));
  const drained = scheduler.runDue();
  release();
  await drained;
  expect(ran).toEqual(['fast-1', 'fast-2', 'slow']);
});

it("runs at most a kind's lanes of it at once (webhooks to hanging targets), while other work goes on", async () => {
  const scheduler = gw.gateway.registry.services.scheduler;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let running = 0;
  let most = 0;
  const done: string[] = [];
  scheduler.register({
    kind: 'test_capped',
    leaseMs: 60_000,
    maxAttempts: 1,
    lanes: 2,
    run: async (ref) => {
      most = Math.max(most, ++running);
      await gate;
      running--;
      done.push(ref);
    },
  });
  const ran: string[] = [];
  scheduler.register({ kind: 'test_free', leaseMs: 60_000, maxAttempts: 1, run: async (ref) => void ran.push(ref) });
  const now = gw.clock.now();
  for (let i = 0; i < 6; i++) await scheduler.enqueue('test_capped', `hang-${i}`, now);
  await eventually(async () => expect(running).toBe(2));
  await scheduler.enqueue('test_free', 'other', now);
  await eventually(async () => expect(ran).toEqual(['other']));
  expect(running).toBe(2);
  // The four waiting are neither run nor lost: they run as lanes free.
  const drained = scheduler.runDue();
  release();
  await drained;
  expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `hang-${i}`));
  expect(most).toBe(2);
});

// Work due between two ticks runs at its due time, not at the first tick after it: ticks come on the second (node-cron,
// every second), so an item due 400 ms past a second would otherwise wait for the next one. A gateway on the real clock.
describe('work due between two ticks', () => {
  let live: TestGateway;
  beforeAll(async () => {
    live = await startGateway({ clock: systemClock });
  });
  afterAll(async () => live.cleanup());

  /** Waits for the wall clock to be `ms` into a second; returns that second's start. */
  const intoSecond = async (ms: number): Promise<number> => {
    const wait = (ms - (Date.now() % 1000) + 1000) % 1000;
    await new Promise((r) => setTimeout(r, wait));
    return Date.now() - (Date.now() % 1000);
  };

  it('runs an item enqueued here at its due time, before the next tick', async () => {
    const scheduler = live.gateway.registry.services.scheduler;
    const ran: number[] = [];
    scheduler.register({ kind: 'test_timer', leaseMs: 60_000, maxAttempts: 1, run: async () => void ran.push(Date.now()) });
    const second = await intoSecond(100);
    await scheduler.enqueue('test_timer', 'soon', second + 400);
    await eventually(async () => expect(ran).toHaveLength(1));
    expect(ran[0]).toBeGreaterThanOrEqual(second + 400);
    expect(ran[0]).toBeLessThan(second + 1000); // the tick would have run it at second + 1000 at the earliest
  });

  it('runs an item another process enqueued at its due time, once a tick has seen it coming', async () => {
    const scheduler = live.gateway.registry.services.scheduler;
    const ran: number[] = [];
    scheduler.register({ kind: 'test_elsewhere', leaseMs: 60_000, maxAttempts: 1, run: async () => void ran.push(Date.now()) });
    // Straight into the table, as another instance's enqueue: no timer here, only the tick at second + 1000 sees it.
    const second = await intoSecond(100);
    await enqueue(live.gateway.db, 'test_elsewhere', 'later', second + 1400, Date.now());
    await eventually(async () => expect(ran).toHaveLength(1), 5000);
    expect(ran[0]).toBeGreaterThanOrEqual(second + 1400);
    expect(ran[0]).toBeLessThan(second + 2000);
  });
});
