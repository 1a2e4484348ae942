// The x402 rail of orders (issue 23, docs/decisions/commercial-x402.md): the EIP-3009 authorization is verified
// and claimed when the order is placed, and settled on chain only when the result is delivered. The exact scheme
// moves exactly the signed value, so a capture settles the whole hold: orders paid by x402 are fixed-price.
// Light to import: the verifying and settling half (src/billing/x402/orders.ts) comes through `payments()`.
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import type { PaymentSettings } from '../billing/challenge.js';
import type { OrderPaymentHeader, X402OrderPayments } from '../billing/x402/orders.js';
import type { Clock } from '../clock.js';
import type { Hold, HoldRequest, PaymentChoice, Rail } from './rails.js';

/**
 * Added to the window in the requirements' maxTimeoutSeconds: the official client signs validBefore = signing
 * time + maxTimeoutSeconds, and at placement the authorization must still cover the window plus the 6 s settle
 * margin; the rest is the time between signing and placing.
 */
export const ORDER_TIMEOUT_SLACK_SECONDS = 60;
/** Seconds a settlement needs before validBefore (payload.ts SETTLE_MARGIN_SECONDS; not imported, it loads @x402/evm). */
const SETTLE_MARGIN_SECONDS = 6;

/** Micro-dollars to the asset's atomic units (1:1 for 6-decimal USDC); refuses an amount the asset cannot express. */
export function microsToAtomic(micros: number, decimals: number): string {
  if (!Number.isSafeInteger(micros) || micros <= 0) throw new Error(`order amount must be a positive integer of micro-dollars, not ${micros}`);
  if (decimals >= 6) return (BigInt(micros) * 10n ** BigInt(decimals - 6)).toString();
  const unit = 10n ** BigInt(6 - decimals);
  if (BigInt(micros) % unit !== 0n) throw new Error(`order amount ${micros} µ$ is finer than the asset's ${decimals} decimals`);
  return (BigInt(micros) / unit).toString();
}

/** The exact-scheme requirements of an order: its amount, the gateway's network/asset/payTo, the window plus slack. */
export function orderRequirements(amount: number, settings: PaymentSettings, windowSeconds: number): PaymentRequirements {
  return {
    scheme: 'exact',
    network: settings.network as PaymentRequirements['network'],
    amount: microsToAtomic(amount, settings.decimals),
    asset: settings.asset,
    payTo: settings.payTo,
    maxTimeoutSeconds: windowSeconds + ORDER_TIMEOUT_SLACK_SECONDS,
    extra: { name: settings.assetName, version: settings.assetVersion },
  };
}

/**
 * The x402 v2 challenge for an order (what a 402 body and its PAYMENT-REQUIRED header carry; answer with
 * `paymentRequiredError` from src/billing/challenge.ts). `url`: the ordered service's URL; `windowSeconds`: the
 * order window (commercial x402WindowSeconds).
 */
export function orderPaymentRequired(o: {
  amount: number;
  settings: PaymentSettings;
  windowSeconds: number;
  url: string;
  description: string;
  error?: string;
}): PaymentRequired {
  return {
    x402Version: 2,
    error:
      o.error ??
      `Payment required: this order is charged on delivery. Sign an x402 "exact" authorization for the amount, valid for ${o.windowSeconds + ORDER_TIMEOUT_SLACK_SECONDS} seconds; it is verified now and settled only when the result is delivered.`,
    resource: { url: o.url, description: o.description, mimeType: 'application/json' },
    accepts: [orderRequirements(o.amount, o.settings, o.windowSeconds)],
  };
}

export interface X402RailOptions {
  settings: PaymentSettings;
  /** The order window (commercial x402WindowSeconds): the validity advertised and, at least, required. */
  windowSeconds: number;
  /** The resource URL of an ordered service (`copy.ad` → its order URL), named in the challenge. */
  resourceUrl: (service: string) => string;
  /** The verifying and settling half: `createX402(...).orders`, or `infra.x402.orders()` (loads x402 lazily). */
  payments: () => Promise<X402OrderPayments>;
  clock: Clock;
}

/** Hold.data of an x402 hold: everything settling needs later, from any process. */
interface HoldData {
  v: 1;
  payment: OrderPaymentHeader;
  requirements: PaymentRequirements;
  payer: string;
  validBefore: number;
  url: string;
  description: string;
}

export class X402Rail implements Rail {
  readonly name = 'x402' as const;

  constructor(private readonly o: X402RailOptions) {}

  chosen(p: PaymentChoice): boolean {
    return p.paymentSignature !== undefined || p.xPayment !== undefined;
  }

  /** The challenge this rail answers an unfunded order of `amount` with. */
  paymentRequired(service: string, amount: number, description: string, error?: string): PaymentRequired {
    return orderPaymentRequired({ amount, settings: this.o.settings, windowSeconds: this.o.windowSeconds, url: this.o.resourceUrl(service), description, error });
  }

  async hold(req: HoldRequest, p: PaymentChoice): Promise<Hold> {
    const capturableS = Math.ceil(req.capturableForMs / 1000);
    const windowSeconds = Math.max(this.o.windowSeconds, capturableS);
    const url = this.o.resourceUrl(req.service);
    const requirements = orderRequirements(req.amount, this.o.settings, windowSeconds);
    const payment: OrderPaymentHeader = p.paymentSignature !== undefined ? { paymentSignature: p.paymentSignature } : { xPayment: p.xPayment };
    const placed = await (await this.o.payments()).place({
      orderId: req.orderId,
      payment,
      requirements,
      validUntil: Math.floor(this.o.clock.now() / 1000) + capturableS + SETTLE_MARGIN_SECONDS,
      transport: req.caller.credentials.transport,
      challenge: (error) => orderPaymentRequired({ amount: req.amount, settings: this.o.settings, windowSeconds, url, description: req.description, error }),
      headers: req.meta.headers,
    });
    const data: HoldData = { v: 1, payment, requirements, payer: placed.payer, validBefore: placed.validBefore, url, description: req.description };
    return { rail: 'x402', reference: placed.paymentId, amount: req.amount, data: JSON.stringify(data) };
  }

  /**
   * Settles the whole authorization, whatever `amount` (the exact scheme cannot take less than signed): the order
   * engine uses x402 for fixed-price orders only. Idempotent; 402 when settlement failed, 503 to retry later.
   */
  async capture(hold: Hold, amount: number, _orderId: string): Promise<{ reference: string }> {
    if (amount > hold.amount) throw new Error(`capture of ${amount} exceeds the x402 hold of ${hold.amount}`);
    const d = holdData(hold);
    // The requirements signed for, not today's settings.
    const challenge = (error: string): PaymentRequired => ({
      x402Version: 2,
      error,
      resource: { url: d.url, description: d.description, mimeType: 'application/json' },
      accepts: [d.requirements],
    });
    const r = await (await this.o.payments()).settle(hold.reference, d.payment, d.requirements, challenge);
    return { reference: r.transaction ?? hold.reference };
  }

  async release(hold: Hold, _orderId: string): Promise<void> {
    holdData(hold);
    await (await this.o.payments()).release(hold.reference);
  }
}

function holdData(hold: Hold): HoldData {
  if (hold.rail !== 'x402' || !hold.data) throw new Error(`not an x402 hold: ${hold.rail} ${hold.reference}`);
  const d = JSON.parse(hold.data) as HoldData;
  if (d.v !== 1) throw new Error(`x402 hold ${hold.reference}: unknown data version ${String(d.v)}`);
  return d;
}
