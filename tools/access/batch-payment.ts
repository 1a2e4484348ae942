// How a batch's paid calls are paid. A key with quota for all of them reserves the units at once; a caller
// with a means that pays call by call (a valid key, an agent's credits) pays each call as a single call
// would. Anyone else buys the batch as one: the price is the sum of its paid calls, an x402 payment for that
// sum pays it, and without one the batch answers 402 with the challenge for that sum (like a single call).
// A purchase is settled when the batch delivered at least one paid result and released when it delivered none.
import { rateLimitHeaders } from '../../src/billing/quota.js';
import { sumUsd } from '../../src/billing/price.js';
import { BatchUnits } from '../../src/billing/batch-units.js';
import type { Price, PricedTool } from '../../src/registry/call-types.js';
import type { Tool, ToolContext } from '../../src/registry/types.js';

export interface BatchPayment {
  /** The calls ran: give back unused units, settle or release a purchase (may throw 402 if settlement fails). */
  finish(): Promise<void>;
  /** The batch failed as a whole: release everything. */
  abort(): Promise<void>;
}

const nothing: BatchPayment = { finish: async () => undefined, abort: async () => undefined };

/** The batch as one paid resource: the batch tool priced as the sum of its paid calls. */
export function batchPurchase(batch: Tool, paid: Tool[]): PricedTool & { price: Price } {
  const names = [...new Set(paid.map((t) => t.name))].join(', ');
  return {
    name: batch.name,
    restPath: '/batch',
    price: { usd: sumUsd(paid.map((t) => t.price?.usd ?? '0')) },
    description: `A batch of ${paid.length} paid call${paid.length === 1 ? '' : 's'} (${names}), priced as the sum of their prices.`,
  };
}

async function hasValidKey(ctx: ToolContext): Promise<boolean> {
  const presented = ctx.caller.credentials.apiKey;
  return presented !== undefined && (await ctx.services.keys.resolve(presented)) !== null;
}

export async function payForBatch(ctx: ToolContext, batch: Tool, paid: Tool[]): Promise<BatchPayment> {
  if (paid.length === 0) return nothing;
  const { caller, services } = ctx;
  const c = caller.credentials;
  const prepaid = await services.billing.reserve(caller, paid.map((t) => t.name));
  if (prepaid) {
    caller.billing = { ...caller.billing, prepaid };
    const settle = async () => {
      delete caller.billing?.prepaid;
      const returned = await services.billing.settleReservation(prepaid);
      Object.assign(ctx.meta.headers, rateLimitHeaders(prepaid.key, { ...prepaid.state, remaining: prepaid.state.remaining + returned }));
    };
    return { finish: settle, abort: settle };
  }
  const paying = c.paymentSignature !== undefined || c.xPayment !== undefined;
  const validKey = await hasValidKey(ctx);
  if (!paying && (validKey || (caller.agent && !c.apiKey))) return nothing;
  const total = batchPurchase(batch, paid);
  const invalidKey = c.apiKey !== undefined && !validKey ? 'The API key is not valid. ' : '';
  const reason =
    `${invalidKey}Payment required for this batch: its ${paid.length} paid call${paid.length === 1 ? '' : 's'} cost $${total.price.usd} together. ` +
    'Send X-API-Key with quota for them (free keys: POST /keys/issue), or pay the batch with x402 (PAYMENT-SIGNATURE).';
  const charge = await services.billing.purchase(total, caller, ctx.meta, reason);
  const units = new BatchUnits(paid.map((t) => t.name));
  caller.billing = { ...caller.billing, purchased: units };
  const done = () => void delete caller.billing?.purchased;
  return {
    finish: async () => {
      done();
      await (units.delivered > 0 ? charge.commit(ctx.meta) : charge.release());
    },
    abort: async () => {
      done();
      await charge.release();
    },
  };
}
