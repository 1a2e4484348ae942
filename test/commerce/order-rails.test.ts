// Every rail of commercial orders end to end, through the HTTP API at {api_url} only: x402 on a real local chain
// (ganache, the EIP-3009 test token) signed by the official x402 client from the order's 402, cards through the
// loopback Stripe fake, the prepaid balance across a gateway restart in the middle of an order, and the signed
// webhook of a delivered order. The language model is the scripted OpenAI-compatible server on loopback.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { verifyWebhookSignature } from '../../src/egress/webhook.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/store/open.js';
import { paymentsByPayer } from '../../src/store/x402-ledger.js';
import { orderKind } from '../../tools/commercial/work.js';
import { api, startGateway, storeEnv, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { creditAccount, orderSettles, revenueKey as key, signUp } from '../helpers/commerce.js';
import { startScriptedLlm, type RecordedRequest, type Scripted, type ScriptedLlm } from '../helpers/scripted-llm.js';
import { startStripeServer, type FakeStripe, type FakeIntent } from '../helpers/stripe-server.js';
import { accountOf, NETWORK, startChain, type LocalChain } from '../x402/chain.js';
import { payer } from '../x402/client.js';
import { adsReply } from './content-fixtures.js';

const OPERATOR = 'operator-token-for-order-rails-test';
const STRIPE_KEY = 'sk_test_51OrderRailsSecretKey0123456789abcdef';
/** An ad order: $5. */
const AD = { type: 'ad', brief: 'A same-day courier in town', platform: 'Facebook' };
const PRICE = 5_000_000;
/** Three replies that miss the ad's shape: the content attempts (3 by default) all fail. */
const GARBAGE: Scripted[] = ['nothing useful', 'still nothing', 'no variations at all'];

let llm: ScriptedLlm;
/** Replies taken before the prompt-driven one (failures and delays are scripted with them). */
const queued: Scripted[] = [];

function reply(_req: RecordedRequest): Scripted {
  return queued.shift() ?? adsReply();
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY: '100', LLM_BASE_URL: llm.url, LLM_MODEL: llm.model, ...extra };
}

const signup = (gw: TestGateway, email: string) => signUp(gw, email, 'Rails Co');
const credit = (gw: TestGateway, email: string, amount: number) => creditAccount(gw, email, amount, { operatorToken: OPERATOR, reason: 'invoice paid' });

const getOrder = async (gw: TestGateway, k: string, id: string) => (await api(gw.apiUrl, 'GET', `/orders/${id}`, { headers: key(k) })).body;

const settled = (gw: TestGateway, k: string, id: string, status: string) => orderSettles(gw, k, id, status);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  llm = await startScriptedLlm((req) => reply(req));
});
afterAll(async () => {
  await llm?.close();
});

