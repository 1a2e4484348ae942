// Read counts for "most used" on the context card, kept in memory per gateway (a read must not become a
// write); they reset on restart, which only makes the card a little less informed. Counts of at most
// GATEWAY_MEMORY_READ_COUNTS entries are kept; past it they all start over, as after a restart.
import type { ToolContext } from '../../src/registry/types.js';

const counts = new WeakMap<object, Map<number, number>>();

export function noteRead(ctx: ToolContext, entryId: number): void {
  let m = counts.get(ctx.db);
  if (!m) counts.set(ctx.db, (m = new Map()));
  const max = ctx.config.caches.memoryReadCounts;
  if (!m.has(entryId) && m.size >= max) m.clear();
  if (max > 0) m.set(entryId, (m.get(entryId) ?? 0) + 1);
}

export function readCounts(ctx: { db: object }): Map<number, number> {
  return counts.get(ctx.db) ?? new Map();
}
