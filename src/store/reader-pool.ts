// The main side of the reader threads (reader-thread.ts): a heavy read goes to the thread with the fewest
// reads in flight.
import type { SqliteTuning } from './sqlite-tuning.js';
import type { Params } from './db.js';
import { siblingModule, ThreadClient } from '../threads.js';
import { withBuffers } from './thread-values.js';

const THREAD = siblingModule(import.meta.url, 'reader-thread');

/** A read as it travels: the SQL's number, its text the first time that thread sees it, the parameters. */
export type ReaderCall = [sid: number, sql: string | undefined, params: Params | undefined];
type Reader = { thread: ThreadClient<ReaderCall, unknown[]>; inFlight: number; known: Set<number> };

/** Distinct SQL texts given a number; beyond it (generated SQL), texts travel whole every time (number 0). */
const SQL_IDS_MAX = 5000;

export class ReaderPool {
  /** Search statements run to kilobytes; a text goes to a thread once and is a number after that. */
  private readonly sids = new Map<string, number>();

  private constructor(private readonly readers: Reader[]) {}

  static async start(file: string, threads: number, tuning?: SqliteTuning): Promise<ReaderPool> {
    const started = await Promise.all(Array.from({ length: threads }, () => ThreadClient.start<ReaderCall, unknown[]>(THREAD, { file, tuning })));
    return new ReaderPool(started.map((thread) => ({ thread, inFlight: 0, known: new Set() })));
  }

  /** False once a thread has failed: reads then stay on the caller's thread. */
  get usable(): boolean {
    return this.readers.every((r) => r.thread.alive);
  }

  async all<T>(sql: string, params?: Params): Promise<T[]> {
    let r = this.readers[0];
    for (const x of this.readers) if (x.inFlight < r.inFlight) r = x;
    let sid = this.sids.get(sql) ?? 0;
    if (!sid && this.sids.size < SQL_IDS_MAX) this.sids.set(sql, (sid = this.sids.size + 1));
    // The text goes with the first call of its number to this thread (calls to a thread arrive in order).
    const text = sid && r.known.has(sid) ? undefined : sql;
    if (sid) r.known.add(sid);
    r.inFlight++;
    try {
      return withBuffers(await r.thread.call([sid, text, params])) as T[];
    } finally {
      r.inFlight--;
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.readers.map((r) => r.thread.stop()));
  }
}
