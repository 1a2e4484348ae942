// An AsyncLocalStorage that costs nothing while none of its runs is in progress. Where AsyncLocalStorage is built
// on async hooks (Node 20 and 22), as long as any storage is enabled every promise the process creates goes
// through them: about 7% of a busy event loop. The gateway needs its storages only around rare work (a
// transaction, a settlement), so there each one switches off again when its last run ends. Node 24 builds
// AsyncLocalStorage on AsyncContextFrame, which costs nothing while unused and has no switch: disable() there
// would only clear the store of the frame it is called in, so it is not called. Code outside a run sees no
// store either way.
import { AsyncLocalStorage } from 'node:async_hooks';

/** True where AsyncLocalStorage runs on async hooks (it has their `enabled` flag), false on AsyncContextFrame. */
export const storageUsesAsyncHooks = 'enabled' in new AsyncLocalStorage();

export class ScopedStorage<T> {
  private readonly als = new AsyncLocalStorage<T>();
  private running = 0;

  getStore(): T | undefined {
    return this.running > 0 ? this.als.getStore() : undefined;
  }

  /** True while Node tracks async work for this storage: during a run, and never on AsyncContextFrame. */
  get tracking(): boolean {
    return storageUsesAsyncHooks && (this.als as unknown as { enabled: boolean }).enabled;
  }

  /** Runs `fn` (and the async work it starts) with `store`. */
  async run<R>(store: T, fn: () => Promise<R>): Promise<R> {
    this.running++;
    try {
      return await this.als.run(store, fn);
    } finally {
      // Work a run left behind (a timer) may still carry its store; it is read again only during a later run.
      if (--this.running === 0 && storageUsesAsyncHooks) this.als.disable();
    }
  }

  /** Runs `fn` with no store. */
  exit<R>(fn: () => R): R {
    return this.running > 0 ? this.als.exit(fn) : fn();
  }
}
