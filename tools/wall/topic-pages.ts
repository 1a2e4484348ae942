// Keeps every topic's first page built (migration 020): a change marks the topic stale in its own
// transaction, and this worker builds stale topics again, a few at a time on the reader thread, storing each
// page only if its topic was not marked again while it was being built. Topics a read found stale go first.
// While posts are being indexed it builds only those, in short rounds with long pauses: rebuilding every
// touched topic after every index batch halved posting (docs/decisions/social.md). The rest waits for a quiet wall.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../../src/config.js';
import type { Db } from '../../src/store/db.js';
import { Ticker, type Worker } from '../../src/workers.js';
import { wallBase } from './shape.js';
import { buildTopicPage, markOtherBases, staleTopics, storeTopicPages, type BuiltPage } from './store/topic-pages.js';

/** Topics built per round: one store transaction for them all, and a check for shutdown in between. */
const ROUND = 16;
/** While posts are indexed, rounds (of wanted topics only) take at most this share of the time. */
const BUSY_SHARE = 0.1;
/** How long after the last indexed post the wall counts as busy. */
const BUSY_MS = 1000;
/** Topics a read wants built first, at most this many (oldest dropped). */
const WANTED_MAX = 256;

interface Builder {
  kick(): void;
  /** Stale topics reads asked for, built before the others. */
  wanted: Set<string>;
  busyUntil: number;
}
const builders = new WeakMap<Db, Builder>();

/** Posts were indexed: their topics are stale, and the wall is busy for a while (a no-op where no builder runs). */
export function topicsChanged(db: Db): void {
  const b = builders.get(db);
  if (!b) return;
  b.busyUntil = performance.now() + BUSY_MS;
  b.kick();
}

/** A read found the topic stale: build it before the others. */
export function wantTopicPage(db: Db, topic: string): void {
  const b = builders.get(db);
  if (!b) return;
  b.wanted.delete(topic);
  b.wanted.add(topic);
  if (b.wanted.size > WANTED_MAX) b.wanted.delete(b.wanted.values().next().value as string);
  b.kick();
}

/** Up to `n` topics taken from `wanted`, most recently wanted first. */
function take(wanted: Set<string> | undefined, n: number): string[] {
  const out = wanted ? [...wanted].slice(-n).reverse() : [];
  for (const t of out) wanted!.delete(t);
  return out;
}

export interface BuildOptions {
  signal?: AbortSignal;
  wanted?: Set<string>;
  /** While true, only wanted topics are built, each round followed by `pause`. */
  busy?: () => boolean;
  pause?: (roundMs: number) => Promise<void>;
}

/**
 * Builds the page of every stale topic, wanted ones first, one at a time so requests' reads interleave;
 * returns how many were stored.
 */
export async function buildStalePages(db: Db, base: string, o: BuildOptions = {}): Promise<number> {
  let stored = 0;
  for (;;) {
    const t0 = performance.now();
    const busy = o.busy?.() ?? false;
    const topics = take(o.wanted, ROUND);
    const asked = busy ? 0 : ROUND - topics.length;
    const stale = asked > 0 ? await staleTopics(db, asked) : [];
    for (const s of stale) if (!topics.includes(s.topic)) topics.push(s.topic);
    const built: BuiltPage[] = [];
    for (const t of topics) built.push(await buildTopicPage(db, base, t));
    stored += await storeTopicPages(db, base, built);
    if ((stale.length < asked || busy) && !o.wanted?.size) return stored;
    if (o.signal?.aborted) return stored;
    if (busy) await o.pause?.(performance.now() - t0);
  }
}

/** The wall's base URL, or null while it still waits for the port to be bound (PORT=0). */
const boundBase = (config: Config): string | null => (config.baseUrlFromListen && new URL(config.baseUrl).port === '0' ? null : wallBase(config));

export function createTopicPageBuilder(): Worker {
  let ticker: Ticker | null = null;
  return {
    name: 'wall-topic-pages',
    start(ctx) {
      let builtFor: string | null = null;
      const b: Builder = { kick: () => ticker?.kick(), wanted: new Set(), busyUntil: 0 };
      const busy = () => performance.now() < b.busyUntil;
      ticker = new Ticker(
        async (signal) => {
          const base = boundBase(ctx.config);
          if (base === null) return;
          // Pages built for another base (another port, another configured URL) are built again.
          if (base !== builtFor) await markOtherBases(ctx.db, base);
          builtFor = base;
          const pause = (ms: number) => sleep((ms * (1 - BUSY_SHARE)) / BUSY_SHARE, undefined, { signal }).catch(() => undefined);
          await buildStalePages(ctx.db, base, { signal, wanted: b.wanted, busy, pause });
          // Stopped for a busy wall: the rest is built once it is quiet (a tick still busy then waits again).
          if (busy()) ticker?.kickIn(b.busyUntil - performance.now() + 10);
        },
        5000,
        (err) => ctx.log.warn({ err }, 'building topic pages failed'),
      );
      ticker.start();
      builders.set(ctx.db, b);
      ticker.kick();
    },
    stop: async () => ticker?.stop(),
  };
}
