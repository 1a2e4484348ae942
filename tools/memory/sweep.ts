// Removes expired entries, leaving "expire" tombstones in the change feed. Runs on a timer and before reads
// that must reflect expiries at once (the change feed).
import type { WorkerContext } from '../../src/workers.js';
import { expiredIds, removeEntries } from './store/entries.js';

const BATCH = 500;

export async function sweepExpired(ctx: WorkerContext): Promise<number> {
  let total = 0;
  for (;;) {
    const now = ctx.clock.now();
    const ids = await expiredIds(ctx.db, now, BATCH);
    if (ids.length === 0) break;
    total += await ctx.db.transaction((tx) => removeEntries(tx, ctx.db.dialect, ids, 'expire', now));
    if (ids.length < BATCH) break;
  }
  if (total > 0) ctx.services.bus.emit('memory:changed', { ownerId: null });
  return total;
}
