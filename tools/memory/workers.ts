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
  const work = async (ctx: WorkerContext, signal: AbortSignal, lease: Lease): Promise<void> => {
    busy = true;
    try {
      await extract(ctx, signal, lease);
    } finally {
      busy = false;
      watchIdle();
    }
  };
  const extract = async (ctx: WorkerContext, signal: AbortSignal, lease: Lease): Promise<void> => {
    while (!signal.aborted && !lease.waiting()) {
      const began = eventLoopGauge.mark();
      const due = await entriesDueForFacts(ctx.db, BATCH);
      if (due.length === 0) return;
      if (!(await lease.hold())) return;
      lastUse = Date.now();
      const facts = await (await nlp()).call(due.map((e) => ({ value: e.value, tags: e.tags })));
      if (signal.aborted) return;
      await recordFacts(ctx.db, due.map((e, i) => ({ entryId: e.id, version: e.version, facts: facts[i] })), ctx.clock.now());
      if (due.length < BATCH) return;
      await whenQuiet(began, signal);
    }
  };
  return tickerWorker('memory-facts', 5000, work, {
    kickOnWrite: true,
    shared: true,
    afterStop: async () => {
      if (idle) clearTimeout(idle);
      await release();
    },
  });
}

async function embedDue(ctx: WorkerContext, signal: AbortSignal, lease: Lease): Promise<void> {
  const cfg = ctx.config.embeddings;
  if (!cfg) return;
  while (!signal.aborted && !lease.waiting()) {
    const due = await entriesDueForEmbedding(ctx.db, 32);
    if (due.length === 0) return;
    if (!(await lease.hold())) return;
    const vectors = await embed(cfg, due.map((d) => `${d.key}\n${d.text}`.slice(0, 8000)));
    for (let i = 0; i < due.length; i++) await storeEmbedding(ctx.db, due[i].id, due[i].version, cfg.model, Float32Array.from(vectors[i]));
    if (due.length < 32) return;
  }
}

/** A worker's lease (WorkerLease) bound to its gateway's database, clock and instance name. */
interface Lease {
  /** Another instance holds it: this one need not even look for work yet. */
  waiting(): boolean;
  /** Whether this instance may work now (taking or renewing the lease). */
  hold(): Promise<boolean>;
}
const UNSHARED: Lease = { waiting: () => false, hold: async () => true };

interface TickerOptions {
  /** Ticks on every memory write as well as on the interval. */
  kickOnWrite: boolean;
  /**
   * Its due work is read from the shared rows, so of several instances on one database one at a time works, under
   * a lease named after the worker (two would pick the same entries: facts extracted and written twice, texts sent
   * to the embeddings API twice). The lease is taken when work is due, renewed while there is work, left to run out
   * when there is none (giving it up after every round cost a lone gateway two writes a round), and given up when
   * the worker stops.
   */
  shared?: boolean;
  /** What the worker lets go of once its last tick has ended. */
  afterStop?: () => Promise<void>;
}

function tickerWorker(name: string, intervalMs: number, work: (ctx: WorkerContext, signal: AbortSignal, lease: Lease) => Promise<unknown>, opts: TickerOptions): Worker {
  let ticker: Ticker | null = null;
  let giveUp = async (): Promise<void> => undefined;
  return {
    name,
    start(ctx) {
      let lease = UNSHARED;
      if (opts.shared) {
        const shared = new WorkerLease(name, ctx.services.scheduler.owner);
        lease = { waiting: () => shared.waiting(ctx.clock.now()), hold: () => shared.hold(ctx.db, ctx.clock.now()) };
        // Never fails: a lease not given back runs out by itself.
        giveUp = () => shared.release(ctx.db).catch(() => undefined);
      }
      ticker = new Ticker(async (signal) => void (await work(ctx, signal, lease)), intervalMs, (err) => ctx.log.warn({ err, worker: name }, 'memory worker failed'));
      ticker.start();
      if (opts.kickOnWrite) ctx.services.bus.on('memory:changed', () => ticker?.kick());
      ticker.kick();
    },
    async stop() {
      await ticker?.stop();
      await giveUp();
      await opts.afterStop?.();
    },
  };
}

/** Fresh workers for one gateway. `idle` lets tests wait until extraction has caught up. */
export function createMemoryWorkers(): Worker[] {
  return [
    factsWorker(),
    tickerWorker('memory-embeddings', 10_000, embedDue, { kickOnWrite: true, shared: true }),
    tickerWorker('memory-expiry', 60_000, sweepExpired, { kickOnWrite: false }),
  ];
}
