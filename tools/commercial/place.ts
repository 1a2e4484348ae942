// Placing an order: priced from the table, refused with 402 before any work when it cannot be paid, the price
// held on the rail the caller chose (the prepaid balance when none), and the order row written with its work
// queued in one batch (with the hold too, when the hold is a change of this database).
import { z } from 'zod';
import { newId } from '../../src/auth/secrets.js';
import { microToUsd } from '../../src/commerce/prices.js';
import { PAYMENT_METHOD_ID, PAYMENT_METHOD_MESSAGE, type Hold, type PaymentChoice, type Rail, type RailName } from '../../src/commerce/rails.js';
import { paymentRequiredError } from '../../src/billing/challenge.js';
import { X402Rail } from '../../src/commerce/x402-rail.js';
import { GatewayError } from '../../src/errors.js';
import { checkOrderInput } from './input-checks.js';
import { paymentRequired, type OrderPrice } from './payment-required.js';
import { BatchError } from '../../src/store/db.js';
import type { ToolContext } from '../../src/registry/types.js';
import * as store from '../../src/store/orders.js';
import { newWebhookSecret } from '../webhooks/index.js';

/** Fields every order takes beside its own: how to pay by card, and where to hear of its completion. */
export const OrderExtras = {
  // Checked here too, so a malformed id is a 422 before anything else (a gateway without a model answered 503 first).
  payment_method: z
    .string()
    .regex(PAYMENT_METHOD_ID, PAYMENT_METHOD_MESSAGE)
    .optional()
    .describe('Pay by card: a Stripe PaymentMethod id (pm_…), authorised now and captured only on delivery. Without it: x402 (PAYMENT-SIGNATURE) or the prepaid balance.'),
  webhook_url: z.url({ protocol: /^https?$/ }).max(2000).optional().describe('Told (a signed POST) when the order is delivered, accepted, failed or canceled.'),
};

/** Why a metered order is not paid by x402: an authorization moves exactly its amount, the most, not the use. */
export const METERED_X402 = 'This service is metered by the token, and an x402 authorization pays exactly the amount it names: pay with the prepaid balance (or a card).';

export interface OrderSpec {
  service: string;
  priceId: string;
  /** Micro-dollars held (the price, or a metered order's most). */
  amount: number;
  /** What the service needs, as stored on the order (never payment data). */
  input: Record<string, unknown>;
  webhookUrl?: string;
  /** How long the hold must stay capturable: until delivery, or until acceptance for a dev task. */
  capturableForMs: number;
  /** Run the work this long after placing (default at once); an order made within its request sets a safety delay. */
  dueInMs?: number;
  /** Rails this service cannot be paid with, and why (an x402 authorization cannot wait for an acceptance). */
  refuses?: Partial<Record<RailName, string>>;
}

function choice(ctx: ToolContext, paymentMethod: string | undefined): PaymentChoice {
  const c = ctx.caller.credentials;
  return { paymentSignature: c.paymentSignature, xPayment: c.xPayment, paymentMethod };
}

function chooseRail(ctx: ToolContext, payment: PaymentChoice, spec: OrderSpec): Rail {
  const rails = ctx.services.commerce.rails;
  const wanted: RailName = payment.paymentMethod ? 'card' : payment.paymentSignature || payment.xPayment ? 'x402' : 'credits';
  const refused = spec.refuses?.[wanted];
  if (refused) throw paymentRequired(ctx, { message: refused, pay: howToPay(ctx, spec) });
  const rail = rails.get(wanted);
  if (!rail) {
    const what = wanted === 'card' ? 'Card payments (STRIPE_SECRET_KEY)' : 'x402 payments';
    throw paymentRequired(ctx, { message: `${what} are not configured on this gateway. ${payHint(ctx, spec)}`, pay: howToPay(ctx, spec) });
  }
  return rail;
}

function payHint(ctx: ToolContext, spec: OrderSpec): string {
  const ways = ['a prepaid balance (credited by the operator)'];
  if (ctx.services.commerce.rails.has('x402') && !spec.refuses?.x402) ways.push('x402 (PAYMENT-SIGNATURE)');
  if (ctx.services.commerce.rails.has('card') && !spec.refuses?.card) ways.push('a card (payment_method: a Stripe PaymentMethod id)');
  return `Pay with ${ways.join(', or ')}; the charge is captured only on delivery.`;
}

