// x402 without a chain: the discovery document, the payment info in /openapi.json, payments refused while
// decoding (before any chain access), and 503 when the payment network cannot be reached.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { payer } from './client.js';

const CONVERT = { value: '255', from_base: 10, to_base: 16 };
const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64');

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

async function challenge(base = gw.url): Promise<PaymentRequired> {
  const r = await api(base, 'POST', '/tools/base_convert', { body: CONVERT });
  expect(r.status).toBe(402);
  return decodePaymentRequiredHeader(r.headers.get('payment-required')!);
}

describe('GET /.well-known/x402', () => {
  it('lists every paid resource with the accepts of its 402 and the header names of v2 and v1', async () => {
    const r = await api(gw.url, 'GET', '/.well-known/x402');
    expect(r.status).toBe(200);
    const doc = r.body;
    expect(doc.version).toBe(2);
    expect(doc.headers.v2).toEqual({ payment: 'PAYMENT-SIGNATURE', required: 'PAYMENT-REQUIRED', response: 'PAYMENT-RESPONSE' });
    expect(doc.headers.v1).toEqual({ payment: 'X-PAYMENT', response: 'X-PAYMENT-RESPONSE' });
    expect(doc.payTo).toBe(gw.gateway.infra.wallet.address);
    const names = doc.resources.map((x: { tool: string }) => x.tool);
    expect(names).toEqual(expect.arrayContaining(['ansi_strip', 'base_convert', 'bitwise', 'business_days', 'card_brand', 'checksum_validate', 'rate_limit']));
    for (const res of doc.resources) expect(res.accepts[0].amount).toMatch(/^\d+$/);
    const bc = doc.resources.find((x: { tool: string }) => x.tool === 'base_convert');
    expect(bc).toMatchObject({ resource: `${gw.url}/tools/base_convert`, type: 'http', method: 'POST', description: expect.any(String), price: { usd: '0.001' } });
    expect(bc.accepts).toEqual((await challenge()).accepts);
  });

  it('carries the same payment info on the paid operations of /openapi.json', async () => {
    const spec = (await api(gw.url, 'GET', '/openapi.json')).body;
    const op = spec.paths['/tools/base_convert'].post;
    expect(op['x-payment-info']).toMatchObject({ protocols: ['x402'], x402Version: 2, price: { usd: '0.001' } });
    expect(op['x-payment-info'].accepts).toEqual((await challenge()).accepts);
    expect(op['x-payment-info'].headers.v1.payment).toBe('X-PAYMENT');
    expect(spec.paths['/.well-known/x402'].get).toBeDefined();
    expect(spec.paths['/agents/register']?.post?.['x-payment-info']).toBeUndefined();
  });

  it('declares the X-API-Key, PAYMENT-SIGNATURE and legacy X-PAYMENT headers on the payable operations only', async () => {
    const spec = (await api(gw.url, 'GET', '/openapi.json')).body;
    const headersOf = (op: { parameters: { name: string; in: string; deprecated?: boolean }[] }) => op.parameters.filter((p) => p.in === 'header');
    for (const path of ['/tools/base_convert', '/tools/rate_limit', '/batch']) {
      const op = spec.paths[path].post;
      expect(headersOf(op).map((p) => p.name), path).toEqual(['X-API-Key', 'PAYMENT-SIGNATURE', 'X-PAYMENT']);
      expect(headersOf(op).find((p) => p.name === 'X-PAYMENT')!.deprecated, path).toBe(true);
      expect(op.responses['402'], path).toBeDefined();
    }
    // A batch of free calls needs no credential: its security allows none.
    expect(spec.paths['/batch'].post.security).toContainEqual({});
    for (const [path, method] of [['/toolbelt/uuid', 'post'], ['/agents/register', 'post'], ['/wall', 'get']]) {
      expect(headersOf(spec.paths[path][method]), path).toEqual([]);
      expect(spec.paths[path][method].responses['402'], path).toBeUndefined();
    }
  });
});

describe('payments refused while decoding', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['garbage in PAYMENT-SIGNATURE', { 'payment-signature': 'not base64 at all!' }, /^Payment rejected: invalid_payload: the PAYMENT-SIGNATURE header is not base64-encoded JSON/],
    ['base64 of something else', { 'payment-signature': b64('hello') }, /invalid_payload: the PAYMENT-SIGNATURE header is not base64-encoded JSON/],
    ['a v1 payload in PAYMENT-SIGNATURE', { 'payment-signature': b64({ x402Version: 1, scheme: 'exact', network: 'base-sepolia', payload: {} }) }, /invalid_x402_version/],
    ['garbage in X-PAYMENT', { 'x-payment': '%%%' }, /invalid_payload: the X-PAYMENT header is not base64-encoded JSON/],
    ['a v1 payload for another network', { 'x-payment': b64({ x402Version: 1, scheme: 'exact', network: 'base', payload: {} }) }, /invalid_exact_evm_network_mismatch: wrong network: base is not eip155:84532/],
  ];
  it.each(cases)('%s: 402 with the challenge and the reason', async (_name, headers, reason) => {
    const r = await api(gw.url, 'POST', '/tools/base_convert', { body: CONVERT, headers });
    expect(r.status).toBe(402);
    expect(r.body.error).toMatch(reason);
    expect(r.body.accepts[0].amount).toBe('1000');
    expect(decodePaymentRequiredHeader(r.headers.get('payment-required')!).error).toBe(r.body.error);
  });

  it('names the field that is wrong in a v2 payload, and refuses Permit2 payloads', async () => {
    const pr = await challenge();
    const { payload } = await payer('payer').sign(pr);
    const bad = { ...payload, payload: { ...payload.payload, authorization: { ...(payload.payload as any).authorization, nonce: '0x12' } } };
    let r = await api(gw.url, 'POST', '/tools/base_convert', { body: CONVERT, headers: { 'payment-signature': b64(bad) } });
    expect(r.body.error).toMatch(/invalid_payload: payload\.authorization\.nonce: must be 32 bytes/);
    const permit2 = { ...payload, payload: { signature: '0x00', permit2Authorization: {} } };
    r = await api(gw.url, 'POST', '/tools/base_convert', { body: CONVERT, headers: { 'payment-signature': b64(permit2) } });
    expect(r.body.error).toMatch(/unsupported_payload_type/);
  });
});

describe('payment network unreachable', () => {
  it('answers 503, not a wrong reason, when the chain cannot be asked', async () => {
    const offline = await startGateway({
      env: {
        X402_NETWORK: 'eip155:1337',
        X402_RPC_URL: 'http://127.0.0.1:9',
        X402_ASSET: '0x00000000000000000000000000000000000000aa',
        X402_ASSET_NAME: 'Nothing',
        X402_ASSET_VERSION: '1',
      },
    });
    try {
      const { header } = await payer('payer').sign(await challenge(offline.url));
      const r = await api(offline.url, 'POST', '/tools/base_convert', { body: CONVERT, headers: { 'payment-signature': header } });
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('unavailable');
      // The claim was removed: the same payment may be presented again once the network is back.
      expect(await offline.gateway.db.all('SELECT * FROM x402_payments')).toEqual([]);
    } finally {
      await offline.cleanup();
    }
  });
});
