// One durable mechanism for all timed work (docs/architecture.md, "Background and durable work"). Items are rows with a due time; a tick claims due
// ones under a lease and runs each in a free lane (a concurrency cap). node-cron ticks every second; enqueueing work
// that is already due kicks a tick at once, and work due before the next tick (enqueued here, or found when a drain
// ends) gets a timer for its due time, so a timer fires when due rather than up to a second late. The clock is the
// gateway's, so tests jump days ahead instantly.
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type cron from 'node-cron';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { BatchStatement, Db, Queryable } from '../store/db.js';
import * as store from '../store/work-items.js';
import { tracing } from '../tracing/state.js';

/**
 * What a work item asks for when it ran: nothing more (done), or to run again at `next`. `held`: it did not run
 * (its owner is suspended), so the attempts it has used are kept for when it does.
 */
export type WorkOutcome = void | { next: number; held?: boolean };

/**
 * What the scheduler itself uses of the context it runs work with. Work kinds get the whole context `C` (the
 * gateway's WorkerContext): the scheduler is generic in it, so it needs nothing from the registry that names it.
 */
export interface SchedulerContext {
  db: Db;
  clock: Clock;
  log: Logger;
}

export interface WorkKind<C extends SchedulerContext> {
  kind: string;
  /** How long one run may hold its lease before another process may take the item over. */
  leaseMs: number;
  /** Attempts before giving up (a thrown error counts as a failed attempt). */
  maxAttempts: number;
  /**
   * At most this many of the kind run at once in this process: work that waits on someone else's server (a webhook
   * whose target hangs for its whole timeout) then holds a share of the lanes, never all of them.
   */
  lanes?: number;
  run(ref: string, ctx: C, attempt: number): Promise<WorkOutcome>;
  /** Called once when the item fails its last attempt. */
  giveUp?(ref: string, error: string, ctx: C): Promise<void>;
}

export interface SchedulerOptions {
  concurrency?: number;
  batch?: number;
  /** Cron expression of the tick (default: every second). */
  tick?: string;
}

/** The default tick's period: a due time further away is left to a tick. */
const TICK_MS = 1000;

/** Exponential backoff with full jitter: 1 s, 2 s, 4 s … capped at 10 minutes. */
export const backoffMs = (attempt: number, random = Math.random): number => Math.floor(random() * Math.min(600_000, 1000 * 2 ** attempt)) + 250;

export class Scheduler<C extends SchedulerContext> {
  readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly kinds = new Map<string, WorkKind<C>>();
  private task: ReturnType<typeof cron.schedule> | null = null;
  private running: Promise<number> | null = null;
  private again = false;
  /** Wakes a drain that waits for a lane (set while it waits). */
  private wake: (() => void) | null = null;
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** Items of each kind with a lane cap running now. */
  private readonly runningOf = new Map<string, number>();
  /** A wake-up at a due time before the next tick, that time, and the last time one fired for. */
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private firedFor = -Infinity;

  constructor(
    private readonly ctx: C,
    private readonly opts: SchedulerOptions = {},
  ) {}

  register(kind: WorkKind<C>): void {
    this.kinds.set(kind.kind, kind);
  }

  /** Schedules work (in the caller's transaction when given one); due work starts on the next tick. */
  async enqueue(kind: string, ref: string, dueAt: number, q: Queryable = this.ctx.db): Promise<void> {
    if (!this.kinds.has(kind)) throw new Error(`unknown work kind ${kind}`);
    await store.enqueue(q, kind, ref, dueAt, this.ctx.clock.now());
    // Its run will link back to the span enqueuing it, when it runs in this process (docs/decisions/tracing.md).
    tracing?.noteWork(kind, ref);
    // Often called inside a transaction: the kick must start outside it, after it commits.
    if (dueAt <= this.ctx.clock.now()) this.ctx.db.detach(() => setImmediate(() => this.kick()));
    else this.wakeAt(dueAt);
  }

