// Which async work is inside the open transaction. A statement issued through the Db from inside a
// transaction joins it instead of queueing behind it (which would deadlock); an async-local token marks that
// work and is closed when it ends, so timers it scheduled do not count as inside later.
import { ScopedStorage } from '../scoped-storage.js';

export class TxScope {
  private readonly inside = new ScopedStorage<{ open: boolean }>();

  isInside(): boolean {
    return this.inside.getStore()?.open === true;
  }

  /** Runs `fn` outside any transaction (work that merely starts from inside one). */
  detach<T>(fn: () => T): T {
    return this.inside.exit(fn);
  }

  async within<T>(fn: () => Promise<T>): Promise<T> {
    const token = { open: true };
    try {
      return await this.inside.run(token, fn);
    } finally {
      token.open = false;
    }
  }
}
