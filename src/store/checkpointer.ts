// WAL checkpoints off the writer: it stops checkpointing inside its commits while a checkpoint thread
// (checkpoint-thread.ts) does it; if that thread dies, the writer goes back to SQLite's default.
import type { SqliteTuning } from './sqlite-tuning.js';
import { siblingModule, ThreadClient } from '../threads.js';

const THREAD = siblingModule(import.meta.url, 'checkpoint-thread');
/** SQLite's default: the committing connection checkpoints once the WAL holds this many pages. */
const DEFAULT_PAGES = 1000;

export class Checkpointer {
  private constructor(private readonly thread: ThreadClient<null, null>) {}

  /** `setAuto` sets the writer's wal_autocheckpoint (pages); `restartFrames` overrides the thread's default. */
  static async start(file: string, setAuto: (pages: number) => Promise<unknown>, restartFrames?: number, tuning?: SqliteTuning): Promise<Checkpointer> {
    const thread = await ThreadClient.start<null, null>(THREAD, { file, restartFrames, tuning });
    await setAuto(0);
    thread.onFailure(() => void setAuto(DEFAULT_PAGES));
    return new Checkpointer(thread);
  }

  stop(): Promise<void> {
    return this.thread.stop();
  }
}
