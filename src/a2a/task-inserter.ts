// New tasks are written in groups: rows that arrive while one insert is in flight go together in the next
// statement (one commit), so many concurrent messages cost a few writes instead of one each. An idle
// gateway writes a lone row at once: no added latency. Each caller still waits for its own row's commit.
import * as store from '../store/a2a-tasks.js';
import type { Db } from '../store/db.js';

type Row = store.TaskWrite & { created_at: number };

const MAX_ROWS = 100;

export class TaskInserter {
  private pending: { row: Row; done: (err?: unknown) => void }[] = [];
  private running = false;

  constructor(private readonly db: Db) {}

  insert(row: Row): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ row, done: (err) => (err ? reject(err) : resolve()) });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.pending.length) {
      const batch = this.pending.splice(0, MAX_ROWS);
      try {
        await store.insertTasks(this.db, batch.map((b) => b.row));
        for (const b of batch) b.done();
      } catch {
        // One bad row must not fail the others: write them one by one to find it.
        for (const b of batch) await store.insertTasks(this.db, [b.row]).then(() => b.done(), (err: unknown) => b.done(err));
      }
    }
    this.running = false;
  }
}