describe('x402 on a local chain', () => {
  let chain: LocalChain;
  let gw: TestGateway;
  let k: string;
  const service = accountOf('service').address;
  const p = payer('payer');
  /** PAYMENT-SIGNATURE headers used for orders, to replay. */
  const used: { captured?: string; released?: string } = {};

  const balances = async () => ({ payer: await chain.balanceOf(p.address), payTo: await chain.balanceOf(service), txs: await chain.txCount(service) });

  /** The 402 of an unfunded order: its body is the x402 v2 challenge, the same as the PAYMENT-REQUIRED header. */
  async function challenge(): Promise<PaymentRequired> {
    const r = await api(gw.apiUrl, 'POST', '/copy/orders', { body: AD, headers: key(k) });
    expect(r.status).toBe(402);
    const pr = decodePaymentRequiredHeader(r.headers.get('payment-required')!);
    expect(r.body.x402Version).toBe(2);
    expect(r.body.accepts).toEqual(pr.accepts);
    return pr;
  }

  const placeWith = (header: string) => api(gw.apiUrl, 'POST', '/copy/orders', { body: AD, headers: { ...key(k), 'payment-signature': header } });

  beforeAll(async () => {
    chain = await startChain({ fund: { payer: 20_000_000n } });
    gw = await startGateway({ env: env(chain.env()) });
    k = await signup(gw, 'x402@example.com');
  });
  afterAll(async () => {
    await gw?.cleanup();
    await chain?.stop();
  });

  it('answers an unfunded order with the challenge for its price, on this chain, to the service wallet', async () => {
    const r = await api(gw.apiUrl, 'POST', '/copy/orders', { body: AD, headers: key(k) });
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ x402Version: 2, price: { usd: '5', micro_usd: PRICE } });
    expect(r.body.rails).toEqual(expect.arrayContaining(['credits', 'x402']));
    expect(r.body.accepts).toHaveLength(1);
    expect(r.body.accepts[0]).toMatchObject({ scheme: 'exact', network: NETWORK, amount: String(PRICE), asset: chain.token, payTo: service });
    expect(r.body.resource.url).toBe(`${gw.apiUrl}/copy/orders`);
    expect((await api(gw.apiUrl, 'GET', '/orders', { headers: key(k) })).body.orders).toEqual([]);
  });

  it('holds a signed authorization without touching the chain, then settles exactly the price once on delivery', async () => {
    const pr = await challenge();
    const { header, payload } = await p.sign(pr);
    const nonce = (payload.payload as any).authorization.nonce as `0x${string}`;
    const before = await balances();
    // The model answers late, so the order is seen held before it is delivered.
    queued.push({ content: adsReply(), delayMs: 1000 });
    const placed = await placeWith(header);
    expect(placed.status).toBe(202);
    expect(placed.body).toMatchObject({ service: 'copy.ad', status: expect.stringMatching(/^(placed|working)$/), payment: { rail: 'x402', state: 'held', held_micro_usd: PRICE } });
    used.captured = header;
    // Verified and claimed, nothing moved.
    expect(await balances()).toEqual(before);
    expect(await chain.authorizationState(p.address, nonce)).toBe(false);
    const held = await getOrder(gw, k, placed.body.order_id);
    expect(held.payment).toMatchObject({ rail: 'x402', state: 'held' });

    const done = await settled(gw, k, placed.body.order_id, 'delivered');
    expect(done.payment).toMatchObject({ rail: 'x402', state: 'captured', charged_micro_usd: PRICE });
    expect(done.result.variations).toHaveLength(5);
    const after = await balances();
    expect(before.payer - after.payer).toBe(BigInt(PRICE));
    expect(after.payTo - before.payTo).toBe(BigInt(PRICE));
    // One settlement transaction, by the service wallet.
    expect(after.txs - before.txs).toBe(1);
    expect(await chain.authorizationState(p.address, nonce)).toBe(true);
    const rows = (await paymentsByPayer(gw.gateway.db, p.address)).filter((r) => r.tool === `order:${placed.body.order_id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'settled', amount: String(PRICE), network: NETWORK });
    // Nothing settles twice: a later look changes nothing.
    await gw.gateway.registry.services.scheduler.runDue();
    expect(await balances()).toEqual(after);
  });

  it('fails an order whose replies keep missing the shape: released, nothing moves on chain', async () => {
    const pr = await challenge();
    const { header, payload } = await p.sign(pr);
    const nonce = (payload.payload as any).authorization.nonce as `0x${string}`;
    const before = await balances();
    queued.push(...GARBAGE);
    const placed = await placeWith(header);
    expect(placed.status).toBe(202);
    expect(placed.body.payment).toMatchObject({ rail: 'x402', state: 'held' });
    used.released = header;
    const failed = await settled(gw, k, placed.body.order_id, 'failed');
    expect(failed.payment).toMatchObject({ rail: 'x402', state: 'released', charged_micro_usd: 0 });
    expect(failed.result).toBeNull();
    expect(await balances()).toEqual(before);
    expect(await chain.authorizationState(p.address, nonce)).toBe(false);
    const rows = (await paymentsByPayer(gw.gateway.db, p.address)).filter((r) => r.tool === `order:${placed.body.order_id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe('released');
  });

  it('takes the payment in the legacy X-PAYMENT header too', async () => {
    const { header } = await p.sign(await challenge());
    const before = await balances();
    const placed = await api(gw.apiUrl, 'POST', '/copy/orders', { body: AD, headers: { ...key(k), 'x-payment': header } });
    expect(placed.status).toBe(202);
    expect(placed.body.payment).toMatchObject({ rail: 'x402', state: 'held' });
    const done = await settled(gw, k, placed.body.order_id, 'delivered');
    expect(done.payment).toMatchObject({ rail: 'x402', state: 'captured', charged_micro_usd: PRICE });
    const after = await balances();
    expect(before.payer - after.payer).toBe(BigInt(PRICE));
    expect(after.txs - before.txs).toBe(1);
  });

  it('refuses a replayed PAYMENT-SIGNATURE for a new order with 402, creating no order and moving nothing', async () => {
    const before = await balances();
    const orders = (await api(gw.apiUrl, 'GET', '/orders', { headers: key(k) })).body.orders.length;
    for (const header of [used.captured!, used.released!]) {
      const r = await placeWith(header);
      expect(r.status).toBe(402);
      expect(r.body.error).toMatchObject({ code: 'payment_required', message: expect.stringMatching(/nonce_already_used/) });
      expect(r.body.accepts[0]).toMatchObject({ amount: String(PRICE), payTo: service });
      expect(decodePaymentRequiredHeader(r.headers.get('payment-required')!).error).toMatch(/nonce_already_used/);
    }
    expect((await api(gw.apiUrl, 'GET', '/orders', { headers: key(k) })).body.orders).toHaveLength(orders);
    expect(await balances()).toEqual(before);
  });

  it('refuses a card order on a gateway without STRIPE_SECRET_KEY with 402 saying cards are not configured', async () => {
    const seen = llm.requests.length;
    const r = await api(gw.apiUrl, 'POST', '/copy/orders', { body: { ...AD, payment_method: 'pm_card_visa' }, headers: key(k) });
    expect(r.status).toBe(402);
    expect(r.body.error.code).toBe('payment_required');
    expect(r.body.error.message).toMatch(/Card payments \(STRIPE_SECRET_KEY\) are not configured/);
    expect(r.body.error.rails).not.toContain('card');
    expect(llm.requests.length).toBe(seen);
  });
});

