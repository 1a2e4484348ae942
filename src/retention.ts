// Per-request records do not pile up (issue 26): finished A2A tasks, jobs, webhook deliveries and notifications
// are deleted once older than their retention (GATEWAY_RETAIN_*_DAYS; 0 keeps them), by a worker that runs at
// start-up and then hourly, in chunks so that other writes go between them. Every instance on a shared database
// runs it; the deletions are idempotent. docs/decisions/retention.md.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RetentionDays } from './config.js';
import type { Db } from './store/db.js';
import { pruneChunk, RETAINED_RECORDS, type RetainedRecord } from './store/retention.js';
import { Ticker, type Worker } from './workers.js';

const DAY_MS = 86_400_000;
const CHUNK = 500;
const EVERY_MS = 3600_000;

/** Deletes every record past its retention; returns how many of each kind went. */
export async function pruneRecords(db: Db, now: number, days: RetentionDays, signal?: AbortSignal): Promise<Partial<Record<RetainedRecord, number>>> {
  const deleted: Partial<Record<RetainedRecord, number>> = {};
  for (const kind of RETAINED_RECORDS) {
    if (days[kind] <= 0) continue;
    const before = now - days[kind] * DAY_MS;
    let n = CHUNK;
    while (n === CHUNK && !signal?.aborted) {
      n = await pruneChunk(db, kind, before, CHUNK);
      if (n > 0) deleted[kind] = (deleted[kind] ?? 0) + n;
      await nextTurn(); // requests go between chunks
    }
  }
  return deleted;
}

export function createRetentionWorker(): Worker {
  let ticker: Ticker | null = null;
  return {
    name: 'retention',
    start(ctx) {
      ticker = new Ticker(
        async (signal) => {
          const deleted = await pruneRecords(ctx.db, ctx.clock.now(), ctx.config.retention, signal);
          if (Object.keys(deleted).length) ctx.log.info({ deleted }, 'retention: finished records deleted');
        },
        EVERY_MS,
        (err) => ctx.log.warn({ err }, 'retention failed'),
      );
      ticker.start();
      ticker.kick();
    },
    stop: async () => ticker?.stop(),
  };
}
