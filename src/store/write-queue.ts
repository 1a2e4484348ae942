// The single writer's queue. Work runs one item at a time on the write connection. Single statements that
// pile up while the writer is busy are run back to back inside one BEGIN … COMMIT (group commit): each
// statement is still atomic on its own (a failing one is undone by SQLite and rejected alone), and every
// caller hears back only after the commit. A statement issued from inside running work joins it instead of
// queueing behind it (which would deadlock); an AsyncLocalStorage token marks that work and is closed when it
// ends, so timers it scheduled do not count as inside later.
import { AsyncLocalStorage } from 'node:async_hooks';

type Runner = (sql: string) => Promise<unknown>;

interface Item {
  kind: 'statement' | 'exclusive';
  fn: () => Promise<unknown>;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

/** Most statements one group commit takes. */
const GROUP_MAX = 128;

export class WriteQueue {
  private readonly items: Item[] = [];
  private draining = false;
  private readonly inside = new AsyncLocalStorage<{ open: boolean }>();

  constructor(private readonly run: Runner) {}

  isInside(): boolean {
    return this.inside.getStore()?.open === true;
  }

  detach<T>(fn: () => T): T {
    return this.inside.exit(fn);
  }

  /** One statement: may share a commit with others. */
  statement<T>(fn: () => Promise<T>): Promise<T> {
    return this.push('statement', fn);
  }

  /** Work that must run alone (a transaction with its own BEGIN, exec, close). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.push('exclusive', fn);
  }

  private push<T>(kind: Item['kind'], fn: () => Promise<T>): Promise<T> {
    if (this.isInside()) return fn();
    return new Promise<T>((resolve, reject) => {
      this.items.push({ kind, fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async within<T>(fn: () => Promise<T>): Promise<T> {
    const token = { open: true };
    try {
      return await this.inside.run(token, fn);
    } finally {
      token.open = false;
    }
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.items.length) {
        const first = this.items[0];
        let n = 0;
        while (n < this.items.length && n < GROUP_MAX && this.items[n].kind === 'statement') n++;
        if (first.kind === 'exclusive' || n === 1) {
          this.items.shift();
          await this.within(first.fn).then(first.resolve, first.reject);
        } else {
          await this.group(this.items.splice(0, n));
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private async group(batch: Item[]): Promise<void> {
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      await this.run('BEGIN IMMEDIATE');
    } catch (err) {
      for (const item of batch) item.reject(err);
      return;
    }
    for (const item of batch) {
      try {
        outcomes.push({ ok: true, value: await this.within(item.fn) });
      } catch (err) {
        outcomes.push({ ok: false, value: err });
      }
    }
    try {
      await this.run('COMMIT');
    } catch (err) {
      await this.run('ROLLBACK').catch(() => undefined);
      for (const item of batch) item.reject(err);
      return;
    }
    batch.forEach((item, i) => (outcomes[i].ok ? item.resolve(outcomes[i].value) : item.reject(outcomes[i].value)));
  }
}
