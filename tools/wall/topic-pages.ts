// Keeps every topic's first page built (migration 020): a change marks the topic stale in its own
// transaction, and this worker builds stale topics again, a few at a time on the reader thread, storing each
// page only if its topic was not marked again while it was being built. Kicked after each index batch and by
// a read that finds no page; a tick every few seconds catches the rest.
import type { Config } from '../../src/config.js';
import type { Db } from '../../src/store/db.js';
import { Ticker, type Worker } from '../../src/workers.js';
import { wallBase } from './shape.js';
import { buildTopicPage, markOtherBases, staleTopics, storeTopicPages, type BuiltPage } from './store/topic-pages.js';

/** Topics built per round: one store transaction for them all, and a check for shutdown in between. */
const ROUND = 16;
const kickers = new WeakMap<Db, () => void>();

/** Asks the page builder to run soon (a no-op where none runs). */
export const kickTopicPages = (db: Db): void => kickers.get(db)?.();

/** Builds the page of every stale topic, one at a time so requests' reads interleave; returns how many were stored. */
export async function buildStalePages(db: Db, base: string, signal?: AbortSignal): Promise<number> {
  let stored = 0;
  for (;;) {
    const stale = await staleTopics(db, ROUND);
    const built: BuiltPage[] = [];
    for (const s of stale) built.push(await buildTopicPage(db, base, s.topic));
    stored += await storeTopicPages(db, base, built);
    if (stale.length < ROUND || signal?.aborted) return stored;
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
      ticker = new Ticker(
        async (signal) => {
          const base = boundBase(ctx.config);
          if (base === null) return;
          // Pages built for another base (another port, another configured URL) are built again.
          if (base !== builtFor) await markOtherBases(ctx.db, base);
          builtFor = base;
          await buildStalePages(ctx.db, base, signal);
        },
        5000,
        (err) => ctx.log.warn({ err }, 'building topic pages failed'),
      );
      ticker.start();
      const t = ticker;
      kickers.set(ctx.db, () => t.kick());
      t.kick();
    },
    stop: async () => ticker?.stop(),
  };
}
