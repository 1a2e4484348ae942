// The one 402 of the commercial group (issue 43). Over HTTP every endpoint answers the same body: an `error` object
// with `code` and `message` (and the order's price and rails, and why it could not be paid), with the order's
// price and rails beside it, and the x402 v2 challenge beside them when x402 is offered (its fields at the top, as
// the PAYMENT-REQUIRED header carries it whole; only the challenge's own `error` string is left to the header).
// Over MCP and the other transports that carry x402 as a payload, the challenge stays the PaymentRequired the x402
// MCP convention names (its `error` a string), with the price and rails beside.
import { GatewayError } from '../../src/errors.js';
import type { ToolContext } from '../../src/registry/types.js';

export interface OrderPrice {
  price: { usd: string; micro_usd: number };
  rails: string[];
}

export interface Unpaid {
  message: string;
  /** How to pay: the order's price and the rails it may be paid with. */
  pay: OrderPrice;
  /** Why it was not paid, for the error object (the balance, the rail that refused…). */
  why?: Record<string, unknown>;
  /** The x402 challenge for the order's price (a PaymentRequired, with a receipt when one was made). */
  challenge?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export function paymentRequired(ctx: Pick<ToolContext, 'caller'>, u: Unpaid): GatewayError {
  const extra = { ...u.why, ...u.pay };
  const headers = u.headers ?? {};
  if (u.challenge && ctx.caller.credentials.transport !== 'rest') {
    return new GatewayError('payment_required', u.message, { extra, headers, payment: { ...u.challenge, ...u.pay } });
  }
  const { error: _said, ...challenge } = u.challenge ?? {};
  return new GatewayError('payment_required', u.message, { extra, headers, top: { ...challenge, ...u.pay } });
}
