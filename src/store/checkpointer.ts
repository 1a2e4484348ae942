// Moves WAL checkpoints off the event loop: the writer stops checkpointing itself while a checkpoint thread
// (checkpoint-thread.ts) does it; if that thread dies, the writer takes the job back.
import { siblingModule, ThreadClient } from '../threads.js';
import type { Connection } from './sqlite-connection.js';

const THREAD = siblingModule(import.meta.url, 'checkpoint-thread');
/** SQLite's default: checkpoint in the committing connection once the WAL holds this many pages. */
const AUTOCHECKPOINT_PAGES = 1000;

export class Checkpointer {
  private constructor(private readonly thread: ThreadClient<null, null>) {}

  static async start(file: string, writer: Connection): Promise<Checkpointer> {
    const thread = await ThreadClient.start<null, null>(THREAD, { file });
    writer.raw.pragma('wal_autocheckpoint=0');
    thread.onFailure(() => {
      if (writer.raw.open) writer.raw.pragma(`wal_autocheckpoint=${AUTOCHECKPOINT_PAGES}`);
    });
    return new Checkpointer(thread);
  }

  stop(): Promise<void> {
    return this.thread.stop();
  }
}
