// The single writer's queue. Work runs one item at a time on the write connection. Single statements (and
// atomic batches) issued while the event loop handles a burst of requests are run together at the end of that
// loop turn inside one BEGIN … COMMIT (group commit): each stays atomic on its own (a failing one is undone by
// SQLite and rejected alone), and every caller hears back only after the commit. A commit costs about as much
// as five of our writes, so grouping is most of the write throughput.
import type { Connection } from './sqlite-connection.js';

interface Item {
  kind: 'statement' | 'exclusive';
  fn: () => unknown;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

/** Most statements one group commit takes (a group holds the event loop while it runs). */
const GROUP_MAX = 128;

export class WriteQueue {
  private readonly items: Item[] = [];
  private draining = false;

  constructor(private readonly conn: Connection) {}

  /** One statement, run synchronously by `fn`: may share a commit with others. */
  statement<T>(fn: () => T): Promise<T> {
    return this.push('statement', fn);
  }

  /** Work that must run alone (a transaction with its own BEGIN, exec, close). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.push('exclusive', fn);
  }

  private push<T>(kind: Item['kind'], fn: () => unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.items.push({ kind, fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        // Later in this loop turn, after the other requests that arrived with this one have queued theirs.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.items.length) {
        const first = this.items[0];
        if (first.kind === 'exclusive') {
          this.items.shift();
          await (first.fn() as Promise<unknown>).then(first.resolve, first.reject);
          continue;
        }
        let n = 0;
        while (n < this.items.length && n < GROUP_MAX && this.items[n].kind === 'statement') n++;
        this.group(this.items.splice(0, n));
      }
    } finally {
      this.draining = false;
    }
  }

  private group(batch: Item[]): void {
    if (batch.length === 1) return settle(batch[0]);
    let open = 0;
    const outcomes: { ok: boolean; value: unknown }[] = [];
    for (let i = 0; i < batch.length; i++) {
      if (!this.conn.inTransaction) {
        try {
          this.conn.exec('BEGIN IMMEDIATE');
          open = i;
        } catch (err) {
          for (let j = i; j < batch.length; j++) outcomes.push({ ok: false, value: err });
          break;
        }
      }
      try {
        outcomes.push({ ok: true, value: batch[i].fn() });
      } catch (err) {
        outcomes.push({ ok: false, value: err });
        // An error that ends the whole transaction (disk full, I/O) took this group's earlier statements with
        // it; the rest go on in a new transaction.
        if (!this.conn.inTransaction) for (let j = open; j < i; j++) if (outcomes[j].ok) outcomes[j] = { ok: false, value: err };
      }
    }
    if (this.conn.inTransaction) {
      try {
        this.conn.exec('COMMIT');
      } catch (err) {
        if (this.conn.inTransaction) this.conn.exec('ROLLBACK');
        for (let j = open; j < batch.length; j++) outcomes[j] = { ok: false, value: err };
      }
    }
    batch.forEach((item, i) => (outcomes[i].ok ? item.resolve(outcomes[i].value) : item.reject(outcomes[i].value)));
  }
}

function settle(item: Item): void {
  try {
    item.resolve(item.fn());
  } catch (err) {
    item.reject(err);
  }
}
