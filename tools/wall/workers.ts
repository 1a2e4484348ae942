// The wall's background work: once an hour (and at start-up), topic counts no /topics window can reach any
// more are dropped and the topics' ranking bounds are rebased; the search indexer; the topic page builder.
import { Ticker, type Worker } from '../../src/workers.js';
import { pruneTopicCounts } from './store/topics.js';
import { createIndexer } from './indexer.js';
import { createTopicPageBuilder } from './topic-pages.js';

export function createWallWorkers(): Worker[] {
  let ticker: Ticker | null = null;
  return [
    {
      name: 'wall-topic-prune',
      start(ctx) {
        ticker = new Ticker(
          async () => void (await pruneTopicCounts(ctx.db, Math.floor(ctx.clock.now() / 3600_000))),
          3600_000,
          (err) => ctx.log.warn({ err }, 'topic prune failed'),
        );
        ticker.start();
        // Bounds rebased at start-up too, so a gateway that was down for a while ranks fast at once.
        ticker.kick();
      },
      stop: async () => ticker?.stop(),
    },
    createIndexer(),
    createTopicPageBuilder(),
  ];
}
