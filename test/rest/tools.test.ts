import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let key: string;
beforeAll(async () => {
  gw = await startGateway();
  key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'tools@example.com' } })).body.key;
});
afterAll(async () => gw.cleanup());

const CALCULATORS = ['ansi_strip', 'base_convert', 'bitwise', 'business_days', 'card_brand', 'checksum_validate', 'rate_limit'];
const convert = { value: '255', from_base: 10, to_base: 16 };

describe('GET /tools', () => {
  it('lists exactly the calculators with schemas and prices, and says it is not the whole surface', async () => {
    const r = await api(gw.url, 'GET', '/tools');
    expect(r.status).toBe(200);
    expect(r.body.tools.map((t: { name: string }) => t.name).sort()).toEqual(CALCULATORS);
    expect(r.body.count).toBe(CALCULATORS.length);
    expect(r.body.complete).toBe(false);
    expect(r.body.note).toMatch(/not the full tool surface/i);
    expect(r.body.full_surface.mcp).toBe(`${gw.url}/mcp`);
    const bc = r.body.tools.find((t: { name: string }) => t.name === 'base_convert');
    expect(bc.input_schema.type).toBe('object');
    expect(bc.input_schema.properties.from_base).toBeDefined();
    expect(bc.price).toMatchObject({ usd: '0.001', amount: '1000', decimals: 6, network: 'eip155:84532' });
  });
});

describe('POST /tools/{name}', () => {
  it.each(['gen_image', 'research', 'browse', 'memory', 'coach', 'vault_login', 'agent_register', 'uuid', 'batch', 'nope'])(
    '%s is not in the catalogue: 404',
    async (name) => {
      const r = await api(gw.url, 'POST', `/tools/${name}`, { body: {}, headers: { 'x-api-key': key } });
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    },
  );

  it('answers 402 with the x402 v2 challenge, header and body alike, checked field by field', async () => {
    const r = await api(gw.url, 'POST', '/tools/base_convert', { body: convert });
    expect(r.status).toBe(402);
    const header = r.headers.get('payment-required')!;
    const decoded = decodePaymentRequiredHeader(header);
    expect(JSON.parse(Buffer.from(header, 'base64').toString())).toEqual(r.body);
    expect(decoded.x402Version).toBe(2);
    expect(decoded.error).toMatch(/X-API-Key|payment/i);
    expect(decoded.resource).toEqual({ url: `${gw.url}/tools/base_convert`, description: expect.any(String), mimeType: 'application/json' });
    expect(decoded.accepts).toHaveLength(1);
    const a = decoded.accepts[0];
    const wallet = gw.gateway.infra.wallet.address;
    expect(a).toEqual({
      scheme: 'exact',
      network: 'eip155:84532',
      amount: '1000',
      asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
      payTo: wallet,
      maxTimeoutSeconds: 300,
      extra: { name: 'USDC', version: '2' },
    });
  });

  it('an unknown key also gets the 402, saying the key is not valid', async () => {
    const r = await api(gw.url, 'POST', '/tools/base_convert', { body: convert, headers: { 'x-api-key': 'agk_live_not-a-real-key' } });
    expect(r.status).toBe(402);
    expect(r.body.error).toMatch(/not valid/);
  });

  it('runs with a valid key, counting quota in X-RateLimit headers', async () => {
    const r = await api(gw.url, 'POST', '/tools/base_convert', { body: convert, headers: { 'x-api-key': key } });
    expect(r.status).toBe(200);
    expect(r.body.value).toBe('ff');
    expect(r.headers.get('x-ratelimit-limit')).toBe('10000');
    const remaining = Number(r.headers.get('x-ratelimit-remaining'));
    const again = await api(gw.url, 'POST', '/tools/base_convert', { body: convert, headers: { 'x-api-key': key } });
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
    expect(Number(again.headers.get('x-ratelimit-reset'))).toBe(Date.UTC(2026, 11, 1) / 1000);
  });

  it('validation errors are 422 with body locations and cost no quota', async () => {
    const before = (await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } })).body.used;
    const r = await api(gw.url, 'POST', '/tools/base_convert', { body: { value: '12', from_base: 1, to_base: 2 }, headers: { 'x-api-key': key } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'from_base']);
    const bad = await api(gw.url, 'POST', '/tools/base_convert', { body: { value: '19', from_base: 8, to_base: 2 }, headers: { 'x-api-key': key } });
    expect(bad.status).toBe(422);
    expect((await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } })).body.used).toBe(before);
  });
});

