// Read counts for "most used" on the context card, kept in memory per gateway (a read must not become a
// write); they reset on restart, which only makes the card a little less informed.
import type { ToolContext } from '../../src/registry/types.js';

const counts = new WeakMap<object, Map<number, number>>();

export function noteRead(ctx: ToolContext, entryId: number): void {
  let m = counts.get(ctx.db);
  if (!m) counts.set(ctx.db, (m = new Map()));
  m.set(entryId, (m.get(entryId) ?? 0) + 1);
  if (m.size > 200_000) m.clear();
}

export function readCounts(ctx: { db: object }): Map<number, number> {
  return counts.get(ctx.db) ?? new Map();
}
