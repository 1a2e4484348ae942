// Reading and steering one's own orders: get, list, cancel (before anything is made), and for dev tasks accept
// (captured then) or ask for a revision. Another account's order reads exactly as one that does not exist.
import { z } from 'zod';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext, WorkerContext } from '../../src/registry/types.js';
import * as store from '../../src/store/orders.js';
import { accept, cancel } from './settle.js';
import { orderView } from './view.js';

export const MAX_REVISIONS = 3;
const OrderId = z.string().regex(/^ord_[A-Za-z0-9_-]{16}$/, 'An order id (ord_…).').describe('The order id.');
const STATUSES = ['placed', 'working', 'delivered', 'revision_requested', 'accepted', 'failed', 'canceled'] as const;

async function ownOrder(ctx: ToolContext, id: string): Promise<store.OrderRow> {
  const o = await store.orderById(ctx.db, id);
  if (!o || o.account_id !== ctx.caller.account!.id) throw new GatewayError('not_found', 'No such order.');
  return o;
}

const view = (ctx: ToolContext, o: store.OrderRow) => orderView(o, ctx.config.commercial.baseUrl);
const reread = async (ctx: ToolContext, id: string) => view(ctx, (await store.orderById(ctx.db, id))!);

export const orderGet = defineTool({
  name: 'order_get',
  title: 'Read an order',
  toolset: 'commercial',
  description: 'One of your orders: status, price, payment (held, captured or released) and, once delivered, the result.',
  input: z.object({ order_id: OrderId }),
  auth: 'account',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => view(ctx, await ownOrder(ctx, input.order_id)),
});

export const ordersList = defineTool({
  name: 'orders_list',
  title: 'List your orders',
  toolset: 'commercial',
  description: 'Your orders, newest first; `cursor` (from next_cursor) pages on, `status` filters.',
  input: z.object({
    status: z.enum(STATUSES).optional(),
    limit: z.number().int().min(1).max(100).default(20),
    cursor: z.string().max(200).optional().describe('next_cursor of the previous page.'),
  }),
  auth: 'account',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    let before: { at: number; id: string } | undefined;
    if (input.cursor) {
      const [at, id] = Buffer.from(input.cursor, 'base64url').toString().split('|');
      if (!/^\d+$/.test(at ?? '') || !id) throw new GatewayError('validation_error', 'The cursor is not valid.', { detail: [{ loc: ['cursor'], msg: 'Not a cursor this API gave.', type: 'value_error' }] });
      before = { at: Number(at), id };
    }
    const rows = await store.ordersOf(ctx.db, ctx.caller.account!.id, { limit: input.limit + 1, status: input.status, before });
    const page = rows.slice(0, input.limit);
    const last = page.at(-1);
    return {
      orders: page.map((o) => view(ctx, o)),
      next_cursor: rows.length > input.limit && last ? Buffer.from(`${last.created_at}|${last.id}`).toString('base64url') : null,
    };
  },
});

export const orderCancel = defineTool({
  name: 'order_cancel',
  title: 'Cancel an order',
  toolset: 'commercial',
  description: 'Cancels an order whose result is not made yet; its hold is released and nothing is charged.',
  input: z.object({ order_id: OrderId }),
  auth: 'account',
  annotations: { destructiveHint: true, idempotentHint: true },
  handler: async (input, ctx) => {
    const o = await ownOrder(ctx, input.order_id);
    if (o.status === 'canceled') return view(ctx, o);
    if (!(await cancel(ctx as WorkerContext, o))) {
      throw new GatewayError('conflict', `The order is ${o.status === 'working' ? 'made already and being delivered' : o.status}; only an order whose result is not made yet can be canceled.`, {
        extra: { status: o.status },
      });
    }
    return reread(ctx, o.id);
  },
});

export const orderAccept = defineTool({
  name: 'order_accept',
  title: 'Accept a delivered dev task',
  toolset: 'commercial',
  description: 'Accepts a delivered dev task: its payment is captured now. Not accepted or sent back in time, it is accepted automatically.',
  input: z.object({ order_id: OrderId }),
  auth: 'account',
  annotations: { destructiveHint: false, idempotentHint: true },
  handler: async (input, ctx) => {
    const o = await ownOrder(ctx, input.order_id);
    if (o.status === 'accepted') return view(ctx, o);
    if (o.status !== 'delivered' || o.accept_by === null) {
      throw new GatewayError('conflict', `The order is ${o.status}; only a delivered dev task is accepted.`, { extra: { status: o.status } });
    }
    await accept(ctx as WorkerContext, o);
    return reread(ctx, o.id);
  },
});

export const orderRevise = defineTool({
  name: 'order_revise',
  title: 'Ask for a revision of a delivered dev task',
  toolset: 'commercial',
  description: `Sends a delivered dev task back with what to change (at most ${MAX_REVISIONS} times); nothing is charged until you accept.`,
  input: z.object({ order_id: OrderId, notes: z.string().trim().min(1).max(4000).describe('What to change.') }),
  auth: 'account',
  annotations: { destructiveHint: false, idempotentHint: false },
  handler: async (input, ctx) => {
    const o = await ownOrder(ctx, input.order_id);
    if (o.status !== 'delivered' || o.accept_by === null) {
      throw new GatewayError('conflict', `The order is ${o.status}; only a delivered dev task can be sent back.`, { extra: { status: o.status } });
    }
    if (o.revisions >= MAX_REVISIONS) throw new GatewayError('conflict', `This order has had its ${MAX_REVISIONS} revisions; accept it, or it is accepted when its window ends.`);
    const now = ctx.clock.now();
    const moved = await ctx.db.transaction(async (tx) => {
      const ok = await store.transition(tx, o.id, ['delivered'], 'revision_requested', now, { revisions: o.revisions + 1, revision_notes: input.notes, produced_at: null, handoff_id: null, accept_by: null });
      if (ok) await ctx.services.scheduler.enqueue('order', o.id, now, tx);
      return ok;
    });
    if (!moved) throw new GatewayError('conflict', 'The order changed meanwhile; read it again.');
    return reread(ctx, o.id);
  },
});

export const orderTools = [orderGet, ordersList, orderCancel, orderAccept, orderRevise];
