// Background work that burns CPU (fact extraction) steps aside while the gateway is busy with requests. Its
// own thread runs niced, yet on a two-vCPU machine it still took a third of the request throughput while it
// worked off a bulk import (niceness orders runnable threads; it does not keep a busy sibling from slowing a
// shared core, nor a stream of commits from churning the readers' caches). So between batches it waits for a
// quiet moment, for a bounded time: it keeps a minimum pace under constant load and catches up at full speed
// once load drops.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** How busy the event loop has been: `mark()` now, `busySince(mark)` the busy share of the time since (0–1). */
export interface LoopGauge {
  mark(): unknown;
  busySince(mark: unknown): number;
}

export const eventLoopGauge: LoopGauge = {
  mark: () => performance.eventLoopUtilization(),
  busySince: (mark) => performance.eventLoopUtilization(mark as EventLoopUtilization).utilization,
};

export interface QuietOptions {
  /** Busy share above which the gateway counts as busy. */
  busyAbove: number;
  /** Length of each look at the event loop while waiting. */
  probeMs: number;
  /** Longest wait: background work still moves at least one batch per this long. */
  maxWaitMs: number;
}

const QUIET: QuietOptions = { busyAbove: 0.3, probeMs: 50, maxWaitMs: 2000 };

/**
 * Resolves at once if the event loop was quiet since `since` (a gauge mark taken when the batch began);
 * otherwise once a probe finds it quiet, after `maxWaitMs` at most, or when `signal` aborts.
 */
export async function whenQuiet(since: unknown, signal: AbortSignal, o: QuietOptions = QUIET, gauge: LoopGauge = eventLoopGauge): Promise<void> {
  if (gauge.busySince(since) <= o.busyAbove) return;
  for (let waited = 0; waited < o.maxWaitMs && !signal.aborted; waited += o.probeMs) {
    const mark = gauge.mark();
    // An abort ends the wait early (the rejection is the signal, not a failure).
    await sleep(o.probeMs, undefined, { signal }).catch(() => undefined);
    if (gauge.busySince(mark) <= o.busyAbove) return;
  }
}
