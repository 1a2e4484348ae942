// Memory's background work, off the request path: fact extraction after writes, embeddings (when an
// endpoint is configured) and the expiry sweep. Each picks up where it left off after a restart, because
// what is due is derived from the rows (facts_version < version, missing vectors, expires_at passed).
import { embed } from '../../src/llm/openai-client.js';
import { WorkerLease } from '../../src/store/worker-lease.js';
import { siblingModule, ThreadClient } from '../../src/threads.js';
import { Ticker, type Worker, type WorkerContext } from '../../src/workers.js';
import { eventLoopGauge, whenQuiet } from '../../src/yield-to-requests.js';
import type { Fact } from './facts-extract.js';
import type { FactsRequest } from './facts-thread.js';
import { storeEmbedding, entriesDueForEmbedding } from './store/embeddings.js';
import { entriesDueForFacts, recordFacts } from './store/facts.js';
import { sweepExpired } from './sweep.js';

/** Entries per round: one message to the NLP thread, one batch of writes for their facts. */
const BATCH = 25;
const FACTS_THREAD = siblingModule(import.meta.url, 'facts-thread');
/**
 * The NLP thread's heap is some 70 MB (compromise's lexicon, the recent texts' facts) with a young generation that
 * would grow to 32 MB under a stream of writes: it is kept to 8 MB (a background thread can collect more often),
 * and the thread is stopped once nothing was due for FACTS_IDLE_MS, giving all of it back until the next write.
 */
const FACTS_LIMITS = { maxYoungGenerationSizeMb: 8 };
const FACTS_IDLE_MS = 30_000;

type NlpThread = ThreadClient<FactsRequest[], Fact[][]>;

/**
 * Fact extraction: the NLP on a thread of its own (started with the first due entries), the bookkeeping here.
 * A backlog (a bulk import) is worked off in batches that wait for a quiet moment while requests keep the gateway busy.
 */
function factsWorker(): Worker {
  let thread: Promise<NlpThread> | null = null;
  let idle: NodeJS.Timeout | null = null;
  let busy = false;
  let lastUse = 0;
  const release = async (): Promise<void> => {
    const t = thread;
    thread = null;
    if (t) await (await t.catch(() => null))?.stop();
  };
  const nlp = async (): Promise<NlpThread> => {
    const t = await (thread ??= ThreadClient.start<FactsRequest[], Fact[][]>(FACTS_THREAD, undefined, FACTS_LIMITS)).catch((err: unknown) => {
      thread = null;
      throw err;
    });
    if (t.alive) return t;
    thread = null;
    return nlp();
  };
  /** Stops the thread once it has not been used for FACTS_IDLE_MS (never in the middle of a round). */
  const watchIdle = (): void => {
    if (idle || !thread) return;
    idle = setTimeout(() => {
      idle = null;
      if (!busy && Date.now() - lastUse >= FACTS_IDLE_MS) void release();
      else watchIdle();
    }, Math.max(1000, lastUse + FACTS_IDLE_MS - Date.now()));
    idle.unref();
  };
  const work = async (ctx: WorkerContext, signal: AbortSignal): Promise<void> => {
    busy = true;
    try {
      await extract(ctx, signal);
    } finally {
      busy = false;
      watchIdle();
    }
  };
  const lease = sharedLease('memory-facts');
  const extract = async (ctx: WorkerContext, signal: AbortSignal): Promise<void> => {
    while (!signal.aborted && !lease.waiting(ctx)) {
      const began = eventLoopGauge.mark();
      const due = await entriesDueForFacts(ctx.db, BATCH);
      if (due.length === 0) return;
      if (!(await lease.hold(ctx))) return;
      lastUse = Date.now();
      const facts = await (await nlp()).call(due.map((e) => ({ value: e.value, tags: e.tags })));
      if (signal.aborted) return;
      await recordFacts(ctx.db, due.map((e, i) => ({ entryId: e.id, version: e.version, facts: facts[i] })), ctx.clock.now());
      if (due.length < BATCH) return;
      await whenQuiet(began, signal);
    }
  };
  return tickerWorker('memory-facts', 5000, work, true, async () => {
    await lease.release();
    if (idle) clearTimeout(idle);
    await release();
  });
}

function embeddingsWorker(): Worker {
  const lease = sharedLease('memory-embeddings');
  const embedDue = async (ctx: WorkerContext, signal: AbortSignal): Promise<void> => {
    const cfg = ctx.config.embeddings;
    if (!cfg) return;
    while (!signal.aborted && !lease.waiting(ctx)) {
      const due = await entriesDueForEmbedding(ctx.db, 32);
      if (due.length === 0) return;
      if (!(await lease.hold(ctx))) return;
      const vectors = await embed(cfg, due.map((d) => `${d.key}\n${d.text}`.slice(0, 8000)));
      for (let i = 0; i < due.length; i++) await storeEmbedding(ctx.db, due[i].id, due[i].version, cfg.model, Float32Array.from(vectors[i]));
      if (due.length < 32) return;
    }
  };
  return tickerWorker('memory-embeddings', 10_000, embedDue, true, () => lease.release());
}

/**
 * The lease of a worker whose due work is read from the shared rows, so that of several instances on one database
 * one at a time takes it (two would pick the same entries: facts extracted and written twice, texts sent to the
 * embeddings API twice). Taken when work is due, renewed while there is work, left to run out when there is none
 * (giving it up after every round cost two writes a round on a lone gateway), given up when the worker stops.
 */
function sharedLease(name: string) {
  let held: { lease: WorkerLease; db: WorkerContext['db'] } | null = null;
  return {
    /** Another instance holds it: this one need not even look for work yet. */
    waiting: (ctx: WorkerContext): boolean => held !== null && held.lease.waiting(ctx.clock.now()),
    hold(ctx: WorkerContext): Promise<boolean> {
      held ??= { lease: new WorkerLease(name, ctx.services.scheduler.owner), db: ctx.db };
      return held.lease.hold(held.db, ctx.clock.now());
    },
    /** Never fails: a lease not given back runs out by itself. */
    async release(): Promise<void> {
      await held?.lease.release(held.db).catch(() => undefined);
    },
  };
}

/** `afterStop`: what the worker lets go of once its last tick has ended. */
function tickerWorker(
  name: string,
  intervalMs: number,
  work: (ctx: WorkerContext, signal: AbortSignal) => Promise<unknown>,
  kickOnWrite: boolean,
  afterStop?: () => Promise<void>,
): Worker {
  let ticker: Ticker | null = null;
  return {
    name,
    start(ctx) {
      ticker = new Ticker(async (signal) => void (await work(ctx, signal)), intervalMs, (err) => ctx.log.warn({ err, worker: name }, 'memory worker failed'));
      ticker.start();
      if (kickOnWrite) ctx.services.bus.on('memory:changed', () => ticker?.kick());
      ticker.kick();
    },
    async stop() {
      await ticker?.stop();
      await afterStop?.();
    },
  };
}

/** Fresh workers for one gateway. `idle` lets tests wait until extraction has caught up. */
export function createMemoryWorkers(): Worker[] {
  return [
    factsWorker(),
    embeddingsWorker(),
    tickerWorker('memory-expiry', 60_000, sweepExpired, false),
  ];
}