describe('cards through Stripe (loopback fake)', () => {
  let stripe: FakeStripe;
  let gw: TestGateway;
  let k: string;

  const intentOf = (orderId: string): FakeIntent | undefined => [...stripe.intents.values()].find((pi) => pi.metadata.order_id === orderId);
  const card = (pm: string, extra: Record<string, unknown> = {}) =>
    api(gw.apiUrl, 'POST', '/copy/orders', { body: { ...AD, payment_method: pm, ...extra }, headers: key(k) });

  beforeAll(async () => {
    stripe = await startStripeServer({ secretKey: STRIPE_KEY });
    gw = await startGateway({ env: env({ STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_API_BASE: stripe.url }) });
    k = await signup(gw, 'card@example.com');
  });
  afterAll(async () => {
    await gw?.cleanup();
    await stripe?.close();
  });

  it('authorises with manual capture on placement and captures $5.00 on delivery', async () => {
    queued.push({ content: adsReply(), delayMs: 800 });
    const placed = await card('pm_card_visa');
    expect(placed.status).toBe(202);
    expect(placed.body.payment).toMatchObject({ rail: 'card', state: 'held', held_micro_usd: PRICE });
    const id = placed.body.order_id as string;
    const pi = intentOf(id)!;
    expect(pi).toMatchObject({ status: 'requires_capture', amount: 500, amount_capturable: 500, amount_received: 0, capture_method: 'manual', currency: 'usd', payment_method: 'pm_card_visa' });
    expect(pi.metadata).toMatchObject({ order_id: id, service: 'copy.ad' });

    const done = await settled(gw, k, id, 'delivered');
    expect(done.payment).toMatchObject({ rail: 'card', state: 'captured', charged_micro_usd: PRICE });
    expect(intentOf(id)).toMatchObject({ status: 'succeeded', amount_received: 500, amount_capturable: 0 });
    const captures = stripe.requests.filter((r) => r.path === `/v1/payment_intents/${pi.id}/capture`);
    expect(captures).toHaveLength(1);
    // The prepaid balance is not touched by a card order.
    const usage = (await api(gw.apiUrl, 'GET', '/usage', { headers: key(k) })).body;
    expect(usage.balance).toBe(0);
  });

  it('cancels the intent of an order whose replies keep missing the shape', async () => {
    queued.push(...GARBAGE);
    const placed = await card('pm_card_visa');
    expect(placed.status).toBe(202);
    const id = placed.body.order_id as string;
    const failed = await settled(gw, k, id, 'failed');
    expect(failed.payment).toMatchObject({ rail: 'card', state: 'released', charged_micro_usd: 0 });
    expect(intentOf(id)).toMatchObject({ status: 'canceled', amount_received: 0, amount_capturable: 0 });
  });

  it('cancels the intent of an order canceled before it is made, and never captures the late result', async () => {
    queued.push({ content: adsReply(), delayMs: 700 });
    const placed = await card('pm_card_visa');
    expect(placed.status).toBe(202);
    const id = placed.body.order_id as string;
    expect(intentOf(id)?.status).toBe('requires_capture');
    const canceled = await api(gw.apiUrl, 'POST', `/orders/${id}/cancel`, { headers: key(k) });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', payment: { state: 'released' } });
    expect(intentOf(id)).toMatchObject({ status: 'canceled', amount_received: 0 });
    await sleep(1000);
    expect(await getOrder(gw, k, id)).toMatchObject({ status: 'canceled', result: null, payment: { state: 'released', charged_micro_usd: 0 } });
    expect(intentOf(id)).toMatchObject({ status: 'canceled', amount_received: 0 });
    expect(stripe.requests.filter((r) => r.path.endsWith('/capture'))).toHaveLength(1); // the first test's only
  });

  it('answers a declined card with 402 and creates no order', async () => {
    const before = (await api(gw.apiUrl, 'GET', '/orders', { headers: key(k) })).body.orders.length;
    const seen = llm.requests.length;
    const r = await card('pm_card_chargeDeclined');
    expect(r.status).toBe(402);
    expect(JSON.stringify(r.body)).toMatch(/declined/);
    expect(JSON.stringify(r.body)).not.toContain(STRIPE_KEY);
    expect((await api(gw.apiUrl, 'GET', '/orders', { headers: key(k) })).body.orders).toHaveLength(before);
    expect(llm.requests.length).toBe(seen);
    // The declined intent holds nothing.
    const declined = [...stripe.intents.values()].filter((pi) => pi.payment_method === 'pm_card_chargeDeclined');
    expect(declined.length).toBeGreaterThan(0);
    for (const pi of declined) expect(pi.amount_received).toBe(0);
  });
});

