// How an order is paid (issue 23): a rail holds the price when the order is placed, captures it (all or part)
// when the result is delivered or accepted, and releases it when the order fails or is canceled. The hold is
// kept on the order row, so capture and release work from any process after a restart; both are idempotent.
import type { GatewayError } from '../errors.js';
import type { CallMeta, Caller } from '../registry/call-types.js';
import type { BatchStatement } from '../store/db.js';

export type RailName = 'credits' | 'x402' | 'card';

/** A Stripe PaymentMethod id, or one of Stripe's test-mode tokens (pm_card_visa, pm_card_chargeDeclined…). */
export const PAYMENT_METHOD_ID = /^pm_[A-Za-z0-9_]{1,250}$/;
export const PAYMENT_METHOD_MESSAGE = 'must be a Stripe PaymentMethod id (pm_…; in test mode e.g. pm_card_visa)';

/** What a placed order holds: enough to capture or release it later, from the order row alone. */
export interface Hold {
  rail: RailName;
  /** The rail's id of the hold: a ledger reference, an x402 payment id, a Stripe PaymentIntent id. */
  reference: string;
  /** Micro-dollars held (1 = US$0.000001). */
  amount: number;
  /** Rail-private state as JSON (x402: the signed authorization to settle); never shown to anyone. */
  data?: string;
}

/** What the caller brought to pay with, besides the account's prepaid balance. */
export interface PaymentChoice {
  /** x402 v2 PAYMENT-SIGNATURE, or the legacy X-PAYMENT. */
  paymentSignature?: string;
  xPayment?: string;
  /** A Stripe PaymentMethod id (`pm_…`), to pay by card. */
  paymentMethod?: string;
}

export interface HoldRequest {
  orderId: string;
  accountId: string;
  /** The priced service, e.g. `copy.ad`; names the hold in ledgers and on the card statement. */
  service: string;
  amount: number;
  description: string;
  caller: Caller;
  /** Headers and _meta the placing call answers with (payment receipts, challenges). */
  meta: CallMeta;
  /** How long the hold must stay capturable (an x402 authorization's validity must cover it). */
  capturableForMs: number;
}

export interface Rail {
  readonly name: RailName;
  /** True when the caller chose this rail (a payment header, a payment method). Credits apply when none did. */
  chosen(payment: PaymentChoice): boolean;
  /** Places the hold, or throws a GatewayError (402 payment_required saying why) and holds nothing. */
  hold(req: HoldRequest, payment: PaymentChoice): Promise<Hold>;
  /**
   * For a rail whose hold is a change of this database (the prepaid balance): the hold as statements to commit in
   * one batch with the order row, one round trip for both. The first statement returns no row when the hold is
   * refused; `refused` then says why. Rails that call out (cards, x402) have only `hold`.
   */
  holdStatements?(req: HoldRequest): { statements: BatchStatement[]; hold: Hold; refused(): Promise<GatewayError> };
  /** Takes `amount` (≤ hold.amount) of the hold and gives the rest back; capturing a captured hold is a no-op. */
  capture(hold: Hold, amount: number, orderId: string): Promise<{ reference: string }>;
  /** The capture as statements for one batch with the order's delivery (rails whose hold is in this database). */
  captureStatements?(hold: Hold, amount: number, orderId: string): BatchStatement[];
  /** Gives the whole hold back; releasing a released hold is a no-op. */
  release(hold: Hold, orderId: string): Promise<void>;
}
