// Cards through Stripe as a rail (issue 23): a hold is a PaymentIntent authorised with manual capture, a capture
// takes all or part of it, a release cancels it. Every call carries an idempotency key named after the order, so
// a retry (ours, the client's, or after a restart) never authorises, captures or cancels twice.
// The Stripe SDK is an optional package (src/engines.ts): it loads with the first card call, and without it that
// call answers 503 engine_not_installed, before anything is held.
import type Stripe from 'stripe';
import { requireEngine } from '../engines.js';
import { GatewayError, validationError } from '../errors.js';
import type { Logger } from '../log.js';
import { microToUsd } from './prices.js';
import { PAYMENT_METHOD_ID, PAYMENT_METHOD_MESSAGE, type Hold, type HoldRequest, type PaymentChoice, type Rail } from './rails.js';

/** Micro-dollars in one cent. */
const MICRO_PER_CENT = 10_000;
/** Stripe's smallest USD charge. */
export const CARD_MIN_CENTS = 50;
/** How long Stripe keeps an online card authorisation capturable before it cancels it (customer-initiated). */
export const CARD_HOLD_MAX_MS = 7 * 24 * 3600 * 1000;
/** Stripe keys, wherever they might show up in a message from Stripe (it echoes a masked key on 401). */
const KEY_PATTERN = /\b(?:sk|rk|pk)_(?:test|live)_[A-Za-z0-9*]+/g;

/** Stripe's error classes, set when the SDK loads: every error judged here comes from a call made after that. */
let S: typeof Stripe.errors;

export interface CardSettings {
  secretKey: string;
  /** Where the Stripe API is, when not api.stripe.com (tests, proxies); only its protocol, host and port are used. */
  apiBase?: URL;
}

/** Cents to hold or capture for an amount of micro-dollars: rounded up, so a card never pays less than the price. */
export function toCents(micro: number): number {
  return Math.ceil(micro / MICRO_PER_CENT);
}

export class CardRail implements Rail {
  readonly name = 'card' as const;
  private client: Promise<Stripe> | undefined;
  private readonly secretKey: string;

  constructor(
    private readonly settings: CardSettings,
    private readonly log: Logger,
  ) {
    this.secretKey = settings.secretKey;
  }

  /** The Stripe client, made with the first card call (503 engine_not_installed without the SDK). */
  private stripe(): Promise<Stripe> {
    requireEngine('card');
    return (this.client ??= import('stripe').then(({ default: StripeSdk }) => {
      S = StripeSdk.errors;
      const base = this.settings.apiBase;
      return new StripeSdk(this.secretKey, {
        ...(base && {
          protocol: base.protocol === 'http:' ? 'http' : 'https',
          // URL keeps IPv6 hosts bracketed; node:http wants them bare.
          host: base.hostname.replace(/^\[(.*)\]$/, '$1'),
          ...(base.port && { port: Number(base.port) }),
        }),
        maxNetworkRetries: 2,
        timeout: 20_000,
      });
    }));
  }

  chosen(p: PaymentChoice): boolean {
    return p.paymentMethod !== undefined;
  }