describe('a restart in the middle of an order (prepaid balance)', () => {
  let first: TestGateway | undefined;
  let second: TestGateway | undefined;

  afterAll(async () => {
    await first?.stop();
    await second?.cleanup();
  });

  it('delivers the order after the restart with one hold, one capture, and the balance charged once', async () => {
    // A short grace: the stop does not wait for the model's late reply, as a process that dies would not.
    first = await startGateway({ env: env({ GATEWAY_SHUTDOWN_GRACE_MS: '50' }) });
    const k = await signup(first, 'restart@example.com');
    await credit(first, 'restart@example.com', 12_000_000);
    const seen = llm.requests.length;
    queued.push({ content: adsReply(), delayMs: 1500 });
    const placed = await api(first.apiUrl, 'POST', '/copy/orders', { body: AD, headers: key(k) });
    expect(placed.status).toBe(202);
    const id = placed.body.order_id as string;
    // The work has started (the model was asked) but has no reply yet.
    await eventually(async () => expect(llm.requests.length).toBe(seen + 1));
    await first.stop();
    // Stopped in the middle: the order is being worked on, nothing made, the price held and not captured.
    const db = await openDatabase(loadConfig({ GATEWAY_DATA_DIR: first.dataDir, ...storeEnv(first.dataDir) }));
    try {
      expect(await db.get('SELECT status, produced_at, payment_state FROM orders WHERE id = ?', [id])).toEqual({ status: 'working', produced_at: null, payment_state: 'held' });
      expect(await db.all('SELECT kind FROM account_ledger WHERE reference = ?', [id])).toEqual([{ kind: 'hold' }]);
    } finally {
      await db.close();
    }

    second = await startGateway({ dataDir: first.dataDir, env: env() });
    // A lease the old process still held is taken over once it lapses.
    second.clock.advance(orderKind.leaseMs + 1000);
    await second.gateway.registry.services.scheduler.runDue();
    const done = await settled(second, k, id, 'delivered');
    expect(done.payment).toMatchObject({ rail: 'credits', state: 'captured', charged_micro_usd: PRICE });
    expect(done.result.variations).toHaveLength(5);
    // The new process asked the model again.
    expect(llm.requests.length).toBeGreaterThanOrEqual(seen + 2);
    // The first process's late reply lands after this and must change nothing.
    await sleep(1800);
    await second.gateway.registry.services.scheduler.runDue();

    const usage = (await api(second.apiUrl, 'GET', '/usage', { headers: key(k) })).body;
    expect(usage.balance).toBe(12_000_000 - PRICE);
    expect(usage.captured).toMatchObject({ micro_usd: PRICE, charges: 1 });
    expect(usage.held).toMatchObject({ micro_usd: 0 });
    const rows = await second.gateway.db.all<{ kind: string; amount: number; delta: number }>(
      'SELECT kind, amount, delta FROM account_ledger WHERE reference = ? ORDER BY id',
      [id],
    );
    expect(rows).toEqual([
      { kind: 'hold', amount: PRICE, delta: -PRICE },
      { kind: 'capture', amount: PRICE, delta: 0 },
    ]);
    expect(await getOrder(second, k, id)).toMatchObject({ status: 'delivered', payment: { state: 'captured' } });
  });
});

