// The main side of the reader threads (reader-thread.ts): a heavy read goes to the thread with the fewest
// reads in flight.
import type { SqliteTuning } from './sqlite-tuning.js';
import type { Params } from './db.js';
import { siblingModule, ThreadClient } from '../threads.js';
import { withBuffers } from './thread-values.js';

const THREAD = siblingModule(import.meta.url, 'reader-thread');

type Reader = { thread: ThreadClient<[string, Params | undefined], unknown[]>; inFlight: number };

export class ReaderPool {
  private constructor(private readonly readers: Reader[]) {}

  static async start(file: string, threads: number, tuning?: SqliteTuning): Promise<ReaderPool> {
    const started = await Promise.all(Array.from({ length: threads }, () => ThreadClient.start<[string, Params | undefined], unknown[]>(THREAD, { file, tuning })));
    return new ReaderPool(started.map((thread) => ({ thread, inFlight: 0 })));
  }

  /** False once a thread has failed: reads then stay on the caller's thread. */
  get usable(): boolean {
    return this.readers.every((r) => r.thread.alive);
  }

  async all<T>(sql: string, params?: Params): Promise<T[]> {
    let r = this.readers[0];
    for (const x of this.readers) if (x.inFlight < r.inFlight) r = x;
    r.inFlight++;
    try {
      return withBuffers(await r.thread.call([sql, params])) as T[];
    } finally {
      r.inFlight--;
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.readers.map((r) => r.thread.stop()));
  }
}
