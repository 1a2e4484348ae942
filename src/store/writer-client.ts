// The main thread's side of the writer thread (writer-thread.ts). Operations issued by one step of code go out
// together as soon as it yields; the writer thread takes everything that queued while it was busy as one group
// commit, so the statements of a burst of requests share one commit; replies come back in bursts too.
import type { Worker } from 'node:worker_threads';
import { PendingCalls, spawnThread, siblingModule } from '../threads.js';
import type { SqliteTuning } from './sqlite-tuning.js';
import type { Params } from './db.js';
import { withBuffers } from './thread-values.js';
import { reviveError, type Op, type Reply, type SerializedError, type Stmt } from './writer-protocol.js';

type Outgoing = Op extends infer O ? (O extends Op ? Omit<O, 'id'> : never) : never;

const THREAD = siblingModule(import.meta.url, 'writer-thread');
/** Distinct SQL texts given a number; beyond it (generated SQL), texts travel whole every time. */
const SQL_IDS_MAX = 5000;

/**
 * A writer thread started before the database's file is known: the CLI starts one before it reads the configuration,
 * so the thread boots and loads its modules (a tenth of a second, more on a busy machine) while the gateway's load;
 * `WriterClient.start` then hands it the file. It keeps no process alive while it waits.
 */
export class EarlyWriter {
  private usable = true;

  private constructor(private readonly worker: Worker) {
    // A thread that failed to boot is not used: start() starts another, whose failure is then reported.
    worker.on('error', () => (this.usable = false));
    worker.once('exit', () => (this.usable = false));
  }

  static spawn(): EarlyWriter {
    const worker = spawnThread(THREAD, null);
    worker.unref();
    return new EarlyWriter(worker);
  }

  /** The thread, once, if it is still up. */
  take(): Worker | null {
    const ok = this.usable;
    this.usable = false;
    return ok ? this.worker : null;
  }

  /** Ends a thread that will not be used (the database is PostgreSQL). */
  discard(): void {
    if (this.take()) void this.worker.terminate();
  }
}

export class WriterClient {
  private readonly calls: PendingCalls;
  private outbox: Op[] = [];
  private readonly sids = new Map<string, number>();

  private constructor(private readonly worker: Worker) {
    this.calls = new PendingCalls(worker, 'the database writer has stopped');
    worker.on('message', (replies: Reply[]) => {
      for (const [id, ok, value] of replies) this.calls.settle(id, ok, ok ? withBuffers(value) : reviveError(value as SerializedError));
    });
  }

  /**
   * Starts the thread (or takes the one started early) and opens the write connection (creating the file and
   * switching it to WAL).
   */
  static start(file: string, tuning?: SqliteTuning, early?: EarlyWriter): Promise<WriterClient> {
    const taken = early?.take();
    const worker = taken ?? spawnThread(THREAD, { file, tuning });
    if (taken) {
      taken.ref();
      taken.postMessage({ file, tuning });
    }
    return new Promise((resolve, reject) => {
      worker.once('message', (hello: { ready: true } | { failed: SerializedError }) => {
        worker.off('error', reject);
        if ('failed' in hello) {
          void worker.terminate();
          reject(reviveError(hello.failed));
        } else {
          worker.unref();
          resolve(new WriterClient(worker));
        }
      });
      worker.once('error', reject);
    });
  }

  /** A statement for an operation: its SQL as a number after the first time. */
  statement(sql: string, params: Params | undefined, rows: boolean, expectRow?: boolean): Stmt {
    const extra = expectRow ? { expectRow } : {};
    const sid = this.sids.get(sql);
    if (sid) return { sid, params, rows, ...extra };
    if (this.sids.size >= SQL_IDS_MAX) return { sid: 0, sql, params, rows, ...extra };
    const fresh = this.sids.size + 1;
    this.sids.set(sql, fresh);
    return { sid: fresh, sql, params, rows, ...extra };
  }

  /**
   * Queues an operation until the code running now yields (a microtask), so the writes of one step go out as one
   * message; `now` sends it (and everything queued before it) at once, for the steps of a transaction, which wait on
   * each other anyway. Not the end of the loop turn: the writer thread already takes every message that queued while
   * it committed as one group, and waiting for the turn's end cost each write a turn of latency (an A2A send, two
   * writes in a row, measured 12% fewer answers per second at 50 connections).
   */
  request<T>(op: Outgoing, now = false): Promise<T> {
    if (this.calls.failure) return Promise.reject(this.calls.failure);
    const { id, reply } = this.calls.open<T>();
    this.outbox.push({ ...op, id } as Op);
    if (now) this.flush();
    else if (this.outbox.length === 1) queueMicrotask(() => this.flush());
    return reply;
  }

  private flush(): void {
    if (this.outbox.length === 0) return;
    const ops = this.outbox;
    this.outbox = [];
    this.worker.postMessage(ops);
  }
}
