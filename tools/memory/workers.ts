// Memory's background work, off the request path: fact extraction after writes, embeddings (when an
// endpoint is configured) and the expiry sweep. Each picks up where it left off after a restart, because
// what is due is derived from the rows (facts_version < version, missing vectors, expires_at passed).
import { performance } from 'node:perf_hooks';
import { embed } from '../../src/llm/openai-client.js';
import { Ticker, type Worker, type WorkerContext } from '../../src/workers.js';
import { extractFacts, loadNlp } from './facts-extract.js';
import { storeEmbedding, entriesDueForEmbedding } from './store/embeddings.js';
import { entriesDueForFacts, recordFacts } from './store/facts.js';
import { sweepExpired } from './sweep.js';

const BATCH = 50;
/** Share of one core fact extraction may take: after each entry it rests three times as long as it worked. */
const DUTY = 0.25;

const rest = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function extractDueFacts(ctx: WorkerContext, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    const due = await entriesDueForFacts(ctx.db, BATCH);
    if (due.length) await loadNlp();
    for (const e of due) {
      if (signal.aborted) return;
      const started = performance.now();
      const facts = await extractFacts(JSON.parse(e.value), JSON.parse(e.tags) as string[]);
      await recordFacts(ctx.db, e.id, e.version, facts, ctx.clock.now());
      // NLP is CPU-heavy: a burst of writes must not starve the requests this process serves.
      await rest(Math.min(50, ((performance.now() - started) * (1 - DUTY)) / DUTY));
    }
    if (due.length < BATCH) return;
  }
}

async function embedDue(ctx: WorkerContext, signal: AbortSignal): Promise<void> {
  const cfg = ctx.config.embeddings;
  if (!cfg) return;
  while (!signal.aborted) {
    const due = await entriesDueForEmbedding(ctx.db, 32);
    if (due.length === 0) return;
    const vectors = await embed(cfg, due.map((d) => `${d.key}\n${d.text}`.slice(0, 8000)));
    for (let i = 0; i < due.length; i++) await storeEmbedding(ctx.db, due[i].id, due[i].version, cfg.model, Float32Array.from(vectors[i]));
    if (due.length < 32) return;
  }
}

function tickerWorker(name: string, intervalMs: number, work: (ctx: WorkerContext, signal: AbortSignal) => Promise<unknown>, kickOnWrite: boolean): Worker {
  let ticker: Ticker | null = null;
  return {
    name,
    start(ctx) {
      ticker = new Ticker(async (signal) => void (await work(ctx, signal)), intervalMs, (err) => ctx.log.warn({ err, worker: name }, 'memory worker failed'));
      ticker.start();
      if (kickOnWrite) ctx.services.bus.on('memory:changed', () => ticker?.kick());
      ticker.kick();
    },
    stop: async () => ticker?.stop(),
  };
}

/** Fresh workers for one gateway. `idle` lets tests wait until extraction has caught up. */
export function createMemoryWorkers(): Worker[] {
  return [
    tickerWorker('memory-facts', 5000, extractDueFacts, true),
    tickerWorker('memory-embeddings', 10_000, embedDue, true),
    tickerWorker('memory-expiry', 60_000, sweepExpired, false),
  ];
}
