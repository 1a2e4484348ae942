// Background work that belongs to an area (fact extraction, expiry sweeps…): started with the gateway,
// stopped before the database closes.
import type { WorkerContext } from './registry/types.js';

// Defined beside the tool context it is cut from, where the services name Scheduler<WorkerContext>; the
// areas' workers import it from here.
export type { WorkerContext } from './registry/types.js';

export interface Worker {
  name: string;
  start(ctx: WorkerContext): void;
  /** Finishes or abandons work in flight; resolves when nothing more will touch the database. */
  stop(): Promise<void>;
}

/** Runs `tick` every `intervalMs` (and on demand), never two at once; errors are logged, not thrown. */
export class Ticker {
  private timer: NodeJS.Timeout | null = null;
  private later: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  /** Aborted by stop(): long ticks check it between items so shutdown never waits for a whole backlog. */
  private readonly abort = new AbortController();

  constructor(
    private readonly tick: (signal: AbortSignal) => Promise<void>,
    private readonly intervalMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), this.intervalMs);
    this.timer.unref();
  }

  /** Runs a tick soon; if one is running, runs another right after it. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.tick(this.abort.signal);
        } catch (err) {
          this.onError(err);
        }
      } while (this.again && !this.stopped);
      this.running = null;
    })();
  }

  /**
   * Runs a tick in `ms`, unless one is already set to come: kicks in between share it, so bursts of work are
   * taken together.
   */
  kickIn(ms: number): void {
    if (this.later || this.stopped) return;
    this.later = setTimeout(() => {
      this.later = null;
      this.kick();
    }, ms);
    this.later.unref();
  }

  /** Resolves when the tick in flight (if any) is done. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    if (this.timer) clearInterval(this.timer);
    if (this.later) clearTimeout(this.later);
    await this.idle();
  }
}
