// The x402 order rail on a real local chain (ganache, the EIP-3009 test token), signed by the official x402
// client: an authorization is verified and claimed when the order is placed, settled on chain only on capture,
// released without touching the chain, and a hold outlives a restart (new instances over the same database).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import type { PaymentSettings } from '../../src/billing/challenge.js';
import { createX402, type X402 } from '../../src/billing/x402/index.js';
import { ManualClock } from '../../src/clock.js';
import type { HoldRequest } from '../../src/commerce/rails.js';
import { ORDER_TIMEOUT_SLACK_SECONDS, orderPaymentRequired, X402Rail } from '../../src/commerce/x402-rail.js';
import { GatewayError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import { paymentById } from '../../src/store/x402-ledger.js';
import { migratedDb, type MigratedDb } from '../helpers/migrated-db.js';
import { accountOf, CHAIN_ID, NETWORK, startChain, TOKEN_NAME, TOKEN_VERSION, type LocalChain, type Who } from '../x402/chain.js';
import { payer } from '../x402/client.js';

const WINDOW = 3600;
const AMOUNT = 250_000; // US$0.25
const service = accountOf('service').address;

let chain: LocalChain;
let store: MigratedDb;
let settings: PaymentSettings;
const instances: X402[] = [];

beforeAll(async () => {
  chain = await startChain({ fund: { payer: 10_000_000n, other: 1_000_000n, poor: 500n } });
  store = await migratedDb();
  settings = {
    network: NETWORK,
    chainId: CHAIN_ID,
    rpcUrl: chain.url,
    asset: chain.token,
    assetName: TOKEN_NAME,
    assetVersion: TOKEN_VERSION,
    decimals: 6,
    maxTimeoutSeconds: 60,
    verifyCacheSeconds: 10,
    confirmationTimeoutSeconds: 30,
    payTo: service,
  };
});
afterAll(async () => {
  for (const x of instances) x.close();
  await store?.remove();
  await chain?.stop();
});

/** One gateway process's x402 and its order rail; a second call is a restarted process on the same database. */
function gateway(clock = new ManualClock()) {
  const x402 = createX402({ db: store.db, clock, log: createLogger('silent'), account: accountOf('service'), settings, baseUrl: () => 'http://gw.test' });
  instances.push(x402);
  const rail = new X402Rail({ settings, windowSeconds: WINDOW, resourceUrl: (s) => `http://api.test/v1/orders/${s}`, payments: async () => x402.orders, clock });
  return { x402, rail, clock };
}

const challenge = (amount = AMOUNT): PaymentRequired =>
  orderPaymentRequired({ amount, settings, windowSeconds: WINDOW, url: 'http://api.test/v1/orders/copy.ad', description: 'Ad copy' });

const tamper = (pr: PaymentRequired, change: Record<string, unknown>): PaymentRequired => ({ ...pr, accepts: [{ ...pr.accepts[0], ...change }] });

async function sign(who: Who = 'payer', pr = challenge()): Promise<string> {
  return (await payer(who).sign(pr)).header;
}

let orders = 0;
function request(header: string, o: Partial<HoldRequest> = {}): [HoldRequest, { paymentSignature: string }] {
  const req: HoldRequest = {
    orderId: `ord_${++orders}`,
    accountId: 'acct_1',
    service: 'copy.ad',
    amount: AMOUNT,
    description: 'Ad copy',
    caller: { agent: null, badBearer: false, credentials: { ip: '127.0.0.1', transport: 'rest', paymentSignature: header } },
    meta: { headers: {}, meta: {} },
    capturableForMs: WINDOW * 1000,
    ...o,
  };
  return [req, { paymentSignature: header }];
}

const balances = async (who: Who = 'payer') => ({ payer: await chain.balanceOf(accountOf(who).address), payTo: await chain.balanceOf(service) });

/** The 402 a rail call threw: its status, body (the challenge) and PAYMENT-REQUIRED header agree. */
async function refused(p: Promise<unknown>): Promise<PaymentRequired> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  const g = err as GatewayError;
  expect(g.status).toBe(402);
  const pr = g.payment as unknown as PaymentRequired;
  expect(decodePaymentRequiredHeader(g.headers['PAYMENT-REQUIRED'])).toEqual(pr);
  expect(pr.accepts[0]).toMatchObject({ scheme: 'exact', network: NETWORK, amount: String(AMOUNT), payTo: service });
  return pr;
}

