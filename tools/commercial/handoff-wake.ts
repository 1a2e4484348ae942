// A dev task the operator does is delivered when the operator resolves its handoff, not at the order's next look a
// minute later (issue 43). The resolution is announced on the bus of the process that resolved it (the operator's
// request, or the expiry's work); this makes the order's work due now. That work item lives in the shared
// database, so the scheduler of whichever instance claims it first delivers the order (in this process at once: an
// enqueue due now kicks its scheduler; elsewhere at the next tick, within a second). The order's own look stays the
// fallback for a resolution no listener heard (a process without the worker, a restart in between).
import type { Bus } from '../../src/bus.js';
import type { WorkerContext } from '../../src/registry/types.js';
import * as store from '../../src/store/orders.js';
import type { Worker } from '../../src/workers.js';
import { handoffById } from '../handoffs/store.js';

const following = new WeakSet<Bus>();

/** The order a dev task's handoff was parked for (dev-tasks.ts puts its id in the handoff's context). */
function orderIdOf(context: string): string | undefined {
  try {
    const id = (JSON.parse(context) as { order_id?: unknown } | null)?.order_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

async function wake(ctx: WorkerContext, handoffId: string): Promise<void> {
  const h = await handoffById(ctx.db, handoffId);
  const orderId = h ? orderIdOf(h.context) : undefined;
  if (!orderId) return;
  // Only the order that parked this very handoff, while it waits for it (a context can name any order).
  const o = await store.orderById(ctx.db, orderId);
  if (!o || o.handoff_id !== handoffId || o.status !== 'working' || o.produced_at !== null) return;
  await ctx.services.scheduler.enqueue('order', o.id, ctx.clock.now());
}

/** Listens, once per gateway, for resolved handoffs and wakes the dev task each was parked for. */
export function followHandoffs(ctx: WorkerContext): void {
  const bus = ctx.services.bus;
  if (following.has(bus)) return;
  following.add(bus);
  bus.on('handoff:updated', (e) => {
    if (e.status === 'parked') return;
    wake(ctx, e.handoffId).catch((err: unknown) => ctx.log.warn({ err, handoff: e.handoffId }, 'order: could not wake the dev task of a resolved handoff'));
  });
}

/** Every gateway follows handoffs from its start, so a resolution in any instance wakes the order. */
export function createCommercialWorkers(): Worker[] {
  return [{ name: 'dev-task-handoffs', start: followHandoffs, stop: async () => undefined }];
}
