// A rate window every gateway instance on one database counts together. On PostgreSQL the hits are rows
// (rate_hits) and a take is one transaction holding its key's lock across instances (TxOptions.lockKey), so
// count-then-record is exact however many instances share the database, and other keys' takes run beside it.
// On SQLite (one machine) the in-process RateWindow counts, as before: several processes on one file may each
// allow a burst.
import { createHash } from 'node:crypto';
import type { Clock } from './clock.js';
import { RateWindow } from './rate-window.js';
import type { Db } from './store/db.js';
import { pruneHits, takeHit } from './store/rate-hits.js';

export interface SharedRateWindow {
  /** Records a hit for `key` if allowed; resolves 0 when allowed, else the seconds to wait. */
  take(key: string): Promise<number>;
}

/** Hits older than this are deleted, whatever their key (the longest window in use is an hour)… */
const KEEP_MS = 24 * 3600_000;
/** …by a take at most this often per instance (a take drops its own key's old hits each time). */
const PRUNE_EVERY_MS = 60_000;

/** The in-process window SQLite counts with: `take` as SharedRateWindow's, answered at once. */
export interface LocalRateWindow {
  take(key: string): number;
}

/**
 * `maxKeys` bounds the keys SQLite's in-process window tracks (GATEWAY_RATE_WINDOW_KEYS); PostgreSQL keeps rows.
 * `local` replaces SQLite's RateWindow (the chat tier's log, whose cost stays flat however high its limit).
 */
export function sharedRateWindow(
  db: Db,
  name: string,
  limit: number,
  windowMs: number,
  clock: Clock,
  maxKeys?: number,
  local: LocalRateWindow = new RateWindow(limit, windowMs, clock, maxKeys),
): SharedRateWindow {
  if (db.dialect === 'sqlite') return { take: (key) => Promise.resolve(local.take(key)) };
  let prunedAt = 0;
  return {
    async take(key) {
      const now = clock.now();
      if (now - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = now;
        await pruneHits(db, now - KEEP_MS);
      }
      const hashed = createHash('sha256').update(`${name}\u0000${key}`).digest('base64url');
      // The clock is read once the key's lock is held, so no hit another instance recorded is later than `at`;
      // the wait is still clamped to the window, for instances whose clocks differ by a few milliseconds.
      const refused = await db.transaction(
        async (tx) => {
          const at = clock.now();
          const first = await takeHit(tx, { key: hashed, now: at, windowMs, limit });
          return first === null ? null : { first, at };
        },
        { lockKey: `rate:${hashed}` },
      );
      if (refused === null) return 0;
      return Math.min(Math.ceil(windowMs / 1000), Math.max(1, Math.ceil((refused.first + windowMs - refused.at) / 1000)));
    },
  };
}

const made = new WeakMap<Db, Map<string, SharedRateWindow>>();

/** The window `name` of a database, made on first use: a tool module serves every gateway in the process, each with its own database. */
export function rateWindowOf(db: Db, name: string, make: () => SharedRateWindow): SharedRateWindow {
  let byName = made.get(db);
  if (!byName) made.set(db, (byName = new Map()));
  let w = byName.get(name);
  if (!w) byName.set(name, (w = make()));
  return w;
}

/** A tool's window of `limit` hits per `windowMs` per key, its in-process keys bounded by GATEWAY_RATE_WINDOW_KEYS. */
export const toolRateWindow = (
  ctx: { db: Db; clock: Clock; config: { caches: { rateWindowKeys: number } } },
  name: string,
  limit: number,
  windowMs: number,
  local?: (maxKeys: number) => LocalRateWindow,
): SharedRateWindow => {
  const keys = ctx.config.caches.rateWindowKeys;
  return rateWindowOf(ctx.db, name, () => sharedRateWindow(ctx.db, name, limit, windowMs, ctx.clock, keys, local?.(keys)));
};
