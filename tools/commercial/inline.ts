// Orders made within their request (content generation, metered chat): the work runs here, not in the
// scheduler, and is delivered (captured) or failed (released) before the answer. The order's queued work, due
// later, is the safety net: should the process stop meanwhile, it fails the order and releases the hold.
import type { WorkerContext } from '../../src/registry/types.js';
import * as store from '../../src/store/orders.js';
import type { Produced } from './services.js';
import { deliver, failOrder } from './settle.js';

/** Marks the order working; false when it is not placed any more (canceled meanwhile). */
export const startNow = (ctx: WorkerContext, o: store.OrderRow): Promise<boolean> => store.transition(ctx.db, o.id, ['placed'], 'working', ctx.clock.now());

/** Stores what was made and delivers it (capturing its charge); the order as it ends. */
export async function deliverNow(ctx: WorkerContext, o: store.OrderRow, made: Produced): Promise<store.OrderRow> {
  await store.storeProduced(ctx.db, o.id, {
    result: JSON.stringify(made.result),
    usage: made.usage ? JSON.stringify(made.usage) : null,
    charge: Math.min(made.charge ?? o.hold_amount, o.hold_amount),
    now: ctx.clock.now(),
  });
  await deliver(ctx, (await store.orderById(ctx.db, o.id))!, false);
  await ctx.services.scheduler.cancel('order', o.id);
  return (await store.orderById(ctx.db, o.id))!;
}

/** Fails the order (released: nothing charged); the order as it ends. */
export async function failNow(ctx: WorkerContext, o: store.OrderRow, error: string): Promise<store.OrderRow> {
  await failOrder(ctx, o, error);
  await ctx.services.scheduler.cancel('order', o.id);
  return (await store.orderById(ctx.db, o.id))!;
}
