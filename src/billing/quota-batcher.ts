// Group commit for the hottest write of the gateway: concurrent one-unit quota charges of the same key and
// month are added up and written in one conditional upsert. When the sum does not fit (the quota is nearly
// spent), they are written one by one instead, so exactly as many calls pass as there are units left.
import type { Db } from '../store/db.js';
import * as store from '../store/keys.js';

interface Waiter {
  resolve(used: number | null): void;
  reject(err: unknown): void;
}

interface Batch {
  keyId: string;
  period: string;
  limit: number;
  waiters: Waiter[];
}

export class QuotaBatcher {
  private readonly open = new Map<string, Batch>();

  constructor(private readonly db: Db) {}

  /** Resolves with the counter after this unit, or null when the limit refuses it. */
  consumeOne(keyId: string, period: string, limit: number): Promise<number | null> {
    const id = `${keyId}|${period}`;
    let batch = this.open.get(id);
    if (!batch) {
      const fresh: Batch = { keyId, period, limit, waiters: [] };
      this.open.set(id, fresh);
      // Everything that arrives in this turn of the event loop joins the batch.
      setImmediate(() => {
        this.open.delete(id);
        void this.flush(fresh);
      });
      batch = fresh;
    }
    return new Promise((resolve, reject) => batch.waiters.push({ resolve, reject }));
  }

  private async flush(b: Batch): Promise<void> {
    const n = b.waiters.length;
    try {
      const used = await store.consume(this.db, b.keyId, b.period, '*', n, b.limit);
      if (used !== null) {
        b.waiters.forEach((w, i) => w.resolve(used - n + i + 1));
        return;
      }
      if (n === 1) return b.waiters[0].resolve(null);
      for (const w of b.waiters) w.resolve(await store.consume(this.db, b.keyId, b.period, '*', 1, b.limit));
    } catch (err) {
      for (const w of b.waiters) w.reject(err);
    }
  }
}
