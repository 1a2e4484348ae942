// Per-request records do not pile up (issues 26 and 42): finished A2A tasks, jobs, webhook deliveries and
// notifications are deleted once older than their retention (GATEWAY_RETAIN_*_DAYS; 0 keeps them), and an A2A task
// left in input-required or auth-required longer than GATEWAY_A2A_INTERRUPTED_HOURS ends as failed (then its
// retention runs like any finished task's). A worker sweeps at start-up and then every half minute, in small batches
// whose size follows how long each took, so that other writes go between them and none holds the writer for long.
// Every instance on a shared database runs it; each statement is guarded, so sweeping the same rows twice does
// nothing more. docs/decisions/retention.md, docs/decisions/a2a-abandoned-tasks.md.
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Config, RetentionDays } from './config.js';
import { expireInterruptedTasks } from './store/a2a-tasks.js';
import type { Db } from './store/db.js';
import { pruneAnonymousTasks, pruneChunk, pruneStartVisits, REFERRAL_WINDOW_MS, RETAINED_RECORDS, type RetainedRecord } from './store/retention.js';
import { Ticker, type Worker } from './workers.js';

const DAY_MS = 86_400_000;
/** A sweep every half minute: a burst of due rows is gone within a minute, and a sweep with nothing to do costs five indexed statements. */
export const SWEEP_EVERY_MS = 30_000;

/**
 * Rows per statement. It starts small and doubles while a statement takes under a quarter of the target, halves when
 * one takes longer: a batch of small rows grows to the ceiling, large rows (long histories) or a busy writer keep it
 * small. The time measured is the statement's round trip, the wait behind other writes included.
 */
export const BATCH = { first: 100, min: 10, max: 1000, targetMs: 20 } as const;

/** Adapts the batch size to how long the last statement took. */
export class BatchSize {
  size: number = BATCH.first;
  /** The longest statement seen (ms), for tests and logs. */
  longestMs = 0;

  next(tookMs: number): void {
    this.longestMs = Math.max(this.longestMs, tookMs);
    if (tookMs > BATCH.targetMs) this.size = Math.max(BATCH.min, Math.floor(this.size / 2));
    else if (tookMs < BATCH.targetMs / 4) this.size = Math.min(BATCH.max, this.size * 2);
  }
}

/** Runs `step` (which handles at most `size` rows, returning how many) until a batch comes back short; returns the total. */
async function inBatches(step: (size: number) => Promise<number>, batch: BatchSize, signal?: AbortSignal): Promise<number> {
  let total = 0;
  for (;;) {
    if (signal?.aborted) return total;
    const size = batch.size;
    const t0 = performance.now();
    const n = await step(size);
    batch.next(performance.now() - t0);
    total += n;
    if (n < size) return total;
    await nextTurn(); // requests go between batches
  }
}

/** Deletes every record past its retention; returns how many of each kind went. */
export async function pruneRecords(
  db: Db,
  now: number,
  days: RetentionDays,
  signal?: AbortSignal,
  batch = new BatchSize(),
): Promise<Partial<Record<RetainedRecord, number>>> {
  const deleted: Partial<Record<RetainedRecord, number>> = {};
  for (const kind of RETAINED_RECORDS) {
    if (days[kind] <= 0) continue;
    const before = now - days[kind] * DAY_MS;
    const n = await inBatches((size) => pruneChunk(db, kind, before, size), batch, signal);
    if (n > 0) deleted[kind] = n;
  }
  return deleted;
}

/**
 * Ends (as failed) every A2A task left in input-required or auth-required, or left submitted or working by a stopped
 * process, for longer than `interruptedMs`, as of the time its wait ran out; returns how many.
 */
export async function expireA2aTasks(db: Db, now: number, interruptedMs: number, signal?: AbortSignal, batch = new BatchSize()): Promise<number> {
  const hours = Math.round((interruptedMs / 3600_000) * 100) / 100;
  const waited = `${hours} h`;
  return inBatches(
    (limit) =>
      expireInterruptedTasks(db, {
        now,
        afterMs: interruptedMs,
        limit,
        authText: `This task waited ${waited} for credentials or payment and has expired. Send the message again, as a new task, with them: X-API-Key (a free key: POST /keys/issue), Authorization: Bearer <agent secret>, or an x402 PAYMENT-SIGNATURE.`,
        inputText: `This task waited ${waited} for the input it asked for and has expired. Send a new message to start again.`,
        stoppedText: `This task's work stopped without an answer (the gateway was restarted while it ran) and it has expired after ${waited}. Send the message again to start it anew.`,
      }),
    batch,
    signal,
  );
}

export interface SweepResult {
  /** A2A tasks ended as failed after waiting too long for the client. */
  expired: number;
  /** Records past their retention, and `/start` visits past the referral window. */
  deleted: Partial<Record<RetainedRecord | 'start_visits', number>>;
}

/** One sweep: expiry first, so that a task whose wait ran out long ago goes in the same sweep when its retention has passed too. */
export async function sweep(db: Db, now: number, config: Pick<Config, 'retention' | 'a2a'>, signal?: AbortSignal, batch = new BatchSize()): Promise<SweepResult> {
  const expired = await expireA2aTasks(db, now, config.a2a.interruptedMs, signal, batch);
  const deleted: SweepResult['deleted'] = await pruneRecords(db, now, config.retention, signal, batch);
  const visits = await inBatches((size) => pruneStartVisits(db, now - REFERRAL_WINDOW_MS, size), batch, signal);
  if (visits > 0) deleted.start_visits = visits;
  const anonymous = await inBatches((size) => pruneAnonymousTasks(db, now - config.a2a.anonymousRetainMs, size), batch, signal);
  if (anonymous > 0) deleted.a2a_tasks = (deleted.a2a_tasks ?? 0) + anonymous;
  return { expired, deleted };
}

export function createRetentionWorker(): Worker {
  let ticker: Ticker | null = null;
  return {
    name: 'retention',
    start(ctx) {
      // Kept from sweep to sweep: the size a table's rows and the writer's load called for last time.
      const batch = new BatchSize();
      ticker = new Ticker(
        async (signal) => {
          const { expired, deleted } = await sweep(ctx.db, ctx.clock.now(), ctx.config, signal, batch);
          if (expired || Object.keys(deleted).length) ctx.log.info({ expired, deleted, batch: batch.size }, 'retention: waiting A2A tasks expired, finished records deleted');
        },
        SWEEP_EVERY_MS,
        (err) => ctx.log.warn({ err }, 'retention failed'),
      );
      ticker.start();
      ticker.kick();
    },
    stop: async () => ticker?.stop(),
  };
}