  /**
   * The enqueue as a statement for the caller's own batch (one round trip with the change that makes the work);
   * call `committed` once the batch has committed, so due work starts at once.
   */
  enqueueStatement(kind: string, ref: string, dueAt: number): { statement: BatchStatement; committed(): void } {
    if (!this.kinds.has(kind)) throw new Error(`unknown work kind ${kind}`);
    tracing?.noteWork(kind, ref);
    return {
      statement: store.enqueueStatement(kind, ref, dueAt, this.ctx.clock.now()),
      committed: () => {
        if (dueAt <= this.ctx.clock.now()) setImmediate(() => this.kick());
        else this.wakeAt(dueAt);
      },
    };
  }

  cancel(kind: string, ref: string, q: Queryable = this.ctx.db): Promise<unknown> {
    return store.cancel(q, kind, ref);
  }

  /**
   * Drains what is due now, then ticks. node-cron (70 KB) is loaded here rather than with the gateway's modules:
   * the first tick is due a second later, long after it has loaded (docs/decisions/startup.md).
   */
  start(): void {
    void import('node-cron').then(
      ({ default: nodeCron }) => {
        if (!this.stopped) this.task = nodeCron.schedule(this.opts.tick ?? '* * * * * *', () => this.kick(), { noOverlap: true });
      },
      (err: unknown) => this.ctx.log.error({ err }, 'the scheduler tick could not start'),
    );
    this.kick();
  }