  async hold(req: HoldRequest, p: PaymentChoice): Promise<Hold> {
    const stripe = await this.stripe();
    const paymentMethod = p.paymentMethod ?? '';
    if (!PAYMENT_METHOD_ID.test(paymentMethod)) {
      throw validationError([
        { loc: ['body', 'payment_method'], msg: PAYMENT_METHOD_MESSAGE, type: 'value_error' },
      ]);
    }
    const cents = toCents(req.amount);
    if (cents < CARD_MIN_CENTS) {
      throw new GatewayError(
        'payment_required',
        `This order costs $${usd(req.amount)}, under the $0.50 Stripe takes at least by card; pay it with the prepaid balance or x402 instead. Nothing was charged.`,
        { extra: { rail: 'card', minimum: CARD_MIN_CENTS * MICRO_PER_CENT, required: req.amount } },
      );
    }
    if (req.capturableForMs > CARD_HOLD_MAX_MS) {
      // Stripe cancels an uncaptured card authorisation after 7 days: a later delivery could not be charged.
      throw new GatewayError(
        'payment_required',
        `This order may take ${Math.ceil(req.capturableForMs / 86_400_000)} days to be delivered and accepted, longer than the 7 days a card hold lasts; pay it with the prepaid balance or x402 instead. Nothing was charged.`,
        { extra: { rail: 'card' } },
      );
    }

    let pi: Stripe.PaymentIntent;
    try {
      pi = await stripe.paymentIntents.create(
        {
          amount: cents,
          currency: 'usd',
          capture_method: 'manual',
          confirm: true,
          payment_method: paymentMethod,
          // Cards only, so nothing can redirect. (This API version refuses `payment_method_types`.)
          allowed_payment_method_types: ['card'],
          description: req.description,
          metadata: { order_id: req.orderId, account_id: req.accountId, service: req.service },
        },
        { idempotencyKey: `order-hold-${req.orderId}` },
      );
    } catch (err) {
      throw await this.holdRefused(err, req.orderId);
    }

    if (pi.status === 'requires_capture') {
      this.log.info({ order_id: req.orderId, payment_intent: pi.id, cents }, 'card hold placed');
      return { rail: 'card', reference: pi.id, amount: cents * MICRO_PER_CENT };
    }
    // Anything else holds nothing we can capture: cancel it so it does not linger, and say why.
    await this.cancelQuietly(pi.id, req.orderId);
    const extra = { rail: 'card', payment_intent: pi.id, stripe_status: pi.status };
    this.log.info({ order_id: req.orderId, ...extra }, 'card payment not held');
    if (pi.status === 'requires_action') {
      throw new GatewayError(
        'payment_required',
        'The card asks for 3-D Secure authentication, which an order placed through the API cannot complete; the payment was canceled and nothing was charged. Use a card that needs no authentication, or pay with the prepaid balance or x402.',
        { extra },
      );
    }
    const why = pi.last_payment_error?.message ? ` (${this.scrub(pi.last_payment_error.message)})` : '';
    throw new GatewayError(
      'payment_required',
      `The card payment did not go through${why}; it was canceled and nothing was charged. Try another card, or pay with the prepaid balance or x402.`,
      { extra },
    );
  }

  async capture(hold: Hold, amount: number, orderId: string): Promise<{ reference: string }> {
    const cents = Math.min(toCents(amount), Math.round(hold.amount / MICRO_PER_CENT));
    if (cents <= 0) {
      // Capturing nothing gives the whole hold back.
      await this.release(hold, orderId);
      return { reference: hold.reference };
    }
    const stripe = await this.stripe();
    try {
      const pi = await stripe.paymentIntents.capture(
        hold.reference,
        { amount_to_capture: cents },
        { idempotencyKey: `order-capture-${orderId}` },
      );
      this.log.info({ order_id: orderId, payment_intent: pi.id, cents }, 'card hold captured');
      return { reference: pi.id };
    } catch (err) {
      if (stateConflict(err)) {
        const pi = await this.retrieve(hold.reference, 'capture');
        if (pi.status === 'succeeded') return { reference: pi.id };
        if (pi.status === 'canceled') {
          const expired = pi.cancellation_reason === 'automatic' ? ' (the authorisation expired at Stripe)' : '';
          throw new GatewayError('conflict', `The card hold ${pi.id} was already released${expired}; nothing can be captured.`, {
            extra: { rail: 'card', payment_intent: pi.id, stripe_status: pi.status },
          });
        }
      }
      throw this.failure(err, 'capture', orderId);
    }
  }

  async release(hold: Hold, orderId: string): Promise<void> {
    const stripe = await this.stripe();
    try {
      await stripe.paymentIntents.cancel(hold.reference, {}, { idempotencyKey: `order-release-${orderId}` });
      this.log.info({ order_id: orderId, payment_intent: hold.reference }, 'card hold released');
    } catch (err) {
      if (stateConflict(err)) {
        const pi = await this.retrieve(hold.reference, 'release');
        if (pi.status === 'canceled') return;
        if (pi.status === 'succeeded') {
          throw new GatewayError('conflict', `The card hold ${pi.id} was already captured; it can only be refunded now.`, {
            extra: { rail: 'card', payment_intent: pi.id, stripe_status: pi.status },
          });
        }
      }
      throw this.failure(err, 'release', orderId);
    }
  }

  private async retrieve(id: string, step: string): Promise<Stripe.PaymentIntent> {
    const stripe = await this.stripe();
    try {
      return await stripe.paymentIntents.retrieve(id);
    } catch (err) {
      throw this.failure(err, step, undefined);
    }
  }

