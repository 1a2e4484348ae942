// Background batches wait for a quiet event loop, but never longer than the cap, and never past shutdown.
import { describe, expect, it } from 'vitest';
import { eventLoopGauge, whenQuiet, type LoopGauge } from '../src/yield-to-requests.js';

/** A gauge that reports the given busy shares in turn (the last one repeats), counting the looks. */
function scripted(shares: number[]): LoopGauge & { looks: number } {
  const g = {
    looks: 0,
    mark: () => null,
    busySince: () => shares[Math.min(g.looks++, shares.length - 1)],
  };
  return g;
}

const opts = { busyAbove: 0.3, probeMs: 1, maxWaitMs: 10 };
const live = () => new AbortController().signal;

describe('whenQuiet', () => {
  it('lets the next batch go at once when the loop was quiet during the last one', async () => {
    const g = scripted([0.1]);
    await whenQuiet(null, live(), opts, g);
    expect(g.looks).toBe(1);
  });

  it('waits while the loop is busy and goes at the first quiet look', async () => {
    const g = scripted([0.9, 0.8, 0.95, 0.2, 0.9]);
    await whenQuiet(null, live(), opts, g);
    expect(g.looks).toBe(4);
  });

  it('goes anyway after the longest wait, so a constantly busy gateway still makes progress', async () => {
    const g = scripted([1]);
    await whenQuiet(null, live(), opts, g);
    expect(g.looks).toBe(1 + opts.maxWaitMs / opts.probeMs);
  });

  it('stops waiting when the worker is stopped', async () => {
    const g = scripted([1]);
    const stop = new AbortController();
    const waiting = whenQuiet(null, stop.signal, { ...opts, probeMs: 60_000, maxWaitMs: 600_000 }, g);
    stop.abort();
    await waiting;
    expect(g.looks).toBeLessThanOrEqual(2);
  });

  it('reads the real event loop: a blocked loop is busy, an idle one quiet', async () => {
    const mark = eventLoopGauge.mark();
    await new Promise((r) => setTimeout(r, 5));
    const spinUntil = performance.now() + 30;
    while (performance.now() < spinUntil);
    await new Promise((r) => setImmediate(r));
    expect(eventLoopGauge.busySince(mark)).toBeGreaterThan(0.3);
    // Idle: a look finds it quiet. Several looks, as whenQuiet takes them: on a loaded machine (other test files
    // running beside this one) a single short window can catch the test runner's own work.
    const looks: number[] = [];
    for (let i = 0; i < 5 && !looks.some((b) => b < 0.3); i++) {
      const idle = eventLoopGauge.mark();
      await new Promise((r) => setTimeout(r, 50));
      looks.push(eventLoopGauge.busySince(idle));
    }
    expect(Math.min(...looks)).toBeLessThan(0.3);
  });
});