  /** Starts a drain unless one runs; a kick during a drain wakes it to claim what became due. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      this.wake?.();
      return;
    }
    // A drain that fails (the database went away) is logged, not left as an unhandled rejection.
    this.running = this.drain().catch((err: unknown) => {
      if (!this.stopped) this.ctx.log.error({ err }, 'scheduler: a drain failed');
      return 0;
    }).finally(() => {
      this.running = null;
      this.wakeForNext().catch((err: unknown) => {
        if (!this.stopped) this.ctx.log.warn({ err }, 'scheduler: reading the next due time failed');
      });
    });
  }

  /**
   * Kicks at `dueAt` when it comes before the next tick (with the default tick): a delay job of 1.5 s runs at 1.5 s,
   * not at the first tick after it. Only the earliest such time is kept; a later one waits for the tick.
   */
  private wakeAt(dueAt: number): void {
    const delay = dueAt - this.ctx.clock.now();
    // A time already woken for is past on a real clock; on a clock that stands still (tests) it stays ahead, and
    // waking for it again would spin: the tick takes it.
    if (this.stopped || this.opts.tick !== undefined || delay <= 0 || delay > TICK_MS || dueAt >= this.timerAt || dueAt <= this.firedFor) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = dueAt;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Infinity;
      this.firedFor = dueAt;
      this.kick();
    }, delay + 1).unref(); // + 1: libuv's timer clock may run a little behind Date.now()
  }

  /** After a drain: the next unleased item (another instance's too) falls due before the next tick? Wake for it. */
  private async wakeForNext(): Promise<void> {
    if (this.stopped || this.opts.tick !== undefined) return;
    const now = this.ctx.clock.now();
    const next = await store.nextDue(this.ctx.db, now, now + TICK_MS);
    if (next !== null) this.wakeAt(next);
  }

  /** Runs everything due now, and what falls due meanwhile, to the end; resolves with how many items ran. */
  async runDue(): Promise<number> {
    while (this.running) await this.running;
    this.running = this.drain();
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  /**
   * Claims due items into free lanes and starts each at once; while items run it waits for a lane to free or a
   * kick, then claims again. A long item (a research job) holds one lane, never the items behind it.
   */
  private async drain(): Promise<number> {
    const lanes = this.opts.concurrency ?? 16;
    let started = 0;
    while (!this.stopped) {
      this.again = false;
      const free = lanes - this.inFlight.size;
      const items = free > 0 ? await this.claim(Math.min(free, this.opts.batch ?? 200)) : [];
      if (this.stopped) break; // claimed as the scheduler stopped: stop() gives the leases back
      for (const item of items) void this.runOne(item);
      started += items.length;
      // Something was due, or was kicked meanwhile: look again (with no lane free, that finds nothing and waits).
      if (items.length > 0 || this.again) continue;
      if (this.inFlight.size === 0) break;
      await Promise.race([...this.inFlight, new Promise<void>((resolve) => (this.wake = resolve))]);
      this.wake = null;
    }
    return started;
  }

  /**
   * Due items, at most `limit`: first of the kinds without a lane cap, then of each capped kind at most its free
   * lanes, so nothing claimed has to be given back.
   */
  private async claim(limit: number): Promise<store.WorkItem[]> {
    const now = this.ctx.clock.now();
    const maxLease = Math.max(...[...this.kinds.values()].map((k) => k.leaseMs), 1000);
    const take = (kinds: string[], n: number) => store.claimDue(this.ctx.db, { owner: this.owner, now, leaseUntil: now + maxLease, limit: n, kinds });
    const all = [...this.kinds.values()];
    const free = all.filter((k) => k.lanes === undefined).map((k) => k.kind);
    const items = free.length > 0 ? await take(free, limit) : [];
    for (const k of all) {
      const room = Math.min(limit - items.length, (k.lanes ?? 0) - (this.runningOf.get(k.kind) ?? 0));
      if (k.lanes !== undefined && room > 0) items.push(...(await take([k.kind], room)));
    }
    return items;
  }

  private runOne(item: store.WorkItem): Promise<void> {
    const capped = this.kinds.get(item.kind)?.lanes !== undefined;
    if (capped) this.runningOf.set(item.kind, (this.runningOf.get(item.kind) ?? 0) + 1);
    const p = this.execute(item).catch((err) => this.ctx.log.error({ err, kind: item.kind }, 'scheduler bookkeeping failed'));
    this.inFlight.add(p);
    return p.finally(() => {
      this.inFlight.delete(p);
      if (capped) this.runningOf.set(item.kind, this.runningOf.get(item.kind)! - 1);
    });
  }

  private async execute(item: store.WorkItem): Promise<void> {
    const kind = this.kinds.get(item.kind)!;
    const attempt = item.attempts + 1;
    try {
      const t = tracing;
      const out = t === null ? await kind.run(item.ref, this.ctx, attempt) : await t.workRun(item.kind, item.ref, attempt, () => kind.run(item.ref, this.ctx, attempt));
      if (out && typeof out.next === 'number') await store.reschedule(this.ctx.db, item.id, this.owner, out.next, null, out.held ? item.attempts : 0);
      else await store.finish(this.ctx.db, item.id, this.owner);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (attempt >= kind.maxAttempts) {
        await kind.giveUp?.(item.ref, message, this.ctx).catch((e) => this.ctx.log.error({ err: e, kind: item.kind }, 'giveUp failed'));
        await store.finish(this.ctx.db, item.id, this.owner);
      } else {
        await store.reschedule(this.ctx.db, item.id, this.owner, this.ctx.clock.now() + backoffMs(attempt), message.slice(0, 500), attempt);
      }
    }
  }

  /** Stops ticking, lets running work finish (up to `graceMs`), then gives back any lease still held. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopped = true;
    this.task?.stop();
    if (this.timer) clearTimeout(this.timer);
    this.wake?.();
    // The drain too: a claim it has under way would otherwise meet a closed database, and its leases stay held.
    const running = this.running ? [this.running.catch(() => 0)] : [];
    await Promise.race([Promise.allSettled([...running, ...this.inFlight]), new Promise((r) => setTimeout(r, graceMs).unref())]);
    await store.releaseAll(this.ctx.db, this.owner);
  }
}
