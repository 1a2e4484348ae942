// The scheduler starts each claimed item in a free lane: a long item (a research job waiting on a slow site) holds
// its own lane, never the work that falls due behind it; runDue still waits for everything to end.
import { afterAll, beforeAll, expect, it } from 'vitest';
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
