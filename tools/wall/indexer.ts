// The wall's search and topic indexes are filled in batches, off the request path: a post kicks the indexer,
// which adds everything new a few hundred posts at a time (one FTS segment per batch instead of one per post,
// each topic's count rows touched once per batch). Each batch is one atomic unit for the writer, and other
// writes go between batches, so posting never waits for a whole backlog. Search and topic reads catch up
// first, so a reader always finds what was posted before its query.
import type { Db } from '../../src/store/db.js';
import { Ticker, type Worker } from '../../src/workers.js';
import { indexBatch, indexLags } from './store/posts.js';
import { topicsChanged } from './topic-pages.js';

const BATCH = 200;
/** A post waits at most this long for the index (a search indexes at once); posts in between share a batch. */
const SETTLE_MS = 250;
const kickers = new WeakMap<Db, () => void>();

/** Indexes every post not yet indexed (stopping between batches when asked to); their topics' pages follow. */
export async function indexPending(db: Db, signal?: AbortSignal): Promise<void> {
  let indexed = 0;
  let n = BATCH;
  while (n === BATCH && !signal?.aborted) {
    n = await indexBatch(db, BATCH);
    indexed += n;
  }
  if (indexed > 0) topicsChanged(db);
}

/** Asks the indexer to run soon (a no-op where no indexer runs). */
export const kickIndexer = (db: Db): void => kickers.get(db)?.();

/** Before a search or a topic read: index what is still waiting, so read-your-writes holds. */
export async function catchUp(db: Db): Promise<void> {
  if (await indexLags(db)) await indexPending(db);
}

export function createIndexer(): Worker {
  let ticker: Ticker | null = null;
  return {
    name: 'wall-search-indexer',
    start(ctx) {
      const t = (ticker = new Ticker((signal) => indexPending(ctx.db, signal), 5000, (err) => ctx.log.warn({ err }, 'wall indexing failed')));
      t.start();
      // Kicks within SETTLE_MS share one run, so a busy wall is indexed in batches rather than post by post.
      kickers.set(ctx.db, () => t.kickIn(SETTLE_MS));
      t.kick();
    },
    stop: async () => ticker?.stop(),
  };
}
