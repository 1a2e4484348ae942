// A small stand-in for the Stripe API on loopback, for the card rail's tests through the official `stripe` client:
// the PaymentIntent calls the rail makes (create with confirm, capture, cancel, retrieve), form-encoded bodies as
// the client sends them, Bearer key check, Idempotency-Key replay, and Stripe's error bodies (so the client raises
// its own error classes). Test payment methods behave as in Stripe's test mode:
//   pm_card_visa (and other pm_card_<brand>) → requires_capture
//   pm_card_chargeDeclined → 402 generic_decline · …InsufficientFunds → insufficient_funds
//   pm_card_chargeDeclinedExpiredCard → expired_card · …IncorrectCvc → incorrect_cvc
//   pm_card_authenticationRequired, pm_card_threeDSecureRequired, pm_card_threeDSecure2Required → requires_action
//   any other pm_… → 400 resource_missing on payment_method
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type IntentStatus = 'requires_payment_method' | 'requires_action' | 'requires_capture' | 'succeeded' | 'canceled';

export interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  currency: string;
  status: IntentStatus;
  capture_method: string;
  confirmation_method: 'automatic';
  payment_method: string | null;
  payment_method_types: string[];
  description: string | null;
  metadata: Record<string, string>;
  last_payment_error: Record<string, unknown> | null;
  next_action: Record<string, unknown> | null;
  cancellation_reason: string | null;
  canceled_at: number | null;
  created: number;
  livemode: false;
}

export interface StripeRequest {
  method: string;
  path: string;
  /** The form body decoded into nested objects and arrays, as Stripe reads it. */
  body: Record<string, unknown>;
  idempotencyKey?: string;
  /** True when the answer was a replay of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
  status: number;
  headers: http.IncomingHttpHeaders;
}

export interface FakeStripe {
  url: string;
  intents: Map<string, FakeIntent>;
  requests: StripeRequest[];
  /** Answers every request with this 5xx (Stripe's api_error) until set back to null. */
  failWith(status: number | null): void;
  close(): Promise<void>;
}

export interface FakeStripeOptions {
  /** The only key accepted; by default any sk_test_/rk_test_ key. */
  secretKey?: string;
}

const DECLINES: Record<string, { code: string; decline_code: string; message: string }> = {
  pm_card_chargeDeclined: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  pm_card_chargeDeclinedInsufficientFunds: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  pm_card_chargeDeclinedExpiredCard: { code: 'expired_card', decline_code: 'expired_card', message: 'Your card has expired.' },
  pm_card_chargeDeclinedIncorrectCvc: { code: 'incorrect_cvc', decline_code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
};
const AUTHENTICATION = new Set(['pm_card_authenticationRequired', 'pm_card_threeDSecureRequired', 'pm_card_threeDSecure2Required']);
const WORKING = /^pm_card_(visa|visa_debit|mastercard|mastercard_debit|amex|discover|diners|jcb|unionpay)$/;
const CANCELABLE: IntentStatus[] = ['requires_payment_method', 'requires_action', 'requires_capture'];

/** Stripe's form encoding (`a[b]=1&c[0]=x`) back into objects and arrays. */
export function parseForm(raw: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p, i) => i === 0 || p !== '');
    let node: any = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = node[part] ??= /^\d+$/.test(parts[i + 1]) ? [] : {};
    });
  }
  return root;
}

