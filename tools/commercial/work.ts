// The durable work of orders, run by the scheduler (it survives a restart, and any gateway process on the
// database may run it): 'order' makes the deliverable and delivers it; 'order-accept' accepts a delivered dev
// task whose acceptance window has ended.
import { GatewayError } from '../../src/errors.js';
import type { WorkerContext } from '../../src/registry/types.js';
import type { WorkKind } from '../../src/scheduler/scheduler.js';
import * as store from '../../src/store/orders.js';
import { serviceOf } from './catalog.js';
import { ContentShapeError } from './content/errors.js';
import { accept, deliver, failOrder, releaseClosed } from './settle.js';

const ATTEMPTS = 3;
/** Upstream trouble worth another try; anything else fails the order at once. */
const TRANSIENT = new Set(['upstream_error', 'unavailable', 'rate_limited']);

/**
 * Upstream trouble another attempt may get past. Not a model that kept missing the deliverable's shape (it was asked
 * again already, content/attempts.ts), nor a failure that says another try would end the same (`retryable: false`).
 */
const retryable = (err: unknown): boolean => err instanceof GatewayError && TRANSIENT.has(err.code) && !(err instanceof ContentShapeError) && err.extra.retryable !== false;

export const orderKind: WorkKind<WorkerContext> = {
  kind: 'order',
  leaseMs: 10 * 60_000,
  maxAttempts: ATTEMPTS,
  async run(ref, ctx, attempt) {
    let o = await store.orderById(ctx.db, ref);
    if (!o) return;
    if (o.status === 'failed' || o.status === 'canceled') {
      if (o.payment_state === 'held') await releaseClosed(ctx, o);
      return;
    }
    // Delivered already (made within its request, or by another run); an acceptance is 'order-accept''s.
    if (o.status === 'delivered' || o.status === 'accepted') return;
    const svc = serviceOf(o.service);
    if (!svc) return failOrder(ctx, o, `Unknown service ${o.service}.`);
    if (o.status === 'placed' || o.status === 'revision_requested') {
      const now = ctx.clock.now();
      if (!(await store.transition(ctx.db, o.id, [o.status], 'working', now))) return;
      o = { ...o, status: 'working', updated_at: now };
    }
    if (o.status !== 'working') return;
    if (o.produced_at === null) {
      let made;
      try {
        made = await svc.produce(o, ctx, { number: attempt, last: attempt >= ATTEMPTS });
      } catch (err) {
        if (retryable(err) && attempt < ATTEMPTS) throw err;
        return failOrder(ctx, o, (err as Error).message || 'The work failed.');
      }
      if (made.recheckAt !== undefined) return { next: made.recheckAt };
      const produced = {
        result: JSON.stringify(made.result),
        usage: made.usage ? JSON.stringify(made.usage) : null,
        charge: Math.min(made.charge ?? o.hold_amount, o.hold_amount),
        now: ctx.clock.now(),
      };
      // Not stored: canceled meanwhile, or made by another run; the order as it is now decides.
      if (!(await store.storeProduced(ctx.db, o.id, produced))) return this.run(ref, ctx, attempt);
      o = { ...o, result: produced.result, usage: produced.usage, charged: produced.charge, produced_at: produced.now, updated_at: produced.now };
    }
    await deliver(ctx, o, svc.acceptance === true);
  },
  async giveUp(ref, error, ctx) {
    const o = await store.orderById(ctx.db, ref);
    if (o && o.payment_state === 'held' && o.status !== 'delivered') await failOrder(ctx, o, `The work failed: ${error}`);
  },
};

/** The wait before the next attempt of an order made within its request: 0.5 s, then 1 s. */
const IN_REQUEST_BACKOFF_MS = 500;

/**
 * Works an order made within its request (review, generation) to its end before the answer: attempts as the
 * scheduler would make them (three, a transient failure tried again after a short wait), the last one failing the
 * order and releasing its hold. The order's queued work stays the safety net should the process stop meanwhile.
 */
export async function workInRequest(ctx: WorkerContext, id: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await orderKind.run(id, ctx, attempt);
      return;
    } catch (err) {
      if (attempt >= orderKind.maxAttempts) throw err;
      await new Promise((r) => setTimeout(r, IN_REQUEST_BACKOFF_MS * 2 ** (attempt - 1)));
    }
  }
}

export const orderAcceptKind: WorkKind<WorkerContext> = {
  kind: 'order-accept',
  leaseMs: 60_000,
  maxAttempts: 8,
  async run(ref, ctx) {
    const o = await store.orderById(ctx.db, ref);
    if (!o || o.status !== 'delivered' || o.payment_state !== 'held' || o.accept_by === null || o.accept_by > ctx.clock.now()) return;
    await accept(ctx, o);
  },
};
