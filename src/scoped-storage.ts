// An AsyncLocalStorage that is switched on only while one of its runs is in progress. On Node 20, as long as
// any AsyncLocalStorage is enabled, every promise the process creates goes through async hooks: about 7% of a
// busy event loop. The gateway needs its storages only around rare work (a transaction, a settlement), so
// each one switches off again when its last run ends; code outside a run sees no store either way.
import { AsyncLocalStorage } from 'node:async_hooks';

export class ScopedStorage<T> {
  private readonly als = new AsyncLocalStorage<T>();
  private running = 0;

  getStore(): T | undefined {
    return this.running > 0 ? this.als.getStore() : undefined;
  }

  /** Runs `fn` (and the async work it starts) with `store`. */
  async run<R>(store: T, fn: () => Promise<R>): Promise<R> {
    this.running++;
    try {
      return await this.als.run(store, fn);
    } finally {
      // Work a run left behind (a timer) may still carry its store; it is read again only during a later run.
      if (--this.running === 0) this.als.disable();
    }
  }

  /** Runs `fn` with no store. */
  exit<R>(fn: () => R): R {
    return this.running > 0 ? this.als.exit(fn) : fn();
  }
}
