// The helper threads of a long-running gateway: the checkpoint thread, started a moment after start-up (a
// short-lived gateway, such as a test's, never needs it: until then the writer checkpoints itself), and the
// reader threads, started by the first heavy read (which runs on the caller's thread while they start).
import type { SqliteTuning } from './sqlite-tuning.js';
import { Checkpointer } from './checkpointer.js';
import { ReaderPool } from './reader-pool.js';

export interface HelperOptions {
  readerThreads: number;
  /** The connections' bounds (GATEWAY_SQLITE_*); the defaults when absent. */
  tuning?: SqliteTuning;
  /** Tests: start the checkpoint thread sooner, restart the WAL at fewer frames. */
  checkpointAfterMs?: number;
  restartFrames?: number;
}

export class HelperThreads {
  private checkpointer: Promise<Checkpointer | null> | null = null;
  private pool: Promise<ReaderPool | null> | null = null;
  private readers: ReaderPool | null = null;
  private readonly timer: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly file: string,
    /** Sets the writer's wal_autocheckpoint (pages). */
    setAuto: (pages: number) => Promise<unknown>,
    private readonly opts: HelperOptions,
  ) {
    this.timer = setTimeout(() => {
      this.checkpointer = Checkpointer.start(file, setAuto, opts.restartFrames, opts.tuning).catch(() => null);
    }, opts.checkpointAfterMs ?? 2000);
    this.timer.unref();
  }

  /** The reader threads when they are up; null before (the first call starts them) or when there are none. */
  heavyReaders(): ReaderPool | null {
    if (this.readers?.usable) return this.readers;
    if (!this.pool && !this.stopped && this.opts.readerThreads > 0) {
      this.pool = ReaderPool.start(this.file, this.opts.readerThreads, this.opts.tuning).then(
        (p) => (this.readers = p),
        () => null,
      );
    }
    return null;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await (await this.checkpointer)?.stop();
    await (await this.pool)?.stop();
  }
}