describe('x402 order rail', () => {
  it('advertises the order amount, the window (plus slack) and the service URL', () => {
    const pr = challenge();
    expect(pr).toMatchObject({
      x402Version: 2,
      resource: { url: 'http://api.test/v1/orders/copy.ad', description: 'Ad copy' },
      accepts: [{ scheme: 'exact', network: NETWORK, amount: '250000', asset: chain.token, payTo: service, maxTimeoutSeconds: WINDOW + ORDER_TIMEOUT_SLACK_SECONDS, extra: { name: TOKEN_NAME, version: TOKEN_VERSION } }],
    });
    const { rail } = gateway();
    expect(rail.chosen({ paymentSignature: 'x' })).toBe(true);
    expect(rail.chosen({ xPayment: 'x' })).toBe(true);
    expect(rail.chosen({ paymentMethod: 'pm_1' })).toBe(false);
  });

  it('holds without moving anything, then captures on chain exactly once', async () => {
    const { rail } = gateway();
    const before = await balances();
    const txs = await chain.txCount(service);
    const [req, p] = request(await sign());
    const hold = await rail.hold(req, p);
    expect(hold).toMatchObject({ rail: 'x402', reference: expect.stringMatching(/^pay_/), amount: AMOUNT });
    expect(req.meta.headers['Server-Timing']).toMatch(/^x402-verify;dur=/);
    const row = (await paymentById(store.db, hold.reference))!;
    expect(row).toMatchObject({ status: 'verified', tool: `order:${req.orderId}`, amount: '250000', tx_hash: null });
    expect(await balances()).toEqual(before);
    expect(await chain.authorizationState(accountOf('payer').address, row.nonce as `0x${string}`)).toBe(false);

    const captured = await rail.capture(hold, AMOUNT, req.orderId);
    expect(captured.reference).toMatch(/^0x[0-9a-f]{64}$/);
    const after = await balances();
    expect(before.payer - after.payer).toBe(BigInt(AMOUNT));
    expect(after.payTo - before.payTo).toBe(BigInt(AMOUNT));
    expect(await paymentById(store.db, hold.reference)).toMatchObject({ status: 'settled', tx_hash: captured.reference });
    expect(await chain.txCount(service)).toBe(txs + 1);

    // Capturing again (and twice at once) moves nothing more.
    const again = await Promise.all([rail.capture(hold, AMOUNT, req.orderId), rail.capture(hold, AMOUNT, req.orderId)]);
    expect(again).toEqual([captured, captured]);
    expect(await balances()).toEqual(after);
    expect(await chain.txCount(service)).toBe(txs + 1);
    // Released after capture: a no-op.
    await rail.release(hold, req.orderId);
    expect((await paymentById(store.db, hold.reference))!.status).toBe('settled');
  });

  it('releases without the chain; the authorization stays claimed and cannot be replayed', async () => {
    const { rail } = gateway();
    const before = await balances();
    const header = await sign();
    const [req, p] = request(header);
    const hold = await rail.hold(req, p);
    await rail.release(hold, req.orderId);
    await rail.release(hold, req.orderId);
    const row = (await paymentById(store.db, hold.reference))!;
    expect(row.status).toBe('released');
    expect(await chain.authorizationState(accountOf('payer').address, row.nonce as `0x${string}`)).toBe(false);
    expect(await balances()).toEqual(before);

    const pr = await refused(rail.hold(...request(header)));
    expect(pr.error).toMatch(/^Payment rejected: invalid_exact_evm_nonce_already_used/);
    const failed = await refused(rail.capture(hold, AMOUNT, req.orderId));
    expect(failed.error).toMatch(/^Settlement failed: the hold was released/);
    expect(await balances()).toEqual(before);
  });

  it('refuses a replayed authorization with 402, in the pay-per-call format', async () => {
    const { rail } = gateway();
    const header = await sign();
    await rail.hold(...request(header));
    const pr = await refused(rail.hold(...request(header)));
    expect(pr.error).toMatch(/^Payment rejected: invalid_exact_evm_nonce_already_used: nonce already used/);
    expect(pr.resource.url).toBe('http://api.test/v1/orders/copy.ad');
  });

  it('refuses a wrong amount, a short authorization and an unfunded payer, claiming nothing', async () => {
    const { rail } = gateway();
    const before = await balances();
    let pr = await refused(rail.hold(...request(await sign('payer', tamper(challenge(), { amount: '249999' })))));
    expect(pr.error).toMatch(/invalid_exact_evm_payload_authorization_value_mismatch: wrong amount: 249999 offered, the price is 250000/);
    // Signed for ten minutes less than the window.
    const short = await sign('payer', tamper(challenge(), { maxTimeoutSeconds: WINDOW - 600 }));
    pr = await refused(rail.hold(...request(short)));
    expect(pr.error).toMatch(/invalid_exact_evm_payload_authorization_valid_before: the order needs an authorization valid for at least 3606 seconds/);
    expect(pr.accepts[0].maxTimeoutSeconds).toBe(WINDOW + ORDER_TIMEOUT_SLACK_SECONDS);
    // Valid for the window, but the order asks for longer.
    pr = await refused(rail.hold(...request(await sign(), { capturableForMs: 2 * WINDOW * 1000 })));
    expect(pr.error).toMatch(/valid for at least 7206 seconds/);
    expect(pr.accepts[0].maxTimeoutSeconds).toBe(2 * WINDOW + ORDER_TIMEOUT_SLACK_SECONDS);
    pr = await refused(rail.hold(...request(await sign('poor'))));
    expect(pr.error).toMatch(/invalid_exact_evm_insufficient_balance/);
    expect(await balances()).toEqual(before);
  });

  it('a failed settlement answers 402 and leaves the hold failed, nothing charged', async () => {
    const { rail } = gateway();
    const before = await balances('other');
    const [req, p] = request(await sign('other'));
    const hold = await rail.hold(req, p);
    // The payer moves its tokens away before delivery.
    await chain.transferByAuthorization('other', accountOf('deployer').address, before.payer);
    const pr = await refused(rail.capture(hold, AMOUNT, req.orderId));
    expect(pr.error).toMatch(/^Settlement failed: invalid_exact_evm_insufficient_balance/);
    expect((await paymentById(store.db, hold.reference))!.status).toBe('failed');
    expect(await chain.balanceOf(service)).toBe(before.payTo);
    await rail.release(hold, req.orderId); // the engine releases a failed order: a no-op here
    expect((await paymentById(store.db, hold.reference))!.status).toBe('failed');
  });

  it('a hold survives a restart: recovery leaves it alone while valid, and another process captures it', async () => {
    const first = gateway();
    const [req, p] = request(await sign());
    const hold = await first.rail.hold(req, p);
    first.x402.close();
    const before = await balances();

    const second = gateway();
    const summary = await second.x402.recover();
    // Waiting order holds are not even checked (no chain call at start-up for them).
    expect(summary).toMatchObject({ checked: 0, released: 0, abandoned: 0 });
    expect((await paymentById(store.db, hold.reference))!.status).toBe('verified');
    // The order row keeps the hold as JSON; the restarted engine reads it back.
    const stored = JSON.parse(JSON.stringify(hold)) as typeof hold;
    const captured = await second.rail.capture(stored, AMOUNT, req.orderId);
    const after = await balances();
    expect(before.payer - after.payer).toBe(BigInt(AMOUNT));
    expect(await paymentById(store.db, hold.reference)).toMatchObject({ status: 'settled', tx_hash: captured.reference });
  });

  it('a capture that died after broadcasting is finished by another process, charged once', async () => {
    const first = gateway();
    const [req, p] = request(await sign());
    const hold = await first.rail.hold(req, p);
    const before = await balances();
    let reached!: () => void;
    const parked = new Promise<void>((resolve) => (reached = resolve));
    first.x402.hooks.afterBroadcast = async () => {
      reached();
      await new Promise<never>(() => undefined); // the process "dies" here
    };
    void first.rail.capture(hold, AMOUNT, req.orderId);
    await parked;
    const row = (await paymentById(store.db, hold.reference))!;
    expect(row.status).toBe('settling');
    expect(row.tx_hash).toMatch(/^0x/);

    const second = gateway();
    const captured = await second.rail.capture(hold, AMOUNT, req.orderId);
    expect(captured.reference).toBe(row.tx_hash);
    expect((await paymentById(store.db, hold.reference))!.status).toBe('settled');
    const after = await balances();
    expect(before.payer - after.payer).toBe(BigInt(AMOUNT));
    expect(after.payTo - before.payTo).toBe(BigInt(AMOUNT));
  });

  it('recovery releases an order hold whose authorization expired unsettled', async () => {
    const first = gateway();
    const [req, p] = request(await sign());
    const hold = await first.rail.hold(req, p);
    const row = (await paymentById(store.db, hold.reference))!;
    const before = await balances();

    const later = gateway(new ManualClock((row.valid_before + 1) * 1000));
    const summary = await later.x402.recover();
    expect(summary.released).toBeGreaterThanOrEqual(1);
    expect(await paymentById(store.db, hold.reference)).toMatchObject({ status: 'released', error: expect.stringMatching(/expired before delivery/) });
    const pr = await refused(later.rail.capture(hold, AMOUNT, req.orderId));
    expect(pr.error).toMatch(/^Settlement failed: the hold was released/);
    expect(await balances()).toEqual(before);
    expect(await chain.authorizationState(accountOf('payer').address, row.nonce as `0x${string}`)).toBe(false);
  });
});
