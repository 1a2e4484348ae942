// x402 pay-per-call end to end on a real local chain (ganache) with the project's EIP-3009 test token: the
// official @x402/fetch client pays for POST /tools/base_convert, the gateway verifies with its local
// facilitator and settles from its own wallet. Balances are read from the chain, outcomes from the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { paymentsByPayer } from '../../src/store/x402-ledger.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';
import { accountOf, NETWORK, startChain, type LocalChain } from './chain.js';
import { payer, type Payer } from './client.js';

const CONVERT = { value: '255', from_base: 10, to_base: 16 };
const PRICE = 1000n;

let chain: LocalChain;
let gw: TestGateway;
const service = accountOf('service').address;

beforeAll(async () => {
  chain = await startChain({ fund: { payer: 10_000_000n, other: 1_000_000n, poor: 500n } });
  gw = await startGateway({ env: chain.env() });
});
afterAll(async () => {
  await gw?.cleanup();
  await chain?.stop();
});

const post = (base: string, headers: Record<string, string> = {}, body: unknown = CONVERT) =>
  fetch(`${base}/tools/base_convert`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

async function challenge(base = gw.url): Promise<PaymentRequired> {
  const r = await post(base);
  expect(r.status).toBe(402);
  return decodePaymentRequiredHeader(r.headers.get('payment-required')!);
}

const payFetch = (p: Payer, body: unknown = CONVERT) =>
  p.fetch(`${gw.url}/tools/base_convert`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const balances = async (p: { address: `0x${string}` }) => ({ payer: await chain.balanceOf(p.address), payTo: await chain.balanceOf(service) });

const rowsOf = (base: TestGateway, p: { address: string }) => paymentsByPayer(base.gateway.db, p.address);

/** A copy of the challenge with its one accepts entry changed (to make the client sign something wrong). */
const tamper = (pr: PaymentRequired, change: Record<string, unknown>): PaymentRequired => ({ ...pr, accepts: [{ ...pr.accepts[0], ...change }] });

describe('REST with the official @x402/fetch client', () => {
  it('pays for a calculator: the result, a PAYMENT-RESPONSE receipt, and 1000 atomic units moved on chain', async () => {
    const p = payer('payer');
    const before = await balances(p);
    const r = await payFetch(p);
    expect(r.status).toBe(200);
    expect((await r.json() as any).value).toBe('ff');
    const receipt = decodePaymentResponseHeader(r.headers.get('payment-response')!);
    expect(receipt).toEqual({ success: true, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/), network: NETWORK, payer: p.address });
    expect(r.headers.get('server-timing')).toMatch(/x402-verify;dur=[\d.]+;desc="(warm|cold)", x402-settle;dur=[\d.]+/);
    const after = await balances(p);
    expect(before.payer - after.payer).toBe(PRICE);
    expect(after.payTo - before.payTo).toBe(PRICE);
    const rows = await rowsOf(gw, p);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'settled', tx_hash: receipt.transaction, amount: '1000', tool: 'base_convert', network: NETWORK, x402_version: 2 });
    expect(rows[0].verify_ms).toBeGreaterThan(0);
    const nonce = rows[0].nonce as `0x${string}`;
    expect(await chain.authorizationState(p.address, nonce)).toBe(true);
  });

  it('rejects a replay of the same payment with 402 and moves nothing', async () => {
    const p = payer('payer');
    expect((await payFetch(p)).status).toBe(200);
    const used = p.sent.at(-1)!;
    const before = await balances(p);
    const r = await post(gw.url, { 'payment-signature': used });
    expect(r.status).toBe(402);
    const body = (await r.json()) as any;
    expect(body.error).toMatch(/^Payment rejected: invalid_exact_evm_nonce_already_used: nonce already used/);
    expect(body.accepts[0].amount).toBe('1000');
    expect(decodePaymentRequiredHeader(r.headers.get('payment-required')!).error).toBe(body.error);
    expect(await balances(p)).toEqual(before);
  });

  it('lets exactly one of several simultaneous uses of one payment through', async () => {
    const p = payer('payer');
    const { header } = await p.sign(await challenge());
    const before = await balances(p);
    const all = await Promise.all(Array.from({ length: 6 }, () => post(gw.url, { 'payment-signature': header })));
    const statuses = all.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 402, 402, 402, 402, 402]);
    for (const r of all.filter((x) => x.status === 402)) expect((await r.json() as any).error).toMatch(/nonce_already_used/);
    const after = await balances(p);
    expect(before.payer - after.payer).toBe(PRICE);
    expect(after.payTo - before.payTo).toBe(PRICE);
  });

  it('refuses a wrong amount, a wrong payTo and an expired authorization, each with its reason', async () => {
    const p = payer('payer');
    const pr = await challenge();
    const before = await balances(p);
    const other = accountOf('other').address;

    const cheap = await p.sign(tamper(pr, { amount: '999' }));
    let r = await post(gw.url, { 'payment-signature': cheap.header });
    expect(r.status).toBe(402);
    expect((await r.json() as any).error).toMatch(/invalid_exact_evm_payload_authorization_value_mismatch: wrong amount: 999 offered, the price is 1000/);

    // The accepted requirements copied right, the signed authorization still for 999.
    const sneaky = { ...cheap.payload, accepted: pr.accepts[0] };
    r = await post(gw.url, { 'payment-signature': Buffer.from(JSON.stringify(sneaky)).toString('base64') });
    expect((await r.json() as any).error).toMatch(/wrong amount: the authorization pays 999/);

    const elsewhere = await p.sign(tamper(pr, { payTo: other }));
    r = await post(gw.url, { 'payment-signature': elsewhere.header });
    expect(r.status).toBe(402);
    expect((await r.json() as any).error).toMatch(/invalid_exact_evm_recipient_mismatch: wrong payTo/);

    // validBefore = now + 1 s: already inside the settlement margin, so expired for the gateway.
    const late = await p.sign(tamper(pr, { maxTimeoutSeconds: 1 }));
    r = await post(gw.url, { 'payment-signature': late.header });
    expect(r.status).toBe(402);
    expect((await r.json() as any).error).toMatch(/invalid_exact_evm_payload_authorization_valid_before: expired/);

    // A good payment that expires while it waits: the gateway clock moves past validBefore.
    const good = await p.sign(pr);
    gw.clock.advance(400_000);
    try {
      r = await post(gw.url, { 'payment-signature': good.header });
      expect(r.status).toBe(402);
      expect((await r.json() as any).error).toMatch(/expired/);
    } finally {
      gw.clock.advance(-400_000);
    }

    // A forged signature (another key signs for the payer).
    const forged = await payer('other').sign(pr);
    const asPayer = { ...forged.payload, payload: { ...forged.payload.payload, authorization: { ...(forged.payload.payload as any).authorization, from: p.address } } };
    r = await post(gw.url, { 'payment-signature': Buffer.from(JSON.stringify(asPayer)).toString('base64') });
    expect(r.status).toBe(402);
    expect((await r.json() as any).error).toMatch(/invalid_exact_evm_signature/);

    expect(await balances(p)).toEqual(before);
  });

  it('refuses a payer whose balance is below the price (insufficient funds), leaving no ledger row', async () => {
    const poor = payer('poor');
    const r = await payFetch(poor);
    expect(r.status).toBe(402);
    expect((await r.json() as any).error).toMatch(/invalid_exact_evm_insufficient_balance: insufficient_funds/);
    expect(await chain.balanceOf(poor.address)).toBe(500n);
    expect(await rowsOf(gw, poor)).toEqual([]);
  });

  it('does not settle when the tool fails (422): balances unchanged, the ledger row released', async () => {
    const p = payer('payer');
    const before = await balances(p);
    const r = await payFetch(p, { value: '19', from_base: 8, to_base: 2 });
    expect(r.status).toBe(422);
    expect(r.headers.get('payment-response')).toBeNull();
    expect(await balances(p)).toEqual(before);
    const row = (await rowsOf(gw, p)).at(-1)!;
    expect(row.status).toBe('released');
    expect(row.tx_hash).toBeNull();
    expect(await chain.authorizationState(p.address, row.nonce as `0x${string}`)).toBe(false);
  });

  it('withholds the result when settlement fails: 402 with a PAYMENT-RESPONSE saying success:false', async () => {
    const drained = payer('other');
    const before = await balances(drained);
    // Between verification and settlement the payer moves its tokens elsewhere.
    gw.gateway.infra.x402.hooks.beforeSettle = async () => {
      gw.gateway.infra.x402.hooks.beforeSettle = undefined;
      await chain.transferByAuthorization('other', accountOf('deployer').address, before.payer);
    };
    const r = await payFetch(drained);
    expect(r.status).toBe(402);
    const body = (await r.json()) as any;
    expect(body.value).toBeUndefined();
    expect(body.error).toMatch(/^Settlement failed \(invalid_exact_evm_insufficient_balance/);
    expect(body['x402/payment-response']).toMatchObject({ success: false, errorReason: 'invalid_exact_evm_insufficient_balance', network: NETWORK, payer: drained.address });
    expect(decodePaymentResponseHeader(r.headers.get('payment-response')!)).toEqual(body['x402/payment-response']);
    expect(await chain.balanceOf(service)).toBe(before.payTo);
    expect((await rowsOf(gw, drained)).map((x) => x.status)).toEqual(['failed']);
  });
});

