import { describe, expect, it } from 'vitest';
import { Ticker } from '../../src/workers.js';

describe('Ticker', () => {
  it('stop() interrupts a long tick between items instead of waiting for the whole backlog', async () => {
    let done = 0;
    const backlog = 1_000_000;
    const ticker = new Ticker(
      async (signal) => {
        for (let i = 0; i < backlog && !signal.aborted; i++) {
          await new Promise((r) => setImmediate(r));
          done++;
        }
      },
      60_000,
      () => undefined,
    );
    ticker.kick();
    await new Promise((r) => setTimeout(r, 20));
    await ticker.stop();
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(backlog);
  });

  it('runs again when kicked during a tick, never two at once', async () => {
    let running = 0;
    let max = 0;
    let runs = 0;
    const ticker = new Ticker(
      async () => {
        running++;
        max = Math.max(max, running);
        runs++;
        await new Promise((r) => setTimeout(r, 5));
        running--;
      },
      60_000,
      () => undefined,
    );
    ticker.kick();
    ticker.kick();
    ticker.kick();
    await ticker.idle();
    expect(max).toBe(1);
    expect(runs).toBe(2);
    await ticker.stop();
  });

  it('kickIn: kicks within the delay share one run, and stop() cancels one still to come', async () => {
    let runs = 0;
    const ticker = new Ticker(async () => void runs++, 60_000, () => undefined);
    ticker.kickIn(30);
    ticker.kickIn(30);
    ticker.kickIn(5);
    expect(runs).toBe(0);
    await new Promise((r) => setTimeout(r, 60));
    await ticker.idle();
    expect(runs).toBe(1);
    ticker.kickIn(20);
    await ticker.stop();
    await new Promise((r) => setTimeout(r, 40));
    expect(runs).toBe(1);
  });
});