function howToPay(ctx: ToolContext, spec: OrderSpec): OrderPrice {
  return { price: { usd: microToUsd(spec.amount), micro_usd: spec.amount }, rails: [...ctx.services.commerce.rails.keys()].filter((r) => !spec.refuses?.[r]) };
}

/**
 * The 402 of an order that could not be held: why, and every way to pay it, with the x402 challenge for its
 * price (so an x402 client can pay at once) when x402 is offered and the chosen rail did not answer with its own.
 */
function unpaid(ctx: ToolContext, spec: OrderSpec, err: GatewayError, rail: Rail): GatewayError {
  const message = `${err.message} ${payHint(ctx, spec)}`;
  const base = { message, pay: howToPay(ctx, spec), why: err.extra, headers: err.headers };
  const x402 = ctx.services.commerce.rails.get('x402');
  if (err.payment) return paymentRequired(ctx, { ...base, challenge: err.payment });
  if (rail.name === 'x402' || !(x402 instanceof X402Rail) || spec.refuses?.x402) return paymentRequired(ctx, base);
  const challenge = paymentRequiredError(x402.paymentRequired(spec.service, spec.amount, `${spec.service} order`, message), err.headers);
  return paymentRequired(ctx, { ...base, challenge: challenge.payment, headers: challenge.headers });
}

/** The order row of a hold just placed. */
function orderRow(ctx: ToolContext, id: string, spec: OrderSpec, rail: Rail, hold: Hold, webhookSecret: string | undefined): store.OrderRow {
  const now = ctx.clock.now();
  return {
    id,
    account_id: ctx.caller.account!.id,
    service: spec.service,
    price_id: spec.priceId,
    status: 'placed',
    price: spec.amount,
    charged: null,
    rail: rail.name,
    hold_ref: hold.reference,
    hold_amount: hold.amount,
    hold_data: hold.data ?? null,
    payment_state: 'held',
    input: JSON.stringify(spec.input),
    result: null,
    usage: null,
    error: null,
    produced_at: null,
    handoff_id: null,
    revisions: 0,
    revision_notes: null,
    webhook_url: spec.webhookUrl ?? null,
    webhook_secret: webhookSecret ?? null,
    created_at: now,
    updated_at: now,
    delivered_at: null,
    closed_at: null,
    accept_by: null,
  };
}

/**
 * Holds the price and records the order with its work queued; 422 when the work would refuse the input, and 402
 * when unpaid (nothing held, nothing recorded, nothing done).
 */
export async function placeOrder(ctx: ToolContext, spec: OrderSpec, paymentMethod: string | undefined): Promise<{ order: store.OrderRow; webhookSecret?: string }> {
  checkOrderInput(spec.service, spec.input);
  const account = ctx.caller.account!;
  const payment = choice(ctx, paymentMethod);
  const rail = chooseRail(ctx, payment, spec);
  const id = newId('ord');
  const webhookSecret = spec.webhookUrl ? newWebhookSecret() : undefined;
  const due = ctx.clock.now() + (spec.dueInMs ?? 0);
  const req = { orderId: id, accountId: account.id, service: spec.service, amount: spec.amount, description: `${spec.service} order ${id}`, caller: ctx.caller, meta: ctx.meta, capturableForMs: spec.capturableForMs };
  const work = ctx.services.scheduler.enqueueStatement('order', id, due);

  // A hold that is a change of this database commits with the order and its work: one round trip.
  const inBatch = rail.holdStatements?.(req);
  if (inBatch) {
    const order = orderRow(ctx, id, spec, rail, inBatch.hold, webhookSecret);
    try {
      await ctx.db.batch([...inBatch.statements, store.insertOrderStatement(order), work.statement]);
    } catch (err) {
      if (err instanceof BatchError && err.index === 0 && err.code === 'BATCH_NO_ROW') throw unpaid(ctx, spec, await inBatch.refused(), rail);
      throw err;
    }
    work.committed();
    return { order, webhookSecret };
  }

  let hold: Hold;
  try {
    hold = await rail.hold(req, payment);
  } catch (err) {
    if (err instanceof GatewayError && err.status === 402) throw unpaid(ctx, spec, err, rail);
    throw err;
  }
  const order = orderRow(ctx, id, spec, rail, hold, webhookSecret);
  try {
    await ctx.db.batch([store.insertOrderStatement(order), work.statement]);
  } catch (err) {
    await rail.release(hold, id).catch((e: unknown) => ctx.log.error({ err: e, order: id }, 'order: releasing the hold of an order that was not recorded failed'));
    throw err;
  }
  work.committed();
  return { order, webhookSecret };
}
