// A batch paid with x402 on a real local chain (ganache, the project's EIP-3009 test token): without a key the
// batch answers 402 with the challenge for the sum of its paid calls, the official @x402/fetch client pays it,
// the gateway settles that sum once from its own wallet and runs every call. Balances come from the chain,
// outcomes from the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { paymentsByPayer } from '../../src/store/x402-ledger.js';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { accountOf, NETWORK, startChain, type LocalChain } from './chain.js';
import { payer, type Payer } from './client.js';

/** Two calculator calls at $0.001 (1000 atomic units) each and one free utility. */
const CALLS = [
  { tool: 'base_convert', input: { value: '255', from_base: 10, to_base: 16 } },
  { tool: 'card_brand', input: { number: '4111 1111 1111 1111' } },
  { tool: 'slugify', input: { text: 'Paid Batch' } },
];
const PRICE = 2000n;

let chain: LocalChain;
let gw: TestGateway;
const service = accountOf('service').address;

beforeAll(async () => {
  chain = await startChain({ fund: { payer: 10_000_000n } });
  gw = await startGateway({ env: chain.env() });
});
afterAll(async () => {
  await gw?.cleanup();
  await chain?.stop();
});

const body = (calls: unknown[] = CALLS) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ calls }) });
const post = (calls: unknown[] = CALLS, headers: Record<string, string> = {}) =>
  fetch(`${gw.url}/batch`, { ...body(calls), headers: { 'content-type': 'application/json', ...headers } });
const balances = async (p: { address: `0x${string}` }) => ({ payer: await chain.balanceOf(p.address), payTo: await chain.balanceOf(service) });
const rowsOf = (p: { address: string }) => paymentsByPayer(gw.gateway.db, p.address);

async function challenge(calls: unknown[] = CALLS): Promise<PaymentRequired> {
  const r = await post(calls);
  expect(r.status).toBe(402);
  return decodePaymentRequiredHeader(r.headers.get('payment-required')!);
}

describe('POST /batch paid with x402', () => {
  it('the official client pays the 402 for the summed price; every call runs and the sum moves on chain once', async () => {
    const p: Payer = payer('payer');
    const before = await balances(p);
    const r = await p.fetch(`${gw.url}/batch`, body());
    expect(r.status).toBe(200);
    const out = (await r.json()) as any;
    expect(out.results.map((i: { error: unknown }) => i.error)).toEqual([null, null, null]);
    expect(out.results[0].result.value).toBe('ff');
    expect(out.results[1].result).toMatchObject({ brand: 'visa', valid: true });
    expect(out.results[2].result.slug).toBe('paid-batch');
    const receipt = decodePaymentResponseHeader(r.headers.get('payment-response')!);
    expect(receipt).toEqual({ success: true, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/), network: NETWORK, payer: p.address });
    const after = await balances(p);
    expect(before.payer - after.payer).toBe(PRICE);
    expect(after.payTo - before.payTo).toBe(PRICE);
    const rows = await rowsOf(p);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'settled', tool: 'batch', amount: '2000', tx_hash: receipt.transaction });
  });

  it('refuses a replay of the same payment and a payment for one call instead of the batch, moving nothing', async () => {
    const p = payer('payer');
    const { header: used } = await p.sign(await challenge());
    expect((await post(CALLS, { 'payment-signature': used })).status).toBe(200);
    const before = await balances(p);
    const replay = await post(CALLS, { 'payment-signature': used });
    expect(replay.status).toBe(402);
    expect(((await replay.json()) as any).error).toMatch(/nonce_already_used/);
    // A challenge for a single calculator call (1000) does not pay a batch priced 2000.
    const single = await fetch(`${gw.url}/tools/base_convert`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CALLS[0].input) });
    const one = await p.sign(decodePaymentRequiredHeader(single.headers.get('payment-required')!));
    const short = await post(CALLS, { 'payment-signature': one.header });
    expect(short.status).toBe(402);
    expect(((await short.json()) as any).error).toMatch(/wrong amount: 1000 offered, the price is 2000/);
    expect(await balances(p)).toEqual(before);
  });

  it('charges nothing when no paid call succeeds: the items say why and the payment is released', async () => {
    const p = payer('payer');
    const failing = [
      { tool: 'base_convert', input: { value: '19', from_base: 8, to_base: 2 } },
      { tool: 'card_brand', input: { number: '4111', extra: 1 } },
      { tool: 'slugify', input: { text: 'Still Free' } },
    ];
    const pr = await challenge(failing);
    expect(pr.accepts[0].amount).toBe('2000');
    const { header } = await p.sign(pr);
    const before = await balances(p);
    const r = await post(failing, { 'payment-signature': header });
    expect(r.status).toBe(200);
    const out = (await r.json()) as any;
    expect(out.results.map((i: any) => i.error?.status ?? 'ok')).toEqual([422, 422, 'ok']);
    expect(r.headers.get('payment-response')).toBeNull();
    expect(await balances(p)).toEqual(before);
    const row = (await rowsOf(p)).at(-1)!;
    expect(row).toMatchObject({ status: 'released', tool: 'batch', tx_hash: null });
    expect(await chain.authorizationState(p.address, row.nonce as `0x${string}`)).toBe(false);
  });

  it('a key with quota still pays per call without any payment', async () => {
    const key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'batch-x402@example.com' } })).body.key;
    const r = await api(gw.url, 'POST', '/batch', { headers: { 'x-api-key': key }, body: { calls: CALLS } });
    expect(r.status).toBe(200);
    expect(r.headers.get('payment-response')).toBeNull();
    expect((await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } })).body.used).toBe(2);
  });
});