  /** Cancels an intent that holds nothing usable; a failure only leaves it to expire at Stripe, so it is logged. */
  private async cancelQuietly(id: string, orderId: string): Promise<void> {
    const stripe = await this.stripe();
    try {
      await stripe.paymentIntents.cancel(id, {}, { idempotencyKey: `order-hold-cancel-${orderId}` });
    } catch (err) {
      if (stateConflict(err)) return; // already canceled (a replayed hold)
      this.log.warn({ order_id: orderId, payment_intent: id, stripe: this.describe(err) }, 'could not cancel an unusable card payment');
    }
  }

  /** What a failed hold answers: the card's refusal as a 402, our own trouble as 502/503. */
  private async holdRefused(err: unknown, orderId: string): Promise<GatewayError> {
    if (err instanceof S.StripeCardError) {
      // A declined confirmation leaves an intent waiting for another card: cancel it, it will get none.
      const leftover = err.payment_intent?.id;
      if (leftover) await this.cancelQuietly(leftover, orderId);
      this.log.info({ order_id: orderId, stripe: this.describe(err) }, 'card declined');
      return new GatewayError(
        'payment_required',
        `The card was declined: ${this.scrub(err.message)} Nothing was charged; try another card, or pay with the prepaid balance or x402.`,
        { extra: { rail: 'card', decline_code: err.decline_code ?? err.code ?? 'card_declined', stripe_code: err.code } },
      );
    }
    if (err instanceof S.StripeInvalidRequestError && (err.param === 'payment_method' || err.code === 'amount_too_large')) {
      // The caller's payment method (unknown, of another mode, unusable) or amount, not our request.
      this.log.info({ order_id: orderId, stripe: this.describe(err) }, 'card payment refused');
      return new GatewayError('payment_required', `Stripe did not accept this payment: ${this.scrub(err.message)} Nothing was charged.`, {
        extra: { rail: 'card', stripe_code: err.code },
      });
    }
    if (err instanceof S.StripeIdempotencyError) {
      return new GatewayError('conflict', 'A card payment was already attempted for this order with other details; nothing more was charged.', {
        extra: { rail: 'card' },
      });
    }
    const failed = this.failure(err, 'hold', orderId);
    return new GatewayError(failed.code, `${failed.message} Nothing was charged.`, { extra: failed.extra });
  }

  /** Stripe unreachable or failing → 502; our key refused → 503; anything else Stripe refused → 502 (and logged). */
  private failure(err: unknown, step: string, orderId: string | undefined): GatewayError {
    const extra = { rail: 'card' };
    if (err instanceof GatewayError) return err;
    if (err instanceof S.StripeAuthenticationError || err instanceof S.StripePermissionError) {
      this.log.error({ order_id: orderId, step, stripe: this.describe(err) }, 'Stripe refused the gateway key');
      return new GatewayError('unavailable', "Card payments are not available right now (Stripe refused this gateway's key).", { extra });
    }
    this.log.warn({ order_id: orderId, step, stripe: this.describe(err) }, 'Stripe call failed');
    if (err instanceof S.StripeError && err.statusCode !== undefined && err.statusCode < 500 && err.statusCode !== 429) {
      return new GatewayError('upstream_error', `Stripe refused the card ${step}.`, { extra: { ...extra, stripe_code: err.code } });
    }
    return new GatewayError('upstream_error', `Stripe could not be reached for the card ${step}; try again later.`, { extra });
  }

  /** A Stripe error as a log field: type, codes and request id, its message scrubbed of any key. */
  private describe(err: unknown): Record<string, unknown> {
    if (!(err instanceof S.StripeError)) return { message: this.scrub(String((err as Error)?.message ?? err)) };
    return {
      type: err.type,
      code: err.code,
      decline_code: err.decline_code,
      status: err.statusCode,
      request_id: err.requestId,
      message: this.scrub(err.message),
    };
  }

  private scrub(text: string): string {
    return text.split(this.secretKey).join('[redacted]').replace(KEY_PATTERN, '[redacted]');
  }
}

/** Dollars with at least the cents shown: 100_000 → "0.10", 1_500 → "0.0015". */
function usd(micro: number): string {
  const [whole, frac = ''] = microToUsd(micro).split('.');
  return `${whole}.${frac.padEnd(2, '0')}`;
}

/** Stripe refused because the intent is no longer in the state the call needs (or the key was used differently). */
function stateConflict(err: unknown): boolean {
  return (
    err instanceof S.StripeIdempotencyError ||
    (err instanceof S.StripeInvalidRequestError && err.code === 'payment_intent_unexpected_state')
  );
}
