// How an order ends: delivered (and captured, or left for acceptance), accepted (captured), failed or canceled
// (released). Money moves first, through the order's rail (idempotent: a retry after a crash captures or
// releases nothing twice); then one transaction records it, guarded on the order's state, with the webhook.
import type { Hold, Rail } from '../../src/commerce/rails.js';
import { GatewayError } from '../../src/errors.js';
import type { WorkerContext } from '../../src/registry/types.js';
import type { Queryable } from '../../src/store/db.js';
import * as store from '../../src/store/orders.js';
import { scheduleWebhook } from '../webhooks/index.js';
import { orderView } from './view.js';

export const holdOf = (o: store.OrderRow): Hold => ({ rail: o.rail, reference: o.hold_ref, amount: o.hold_amount, ...(o.hold_data ? { data: o.hold_data } : {}) });

export function railOf(ctx: Pick<WorkerContext, 'services'>, o: store.OrderRow): Rail {
  const rail = ctx.services.commerce.rails.get(o.rail);
  if (!rail) throw new GatewayError('unavailable', `Payments by ${o.rail} are not configured on this gateway any more; the order waits for them.`);
  return rail;
}

/** Tells the order's webhook, in the transaction that changed the order. */
async function announce(ctx: WorkerContext, q: Queryable, id: string, event: string): Promise<void> {
  const o = await store.orderById(q, id);
  if (!o?.webhook_url || !o.webhook_secret) return;
  const body = { event, order: orderView(o, ctx.config.commercial.baseUrl), sent_at: new Date(ctx.clock.now()).toISOString() };
  await scheduleWebhook(ctx, { source: 'order', ref: o.id, agentId: null, url: o.webhook_url, body, secret: o.webhook_secret }, q);
}

/** The charge of a produced order: what the service metered, never more than the hold. */
const chargeOf = (o: store.OrderRow): number => Math.min(o.charged ?? o.hold_amount, o.hold_amount);

/** A produced order is delivered: captured now, or (acceptance) left held until it is accepted. */
export async function deliver(ctx: WorkerContext, o: store.OrderRow, acceptance: boolean): Promise<void> {
  const now = ctx.clock.now();
  if (acceptance) {
    const acceptBy = now + ctx.config.commercial.devAutoAcceptMs;
    await ctx.db.transaction(async (tx) => {
      if (!(await store.transition(tx, o.id, ['working'], 'delivered', now, { delivered_at: now, accept_by: acceptBy }))) return;
      await ctx.services.scheduler.enqueue('order-accept', o.id, acceptBy, tx);
      await announce(ctx, tx, o.id, 'order.delivered');
    });
    return;
  }
  const amount = chargeOf(o);
  const rail = railOf(ctx, o);
  // A capture that is a change of this database commits with the delivery: one round trip (a webhook, written in
  // the delivery's transaction, takes the longer way).
  const inBatch = o.webhook_url ? undefined : rail.captureStatements?.(holdOf(o), amount, o.id);
  if (inBatch) {
    await ctx.db.batch([
      ...inBatch,
      store.closeHoldStatement(o.id, 'captured', amount, now),
      store.transitionStatement(o.id, ['working'], 'delivered', now, { delivered_at: now, closed_at: now }),
    ]);
    return;
  }
  try {
    await rail.capture(holdOf(o), amount, o.id);
  } catch (err) {
    return failOrder(ctx, o, `The payment could not be captured (${(err as Error).message}); the result is withheld and nothing was charged.`, ['working']);
  }
  await ctx.db.transaction(async (tx) => {
    await store.closeHold(tx, o.id, 'captured', amount, now);
    if (await store.transition(tx, o.id, ['working'], 'delivered', now, { delivered_at: now, closed_at: now })) await announce(ctx, tx, o.id, 'order.delivered');
  });
}

/** A delivered order awaiting acceptance is accepted (by its client, or when its window ends): captured. */
export async function accept(ctx: WorkerContext, o: store.OrderRow): Promise<boolean> {
  const amount = chargeOf(o);
  await railOf(ctx, o).capture(holdOf(o), amount, o.id);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    await store.closeHold(tx, o.id, 'captured', amount, now);
    const moved = await store.transition(tx, o.id, ['delivered'], 'accepted', now, { closed_at: now });
    if (moved) await announce(ctx, tx, o.id, 'order.accepted');
    return moved;
  });
}

/** The order failed: its hold is released (nothing charged) and the deliverable, if any, withheld. */
export async function failOrder(ctx: WorkerContext, o: store.OrderRow, error: string, from: store.OrderStatus[] = ['placed', 'working', 'revision_requested']): Promise<void> {
  await railOf(ctx, o).release(holdOf(o), o.id);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await store.closeHold(tx, o.id, 'released', 0, now);
    if (await store.transition(tx, o.id, from, 'failed', now, { error: error.slice(0, 1000), result: null, closed_at: now })) await announce(ctx, tx, o.id, 'order.failed');
  });
}

/** The client canceled an order nothing was made for yet: released. False when it is too late. */
export async function cancel(ctx: WorkerContext, o: store.OrderRow): Promise<boolean> {
  const now = ctx.clock.now();
  const canceled = await ctx.db.transaction(async (tx) => {
    if (!(await store.cancelOrder(tx, o.id, now))) return false;
    // The order's work item now only releases the hold, should the release below not get through.
    await ctx.services.scheduler.enqueue('order', o.id, now, tx);
    await announce(ctx, tx, o.id, 'order.canceled');
    return true;
  });
  if (!canceled) return false;
  await releaseClosed(ctx, o).catch((err: unknown) => ctx.log.warn({ err, order: o.id }, 'order: the release of a canceled order failed; it is retried'));
  return true;
}

/** The hold of an order that ended without a charge (failed, canceled) is given back, once. */
export async function releaseClosed(ctx: WorkerContext, o: store.OrderRow): Promise<void> {
  await railOf(ctx, o).release(holdOf(o), o.id);
  await store.closeHold(ctx.db, o.id, 'released', 0, ctx.clock.now());
}