export async function startStripeServer(opts: FakeStripeOptions = {}): Promise<FakeStripe> {
  const intents = new Map<string, FakeIntent>();
  const requests: StripeRequest[] = [];
  const replies = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  let fault: number | null = null;
  let seq = 0;

  const stripeError = (status: number, error: Record<string, unknown>) => ({ status, body: { error } });
  const invalid = (message: string, extra: Record<string, unknown> = {}) =>
    stripeError(400, { type: 'invalid_request_error', message, ...extra });
  const unexpectedState = (pi: FakeIntent, verb: string, allowed: string) =>
    invalid(
      `This PaymentIntent could not be ${verb} because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be ${verb}: ${allowed}.`,
      { code: 'payment_intent_unexpected_state', payment_intent: { ...pi } },
    );

  function create(body: Record<string, any>): { status: number; body: unknown } {
    if (body.payment_method_types !== undefined) {
      return invalid('payment_method_types is no longer supported on this API version; use allowed_payment_method_types.', {
        code: 'payment_method_types_no_longer_supported',
        param: 'payment_method_types',
      });
    }
    const amount = Number(body.amount);
    if (!Number.isInteger(amount) || amount <= 0) return invalid('Invalid positive integer', { code: 'parameter_invalid_integer', param: 'amount' });
    if (body.currency !== 'usd') return invalid(`Invalid currency: ${body.currency}.`, { param: 'currency' });
    if (amount < 50) return invalid('Amount must be at least $0.50 usd', { code: 'amount_too_small', param: 'amount' });
    const pm = String(body.payment_method ?? '');
    if (pm && !DECLINES[pm] && !AUTHENTICATION.has(pm) && !WORKING.test(pm)) {
      return invalid(`No such PaymentMethod: '${pm}'`, { code: 'resource_missing', param: 'payment_method' });
    }
    const pi: FakeIntent = {
      id: `pi_fake${String(++seq).padStart(6, '0')}`,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      currency: 'usd',
      status: 'requires_payment_method',
      capture_method: body.capture_method ?? 'automatic_async',
      confirmation_method: 'automatic',
      payment_method: pm || null,
      payment_method_types: body.allowed_payment_method_types ?? ['card'],
      description: body.description ?? null,
      metadata: body.metadata ?? {},
      last_payment_error: null,
      next_action: null,
      cancellation_reason: null,
      canceled_at: null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    intents.set(pi.id, pi);
    if (body.confirm !== 'true' || !pm) return { status: 200, body: { ...pi } };
    const decline = DECLINES[pm];
    if (decline) {
      const err = { type: 'card_error', ...decline, doc_url: `https://stripe.com/docs/error-codes/${decline.code.replace(/_/g, '-')}` };
      pi.last_payment_error = { ...err, payment_method: { id: pm, object: 'payment_method', type: 'card' } };
      return stripeError(402, { ...err, payment_intent: { ...pi }, payment_method: { id: pm, object: 'payment_method', type: 'card' } });
    }
    if (AUTHENTICATION.has(pm)) {
      pi.status = 'requires_action';
      pi.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
    } else if (pi.capture_method === 'manual') {
      pi.status = 'requires_capture';
      pi.amount_capturable = amount;
    } else {
      pi.status = 'succeeded';
      pi.amount_received = amount;
    }
    return { status: 200, body: { ...pi } };
  }

  function capture(pi: FakeIntent, body: Record<string, any>): { status: number; body: unknown } {
    if (pi.status !== 'requires_capture') return unexpectedState(pi, 'captured', 'requires_capture');
    const want = body.amount_to_capture === undefined ? pi.amount_capturable : Number(body.amount_to_capture);
    if (!Number.isInteger(want) || want <= 0) return invalid('Invalid positive integer', { code: 'parameter_invalid_integer', param: 'amount_to_capture' });
    if (want > pi.amount_capturable) {
      return invalid(`The amount_to_capture (${want}) must be less than or equal to the amount_capturable (${pi.amount_capturable}).`, {
        param: 'amount_to_capture',
      });
    }
    Object.assign(pi, { status: 'succeeded', amount_received: want, amount_capturable: 0 });
    return { status: 200, body: { ...pi } };
  }

  function cancel(pi: FakeIntent, body: Record<string, any>): { status: number; body: unknown } {
    if (!CANCELABLE.includes(pi.status)) return unexpectedState(pi, 'canceled', CANCELABLE.join(', '));
    Object.assign(pi, {
      status: 'canceled',
      amount_capturable: 0,
      cancellation_reason: body.cancellation_reason ?? null,
      canceled_at: Math.floor(Date.now() / 1000),
      next_action: null,
    });
    return { status: 200, body: { ...pi } };
  }

  function route(method: string, path: string, body: Record<string, any>): { status: number; body: unknown } {
    if (method === 'POST' && path === '/v1/payment_intents') return create(body);
    const m = /^\/v1\/payment_intents\/([^/]+)(\/(capture|cancel))?$/.exec(path);
    if (m) {
      const pi = intents.get(decodeURIComponent(m[1]));
      if (!pi) return stripeError(404, { type: 'invalid_request_error', code: 'resource_missing', param: 'intent', message: `No such payment_intent: '${m[1]}'` });
      if (method === 'GET' && !m[2]) return { status: 200, body: { ...pi } };
      if (method === 'POST' && m[3] === 'capture') return capture(pi, body);
      if (method === 'POST' && m[3] === 'cancel') return cancel(pi, body);
    }
    return stripeError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

  function authorised(header: string | undefined): { status: number; body: unknown } | null {
    const key = /^Bearer (.+)$/.exec(header ?? '')?.[1];
    if (!key) return stripeError(401, { type: 'invalid_request_error', message: 'You did not provide an API key.' });
    const ok = opts.secretKey ? key === opts.secretKey : /^(sk|rk)_test_\S+$/.test(key);
    if (ok) return null;
    // Stripe echoes the key masked but for its last four characters.
    return stripeError(401, { type: 'invalid_request_error', message: `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}` });
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const body = parseForm(raw);
      const key = req.headers['idempotency-key'] as string | undefined;
      const send = (answer: { status: number; body: unknown }, replayed: boolean) => {
        requests.push({ method, path, body, idempotencyKey: key, replayed, status: answer.status, headers: req.headers });
        const headers: Record<string, string> = { 'content-type': 'application/json', 'request-id': `req_fake${requests.length}` };
        if (key) headers['idempotency-key'] = key;
        if (replayed) headers['idempotent-replayed'] = 'true';
        res.writeHead(answer.status, headers).end(JSON.stringify(answer.body));
      };

      const denied = authorised(req.headers.authorization);
      if (denied) return send(denied, false);
      if (fault !== null) return send(stripeError(fault, { type: 'api_error', message: 'An unknown error occurred' }), false);
      if (method === 'POST' && key) {
        const fingerprint = `${method} ${path} ${raw}`;
        const earlier = replies.get(key);
        if (earlier && earlier.fingerprint !== fingerprint) {
          return send(
            stripeError(400, {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            }),
            false,
          );
        }
        if (earlier) return send(earlier, true);
        const answer = route(method, path, body);
        replies.set(key, { fingerprint, ...answer });
        return send(answer, false);
      }
      send(route(method, path, body), false);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    intents,
    requests,
    failWith(status) {
      fault = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