describe('the webhook of an order', () => {
  let gw: TestGateway;
  let receiver: http.Server;
  let hookUrl: string;
  const received: { headers: http.IncomingHttpHeaders; raw: string }[] = [];

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (raw += c));
      req.on('end', () => {
        received.push({ headers: req.headers, raw });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/orders`;
    gw = await startGateway({ env: env({ GATEWAY_EGRESS_ALLOW: '127.0.0.1/32' }) });
  });
  afterAll(async () => {
    await gw?.cleanup();
    await new Promise((r) => receiver.close(r));
  });

  it('POSTs order.delivered signed with the secret shown once in the 202', async () => {
    const k = await signup(gw, 'hook@example.com');
    await credit(gw, 'hook@example.com', 5_000_000);
    const placed = await api(gw.apiUrl, 'POST', '/copy/orders', { body: { ...AD, webhook_url: hookUrl }, headers: key(k) });
    expect(placed.status).toBe(202);
    const secret = placed.body.webhook_secret as string;
    expect(secret).toMatch(/^whsec_/);
    const id = placed.body.order_id as string;
    // Shown once: never in the order as read later.
    await settled(gw, k, id, 'delivered');
    expect(JSON.stringify(await getOrder(gw, k, id))).not.toContain(secret);

    const hook = await eventually(async () => {
      const h = received.find((r) => JSON.parse(r.raw).order?.order_id === id);
      if (!h) throw new Error('no webhook yet');
      return h;
    }, 10_000);
    const body = JSON.parse(hook.raw);
    expect(body.event).toBe('order.delivered');
    expect(body.order).toMatchObject({ order_id: id, status: 'delivered', payment: { rail: 'credits', state: 'captured', charged_micro_usd: PRICE } });
    expect(hook.headers['content-type']).toMatch(/application\/json/);
    const timestamp = hook.headers['x-gateway-timestamp'] as string;
    const signature = hook.headers['x-gateway-signature'] as string;
    expect(timestamp).toMatch(/^\d+$/);
    // HMAC-SHA256 over "<timestamp>.<body>", the raw bytes received.
    const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${hook.raw}`).digest('hex')}`;
    expect(signature).toBe(expected);
    expect(verifyWebhookSignature(secret, timestamp, hook.raw, signature, 300, Math.floor(gw.clock.now() / 1000))).toBe(true);
    expect(verifyWebhookSignature('whsec_someone-else', timestamp, hook.raw, signature, 300, Math.floor(gw.clock.now() / 1000))).toBe(false);
    expect(received.filter((r) => JSON.parse(r.raw).order?.order_id === id)).toHaveLength(1);
  });
});
