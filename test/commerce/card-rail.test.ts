// The card rail against a loopback Stripe (test/helpers/stripe-server.ts) through the official `stripe` client:
// holds authorised with manual capture, captured in full or in part, released; idempotent steps; and every way a
// card payment is refused, with nothing held and the secret key in no error and no log line.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CardRail } from '../../src/commerce/card-rail.js';
import type { HoldRequest } from '../../src/commerce/rails.js';
import { GatewayError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import type { CallMeta, Caller } from '../../src/registry/call-types.js';
import { startStripeServer, type FakeStripe } from '../helpers/stripe-server.js';

const KEY = 'sk_test_51CardRailSecretKey0123456789abcdef';
const caller: Caller = { agent: null, badBearer: false, credentials: { ip: '127.0.0.1', transport: 'rest' } };
const DAY = 86_400_000;

let stripe: FakeStripe;
let logLines: string[] = [];
let seq = 0;

function rail(key = KEY, base?: string): CardRail {
  const log = createLogger('debug', { write: (line: string) => void logLines.push(line) });
  return new CardRail({ secretKey: key, apiBase: new URL(base ?? stripe.url) }, log);
}

function order(amount: number, over: Partial<HoldRequest> = {}): HoldRequest {
  const meta: CallMeta = { headers: {}, meta: {} };
  return {
    orderId: `ord_${++seq}`,
    accountId: 'acct_1',
    service: 'copy.ad',
    amount,
    description: 'Ad copy: three variants',
    caller,
    meta,
    capturableForMs: DAY,
    ...over,
  };
}

/** The error a promise rejects with, checked to be a GatewayError that names no key. */
async function refusal(p: Promise<unknown>): Promise<GatewayError> {
  const err = await p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  const g = err as GatewayError;
  const shown = `${g.message} ${JSON.stringify(g.toBody())}`;
  expect(shown).not.toContain(KEY);
  expect(shown).not.toMatch(/sk_(test|live)_/);
  return g;
}

beforeAll(async () => {
  stripe = await startStripeServer();
});
afterAll(async () => {
  await stripe.close();
});
afterEach(() => {
  stripe.failWith(null);
  // No log line, whatever happened, carries the key.
  expect(logLines.join('\n')).not.toContain(KEY);
});

describe('card rail', () => {
  it('is chosen when a payment method is sent', () => {
    const r = rail();
    expect(r.name).toBe('card');
    expect(r.chosen({ paymentMethod: 'pm_card_visa' })).toBe(true);
    expect(r.chosen({})).toBe(false);
    expect(r.chosen({ paymentSignature: 'x' })).toBe(false);
  });

  it('holds with a manual-capture PaymentIntent, rounded up to the cent, then captures it in full', async () => {
    const r = rail();
    const req = order(1_234_567); // $1.234567 → 124 cents
    const hold = await r.hold(req, { paymentMethod: 'pm_card_visa' });
    expect(hold).toEqual({ rail: 'card', reference: expect.stringMatching(/^pi_/), amount: 1_240_000 });

    const created = stripe.requests.find((q) => q.path === '/v1/payment_intents' && q.idempotencyKey === `order-hold-${req.orderId}`)!;
    expect(created.body).toEqual({
      amount: '124',
      currency: 'usd',
      capture_method: 'manual',
      confirm: 'true',
      payment_method: 'pm_card_visa',
      allowed_payment_method_types: ['card'],
      description: 'Ad copy: three variants',
      metadata: { order_id: req.orderId, account_id: 'acct_1', service: 'copy.ad' },
    });
    expect(created.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(stripe.intents.get(hold.reference)).toMatchObject({ status: 'requires_capture', amount_capturable: 124, amount_received: 0 });

    expect(await r.capture(hold, hold.amount, req.orderId)).toEqual({ reference: hold.reference });
    expect(stripe.intents.get(hold.reference)).toMatchObject({ status: 'succeeded', amount_received: 124 });
    const cap = stripe.requests.find((q) => q.path === `/v1/payment_intents/${hold.reference}/capture`)!;
    expect(cap).toMatchObject({ idempotencyKey: `order-capture-${req.orderId}`, body: { amount_to_capture: '124' } });
  });

  it('captures part of a hold; the rest goes back to the card', async () => {
    const r = rail();
    const req = order(5_000_000);
    const hold = await r.hold(req, { paymentMethod: 'pm_card_mastercard' });
    expect(hold.amount).toBe(5_000_000);
    await r.capture(hold, 1_230_001, req.orderId); // 123.0001 cents → 124
    expect(stripe.intents.get(hold.reference)).toMatchObject({ status: 'succeeded', amount: 500, amount_received: 124, amount_capturable: 0 });
  });

  it('never captures more than it holds', async () => {
    const r = rail();
    const req = order(600_000);
    const hold = await r.hold(req, { paymentMethod: 'pm_card_visa' });
    await r.capture(hold, 9_000_000, req.orderId);
    expect(stripe.intents.get(hold.reference)).toMatchObject({ status: 'succeeded', amount_received: 60 });
  });

  it('captures idempotently: twice in a row, and again after the key was used with another amount', async () => {
    const r = rail();
    const req = order(2_000_000);
    const hold = await r.hold(req, { paymentMethod: 'pm_card_visa' });
    expect(await r.capture(hold, 1_000_000, req.orderId)).toEqual({ reference: hold.reference });
    expect(await r.capture(hold, 1_000_000, req.orderId)).toEqual({ reference: hold.reference });
    // A different amount under the same key: Stripe refuses the key, the intent is already captured → no-op.
    expect(await r.capture(hold, 2_000_000, req.orderId)).toEqual({ reference: hold.reference });
    expect(stripe.intents.get(hold.reference)).toMatchObject({ status: 'succeeded', amount_received: 100 });
    const caps = stripe.requests.filter((q) => q.path.endsWith(`${hold.reference}/capture`));
    expect(caps.map((q) => [q.status, q.replayed])).toEqual([
      [200, false],
      [200, true],
      [400, false],
    ]);
  });

  it('a hold placed twice for one order is one PaymentIntent', async () => {
    const r = rail();
    const req = order(700_000);
    const a = await r.hold(req, { paymentMethod: 'pm_card_visa' });
    const b = await r.hold(req, { paymentMethod: 'pm_card_visa' });
    expect(b).toEqual(a);
    expect([...stripe.intents.values()].filter((pi) => pi.metadata.order_id === req.orderId)).toHaveLength(1);
  });

  it('releases a hold, idempotently, and a released hold cannot be captured', async () => {
    const r = rail();
    const req = order(990_000);
    const hold = await r.hold(req, { paymentMethod: 'pm_card_visa' });
    await r.release(hold, req.orderId);
    await r.release(hold, req.orderId);
    expect(stripe.intents.get(hold.reference)).toMatchObject({ status: 'canceled', amount_received: 0, amount_capturable: 0 });
    const cancels = stripe.requests.filter((q) => q.path.endsWith(`${hold.reference}/cancel`));
    expect(cancels.map((q) => q.idempotencyKey)).toEqual([`order-release-${req.orderId}`, `order-release-${req.orderId}`]);

    // From another process, whose first cancel answer Stripe no longer replays: still a no-op.
    await rail().release(hold, `${req.orderId}-elsewhere`);
    const err = await refusal(r.capture(hold, hold.amount, `${req.orderId}-late`));
    expect(err.code).toBe('conflict');
    expect(stripe.intents.get(hold.reference)!.status).toBe('canceled');
  });

  it('a captured hold is not released', async () => {
    const r = rail();
    const req = order(800_000);
    const hold = await r.hold(req, { paymentMethod: 'pm_card_visa' });
    await r.capture(hold, hold.amount, req.orderId);
    const err = await refusal(r.release(hold, req.orderId));
    expect(err.code).toBe('conflict');
    expect(stripe.intents.get(hold.reference)).toMatchObject({ status: 'succeeded', amount_received: 80 });
  });

  it.each([
    ['pm_card_chargeDeclined', 'generic_decline', 'Your card was declined.'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds', 'Your card has insufficient funds.'],
    ['pm_card_chargeDeclinedExpiredCard', 'expired_card', 'Your card has expired.'],
  ])('a declined card (%s) is a 402 with Stripe’s reason, and nothing is held', async (pm, declineCode, message) => {
    const req = order(1_000_000);
    const err = await refusal(rail().hold(req, { paymentMethod: pm }));
    expect(err.status).toBe(402);
    expect(err.code).toBe('payment_required');
    expect(err.message).toContain(message);
    expect(err.message).toMatch(/nothing was charged/i);
    expect(err.extra).toMatchObject({ rail: 'card', decline_code: declineCode });
    const mine = [...stripe.intents.values()].filter((pi) => pi.metadata.order_id === req.orderId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: 'canceled', amount_capturable: 0, amount_received: 0 });
  });

  it('a card that asks for 3-D Secure is a 402 and its intent is canceled', async () => {
    for (const pm of ['pm_card_authenticationRequired', 'pm_card_threeDSecureRequired']) {
      const req = order(1_000_000);
      const err = await refusal(rail().hold(req, { paymentMethod: pm }));
      expect(err.status).toBe(402);
      expect(err.message).toMatch(/3-D Secure/);
      expect(err.message).toMatch(/nothing was charged/i);
      expect(err.extra).toMatchObject({ stripe_status: 'requires_action', payment_intent: expect.stringMatching(/^pi_/) });
      expect(stripe.intents.get(err.extra.payment_intent as string)).toMatchObject({ status: 'canceled', amount_received: 0 });
    }
  });

  it('an order that rounds up to 50 cents is held', async () => {
    const hold = await rail().hold(order(490_001), { paymentMethod: 'pm_card_visa' }); // 49.0001 cents → 50
    expect(hold.amount).toBe(500_000);
  });

  it('an order under Stripe’s 50-cent minimum is refused before Stripe is called', async () => {
    const before = stripe.requests.length;
    const err = await refusal(rail().hold(order(490_000), { paymentMethod: 'pm_card_visa' })); // exactly 49 cents
    expect(err.status).toBe(402);
    expect(err.message).toMatch(/\$0\.49/);
    expect(err.message).toMatch(/prepaid balance or x402/);
    expect(stripe.requests.length).toBe(before);
  });

  it('an order that may outlast a card hold (7 days) is refused', async () => {
    const err = await refusal(rail().hold(order(1_000_000, { capturableForMs: 8 * DAY }), { paymentMethod: 'pm_card_visa' }));
    expect(err.status).toBe(402);
    expect(err.message).toMatch(/7 days/);
  });

  it('a malformed payment method id is a 422 on body.payment_method', async () => {
    for (const pm of ['', 'card_visa', 'pm_', 'pm_card visa', 'tok_visa', `pm_${'x'.repeat(300)}`]) {
      const err = await refusal(rail().hold(order(1_000_000), { paymentMethod: pm }));
      expect(err.status).toBe(422);
      expect(err.code).toBe('validation_error');
      expect(err.detail?.[0].loc).toEqual(['body', 'payment_method']);
    }
  });

  it('an unknown payment method is a 402 with Stripe’s words', async () => {
    const err = await refusal(rail().hold(order(1_000_000), { paymentMethod: 'pm_1NoSuchMethod' }));
    expect(err.status).toBe(402);
    expect(err.message).toContain("No such PaymentMethod: 'pm_1NoSuchMethod'");
  });

  it('Stripe unreachable is a 502 and nothing is held', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await refusal(rail(KEY, `http://127.0.0.1:${port}`).hold(order(1_000_000), { paymentMethod: 'pm_card_visa' }));
    expect(err.status).toBe(502);
    expect(err.code).toBe('upstream_error');
    expect(err.message).toMatch(/nothing was charged/i);
  }, 20_000);

  it('Stripe failing (5xx) is a 502, retried first, and nothing is held', async () => {
    stripe.failWith(500);
    const before = stripe.requests.length;
    const req = order(1_000_000);
    const err = await refusal(rail().hold(req, { paymentMethod: 'pm_card_visa' }));
    expect(err.status).toBe(502);
    expect(stripe.requests.length - before).toBe(3); // the first try and 2 retries, under one key
    expect(new Set(stripe.requests.slice(before).map((q) => q.idempotencyKey))).toEqual(new Set([`order-hold-${req.orderId}`]));
    expect([...stripe.intents.values()].some((pi) => pi.metadata.order_id === req.orderId)).toBe(false);
  }, 20_000);

  it('a capture while Stripe fails is a 502 and can be retried', async () => {
    const r = rail();
    const req = order(1_000_000);
    const hold = await r.hold(req, { paymentMethod: 'pm_card_visa' });
    stripe.failWith(503);
    expect((await refusal(r.capture(hold, hold.amount, req.orderId))).status).toBe(502);
    stripe.failWith(null);
    await r.capture(hold, hold.amount, req.orderId);
    expect(stripe.intents.get(hold.reference)).toMatchObject({ status: 'succeeded', amount_received: 100 });
  }, 20_000);

  it('a key Stripe refuses is a 503 that names no key', async () => {
    const live = 'sk_live_51SomeoneElsesKeyabcdef0123456789';
    const err = await refusal(rail(live).hold(order(1_000_000), { paymentMethod: 'pm_card_visa' }));
    expect(err.status).toBe(503);
    expect(stripe.requests.at(-1)).toMatchObject({ status: 401, path: '/v1/payment_intents' });
    expect(err.message).not.toContain(live.slice(-4));
    expect(logLines.join('\n')).not.toContain(live);
  });
});