describe('POST /batch', () => {
  it('answers in call order with result or error, each paid call costing one unit', async () => {
    const before = (await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } })).body.used;
    const r = await api(gw.url, 'POST', '/batch', {
      headers: { 'x-api-key': key },
      body: {
        calls: [
          { tool: 'base_convert', input: { value: '10', from_base: 10, to_base: 2 } },
          { tool: 'base_convert', input: { value: 'zz', from_base: 10, to_base: 2 } },
          { tool: 'gen_image', input: {} },
          { tool: 'slugify', input: { text: 'Hello World' } },
          { tool: 'card_brand', input: { number: '4111 1111 1111 1111' } },
        ],
      },
    });
    expect(r.status).toBe(200);
    const items = r.body.results;
    expect(items.map((i: { tool: string }) => i.tool)).toEqual(['base_convert', 'base_convert', 'gen_image', 'slugify', 'card_brand']);
    expect(items[0]).toMatchObject({ result: { value: '1010' }, error: null });
    expect(items[1]).toMatchObject({ result: null, error: { code: 'validation_error', status: 422 } });
    expect(items[2]).toMatchObject({ result: null, error: { code: 'not_found' } });
    expect(items[3].error).toBeNull();
    expect(items[4]).toMatchObject({ result: { brand: 'visa', valid: true }, error: null });
    // Two calculator calls succeeded; the failed one was refunded, the free one costs nothing.
    const after = (await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } })).body.used;
    expect(after - before).toBe(2);
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBe(10000 - after);
  });

  it('stop_on_error reports the remaining calls as not run', async () => {
    const r = await api(gw.url, 'POST', '/batch', {
      headers: { 'x-api-key': key },
      body: {
        stop_on_error: true,
        calls: [
          { tool: 'base_convert', input: { value: '1', from_base: 10, to_base: 2 } },
          { tool: 'base_convert', input: { value: '!', from_base: 10, to_base: 2 } },
          { tool: 'base_convert', input: { value: '2', from_base: 10, to_base: 2 } },
        ],
      },
    });
    expect(r.body.results.map((i: { error: { code: string } | null }) => i.error?.code ?? 'ok')).toEqual(['ok', 'validation_error', 'not_run']);
    expect(r.body).toMatchObject({ succeeded: 1, failed: 1, not_run: 1 });
  });

  it('refuses more than 20 calls with 422', async () => {
    const calls = Array.from({ length: 21 }, () => ({ tool: 'slugify', input: { text: 'x' } }));
    const r = await api(gw.url, 'POST', '/batch', { body: { calls } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'calls']);
  });

  it('without a key, a batch with paid calls is one 402 with the x402 challenge for their summed price', async () => {
    const calls = [{ tool: 'base_convert', input: convert }, { tool: 'uuid', input: {} }, { tool: 'card_brand', input: { number: '4111 1111 1111 1111' } }];
    const anon = await api(gw.url, 'POST', '/batch', { body: { calls } });
    expect(anon.status).toBe(402);
    const pr = decodePaymentRequiredHeader(anon.headers.get('payment-required')!);
    expect(anon.body).toEqual(pr);
    expect(pr).toMatchObject({ x402Version: 2, resource: { url: `${gw.url}/batch` } });
    // Two paid calls at $0.001 each; the free utility costs nothing.
    expect(pr.accepts).toHaveLength(1);
    expect(pr.accepts[0]).toMatchObject({ scheme: 'exact', amount: '2000' });
    expect(pr.error).toMatch(/2 paid calls cost \$0\.002 together/);
    const badKey = await api(gw.url, 'POST', '/batch', { headers: { 'x-api-key': 'agk_live_not_a_key' }, body: { calls } });
    expect(badKey.status).toBe(402);
    expect(badKey.body.error).toMatch(/API key is not valid/);
    // Only free calls: no payment needed.
    const free = await api(gw.url, 'POST', '/batch', { body: { calls: [{ tool: 'uuid', input: {} }] } });
    expect(free.status).toBe(200);
    expect(free.body.results[0].error).toBeNull();
  });
});

describe('/toolbelt', () => {
  it('indexes the free utilities and runs them by name over GET and POST without a key', async () => {
    const idx = await api(gw.url, 'GET', '/toolbelt');
    const names = idx.body.tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(['uuid', 'hash', 'base64', 'slugify', 'regex_test', 'timestamp_convert']));
    expect(names).not.toContain('base_convert');
    const post = await api(gw.url, 'POST', '/toolbelt/hash', { body: { text: 'abc', algorithm: 'sha256' } });
    expect(post.status).toBe(200);
    expect(JSON.stringify(post.body)).toContain('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const get = await api(gw.url, 'GET', '/toolbelt/uuid?count=3');
    expect(get.status).toBe(200);
    expect(get.body.uuids).toHaveLength(3);
    expect((await api(gw.url, 'POST', '/toolbelt/base_convert', { body: convert })).status).toBe(404);
  });

  it('POST /toolbelt runs the utility named in the body, or answers the index without a name', async () => {
    const ran = await api(gw.url, 'POST', '/toolbelt', { body: { name: 'hash', input: { text: 'abc', algorithm: 'sha256' } } });
    expect(ran.status).toBe(200);
    expect(ran.body).toEqual((await api(gw.url, 'POST', '/toolbelt/hash', { body: { text: 'abc', algorithm: 'sha256' } })).body);
    const index = await api(gw.url, 'POST', '/toolbelt');
    expect(index.status).toBe(200);
    expect(index.body.tools.map((t: { name: string }) => t.name)).toEqual((await api(gw.url, 'GET', '/toolbelt')).body.tools.map((t: { name: string }) => t.name));
    expect((await api(gw.url, 'POST', '/toolbelt', { body: {} })).body.count).toBe(index.body.count);
    // Only utilities: a calculator (paid) or any other tool is not reachable this way.
    expect((await api(gw.url, 'POST', '/toolbelt', { body: { name: 'base_convert', input: convert } })).status).toBe(404);
    expect((await api(gw.url, 'POST', '/toolbelt', { body: { name: 'agent_register', input: { handle: 'via-toolbelt' } } })).status).toBe(404);
    expect((await api(gw.url, 'GET', '/agents/via-toolbelt')).status).toBe(404);
    const bad = await api(gw.url, 'POST', '/toolbelt', { body: { name: 'hash', input: { text: 'abc', algorithm: 'md4' } } });
    expect(bad.status).toBe(422);
    const flat = await api(gw.url, 'POST', '/toolbelt', { body: { name: 'hash', text: 'abc' } });
    expect(flat.status).toBe(422);
    expect(flat.body.detail[0].loc).toEqual(['body', 'text']);
    expect((await api(gw.url, 'POST', '/toolbelt', { body: { input: { text: 'abc' } } })).status).toBe(422);
  });
});