describe('legacy v1 X-PAYMENT', () => {
  it('accepts {x402Version:1, scheme, network, payload} and answers with X-PAYMENT-RESPONSE', async () => {
    const p = payer('payer');
    const { payload } = await p.sign(await challenge());
    const v1 = { x402Version: 1, scheme: 'exact', network: NETWORK, payload: payload.payload };
    const before = await balances(p);
    const r = await post(gw.url, { 'x-payment': Buffer.from(JSON.stringify(v1)).toString('base64') });
    expect(r.status).toBe(200);
    expect(r.headers.get('payment-response')).toBeNull();
    expect(decodePaymentResponseHeader(r.headers.get('x-payment-response')!)).toMatchObject({ success: true, network: NETWORK, payer: p.address });
    expect(before.payer - (await balances(p)).payer).toBe(PRICE);
    expect((await rowsOf(gw, p)).at(-1)).toMatchObject({ status: 'settled', x402_version: 1 });
  });
});

describe('MCP: payment in _meta["x402/payment"], receipt in _meta["x402/payment-response"]', () => {
  it('pays a tools/call with the official MCP client', async () => {
    const p = payer('payer');
    const client = new Client({ name: 'x402-payer', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`)));
    const unpaid = (await client.callTool({ name: 'base_convert', arguments: CONVERT })) as any;
    expect(unpaid.isError).toBe(true);
    const pr = unpaid.structuredContent as PaymentRequired;
    expect(pr.resource.url).toBe('mcp://tool/base_convert');
    const payment = await p.client.createPaymentPayload(pr);
    const before = await balances(p);
    const paid = (await client.callTool({ name: 'base_convert', arguments: CONVERT, _meta: { 'x402/payment': payment } })) as any;
    expect(paid.isError).toBeFalsy();
    expect(paid.structuredContent.value).toBe('ff');
    expect(paid._meta['x402/payment-response']).toEqual({ success: true, transaction: expect.stringMatching(/^0x/), network: NETWORK, payer: p.address });
    expect(before.payer - (await balances(p)).payer).toBe(PRICE);
    const replay = (await client.callTool({ name: 'base_convert', arguments: CONVERT, _meta: { 'x402/payment': payment } })) as any;
    expect(replay.isError).toBe(true);
    expect(replay.structuredContent.error).toMatch(/nonce_already_used/);
    await client.close();
  });
});

describe('crash between verification and settlement, recovered at start-up', () => {
  /** Starts a gateway whose settlement stops for good at a hook; returns once the call is parked there. */
  async function parkAt(hook: 'beforeSettle' | 'afterBroadcast', p: Payer) {
    const first = await startGateway({ env: chain.env({ GATEWAY_SHUTDOWN_GRACE_MS: '100' }) });
    let reached!: () => void;
    const parked = new Promise<void>((resolve) => (reached = resolve));
    first.gateway.infra.x402.hooks[hook] = async () => {
      reached();
      await new Promise<never>(() => undefined); // the process "dies" here
    };
    const { header } = await p.sign(await challenge(first.url));
    const call = post(first.url, { 'payment-signature': header }).catch((err: unknown) => err);
    await parked;
    expect((await rowsOf(first, p)).at(-1)!.status).toBe(hook === 'beforeSettle' ? 'verified' : 'settling');
    await first.stop();
    expect(await call).toBeInstanceOf(Error); // the client never got a result
    return { first, header };
  }

  it('a payment claimed but never settled is abandoned: nothing charged, and it cannot be used again', async () => {
    const p = payer('payer');
    const before = await balances(p);
    const { first, header } = await parkAt('beforeSettle', p);
    const second = await startGateway({ env: chain.env(), dataDir: first.dataDir });
    try {
      const row = (await rowsOf(second, p)).at(-1)!;
      expect(row.status).toBe('abandoned');
      expect(await chain.authorizationState(p.address, row.nonce as `0x${string}`)).toBe(false);
      expect(await balances(p)).toEqual(before);
      const again = await post(second.url, { 'payment-signature': header });
      expect(again.status).toBe(402);
      expect((await again.json() as any).error).toMatch(/nonce_already_used/);
      expect(await balances(p)).toEqual(before);
    } finally {
      await second.cleanup();
    }
  });

  it('a settlement broadcast before the crash is recovered from its receipt: charged exactly once', async () => {
    const p = payer('payer');
    const before = await balances(p);
    const txsBefore = await chain.txCount(service);
    const { first, header } = await parkAt('afterBroadcast', p);
    const second = await startGateway({ env: chain.env(), dataDir: first.dataDir });
    try {
      const row = (await rowsOf(second, p)).at(-1)!;
      expect(row.status).toBe('recovered');
      expect(row.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await chain.authorizationState(p.address, row.nonce as `0x${string}`)).toBe(true);
      const again = await post(second.url, { 'payment-signature': header });
      expect(again.status).toBe(402);
      const after = await balances(p);
      expect(before.payer - after.payer).toBe(PRICE);
      expect(after.payTo - before.payTo).toBe(PRICE);
      expect(await chain.txCount(service)).toBe(txsBefore + 1);
    } finally {
      await second.cleanup();
    }
  });
});
