import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { scanDatabase } from '../helpers/db-scan.js';

let gw: TestGateway;
const OPERATOR = 'operator-token-for-tests-0123456789';
beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_KEYS_PER_CLIENT_PER_DAY: '1000' } });
});
afterAll(async () => gw.cleanup());

const issue = async (email: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  api(gw.url, 'POST', '/keys/issue', { body: { email, ...extra }, headers });
const convert = { value: '7', from_base: 10, to_base: 2 };
const call = (key: string, tool = 'base_convert', body: unknown = convert) => api(gw.url, 'POST', `/tools/${tool}`, { body, headers: { 'x-api-key': key } });

async function setUsed(key: string, scope: string, used: number): Promise<void> {
  const usage = await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } });
  const id = (await gw.gateway.db.get<{ id: string }>('SELECT id FROM api_keys WHERE hint = ?', [usage.body.key]))!.id;
  await gw.gateway.db.run(
    `INSERT INTO key_usage (key_id, period, scope, used) VALUES (?, ?, ?, ?) ON CONFLICT (key_id, period, scope) DO UPDATE SET used = excluded.used`,
    [id, usage.body.period, scope, used],
  );
}

describe('POST /keys/issue', () => {
  it('issues a free key at once, shown once and stored only hashed', async () => {
    const r = await issue('once@example.com');
    expect(r.status).toBe(201);
    expect(r.body.key).toMatch(/^agk_live_[A-Za-z0-9_-]{43}$/);
    expect(r.body).toMatchObject({ tier: 'free', monthly_quota: 10000, per_tool_quota: { rate_limit: 500 } });
    const usage = await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': r.body.key } });
    expect(usage.status).toBe(200);
    expect(JSON.stringify(usage.body)).not.toContain(r.body.key);
    expect(await scanDatabase(gw.gateway.db, [r.body.key, 'once@example.com'])).toEqual([]);
  });

  it('validates the email, caps free keys per email, and keeps pro and enterprise for operators', async () => {
    expect((await issue('not-an-email')).status).toBe(422);
    for (let i = 0; i < 3; i++) expect((await issue('Capped@Example.com')).status).toBe(201);
    const fourth = await issue('capped@example.com');
    expect(fourth.status).toBe(409);
    const pro = await issue('pro@example.com', { tier: 'pro' });
    expect(pro.status).toBe(403);
    expect(pro.body.error.message).toMatch(/operator token.*entitlement/);
    const granted = await issue('pro@example.com', { tier: 'pro' }, { 'x-operator-token': OPERATOR });
    expect(granted.status).toBe(201);
    expect(granted.body.monthly_quota).toBe(25000);
    const ent = await issue('ent@example.com', { tier: 'enterprise' }, { 'x-operator-token': OPERATOR });
    expect(ent.body.monthly_quota).toBeNull();
    const r = await call(ent.body.key);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-limit')).toBeNull();
    expect((await issue('x@example.com', { tier: 'pro' }, { 'x-operator-token': 'wrong-token-wrong-token' })).status).toBe(403);
  });

  it('caps keys per client address per day with 429 and Retry-After', async () => {
    const small = await startGateway({ env: { GATEWAY_KEYS_PER_CLIENT_PER_DAY: '2' } });
    try {
      for (const e of ['a1@example.com', 'a2@example.com']) expect((await api(small.url, 'POST', '/keys/issue', { body: { email: e } })).status).toBe(201);
      const third = await api(small.url, 'POST', '/keys/issue', { body: { email: 'a3@example.com' } });
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBe('86400');
      small.clock.advance(24 * 3600 * 1000 + 1);
      expect((await api(small.url, 'POST', '/keys/issue', { body: { email: 'a3@example.com' } })).status).toBe(201);
    } finally {
      await small.cleanup();
    }
  });

  it('GET /keys/usage needs a key', async () => {
    expect((await api(gw.url, 'GET', '/keys/usage')).status).toBe(401);
    expect((await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': 'agk_live_nope' } })).status).toBe(403);
  });
});

describe('monthly quotas', () => {
  it('lets the last unit through and answers 402 at exactly the limit', async () => {
    const key = (await issue('limit@example.com')).body.key;
    await setUsed(key, '*', 9998);
    const last = await call(key);
    expect(last.status).toBe(200);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await call(key)).status).toBe(200);
    const over = await call(key);
    expect(over.status).toBe(402);
    expect(over.body.error).toMatch(/monthly quota .* used up/);
    expect(over.headers.get('payment-required')).toBeTruthy();
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('50 concurrent calls at quota-1 let exactly one through', async () => {
    const key = (await issue('race@example.com')).body.key;
    await setUsed(key, '*', 9999);
    const results = await Promise.all(Array.from({ length: 50 }, () => call(key)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 402)).toHaveLength(49);
    expect((await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } })).body.used).toBe(10000);
  });

  it('a batch at quota-1 runs one paid call and refuses the rest', async () => {
    const key = (await issue('batch-limit@example.com')).body.key;
    await setUsed(key, '*', 9999);
    const r = await api(gw.url, 'POST', '/batch', { headers: { 'x-api-key': key }, body: { calls: [{ tool: 'base_convert', input: convert }, { tool: 'base_convert', input: convert }] } });
    expect(r.body.results.map((i: { error: { code: string } | null }) => i.error?.code ?? 'ok')).toEqual(['ok', 'payment_required']);
  });

  it('rate_limit has its own 500-call allowance on a free key', async () => {
    const key = (await issue('sub@example.com')).body.key;
    await setUsed(key, 'rate_limit', 499);
    const args = { limit: 10, window_seconds: 60 };
    expect((await call(key, 'rate_limit', args)).status).toBe(200);
    const over = await call(key, 'rate_limit', args);
    expect(over.status).toBe(402);
    expect(over.body.error).toMatch(/allowance for rate_limit/);
    // Other calculators still run on the monthly quota.
    expect((await call(key)).status).toBe(200);
  });

  it('resets when the UTC month rolls over', async () => {
    const key = (await issue('rollover@example.com')).body.key;
    await setUsed(key, '*', 10000);
    expect((await call(key)).status).toBe(402);
    const now = gw.clock.now();
    const d = new Date(now);
    gw.clock.set(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1, 0, 0, 1));
    try {
      const r = await call(key);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-remaining')).toBe('9999');
    } finally {
      gw.clock.set(now);
    }
  });

  it('a key issued to an agent goes with the agent when it is deleted', async () => {
    const a = await register(gw.url, 'key-holder');
    const r = await api(gw.url, 'POST', '/keys/issue', { body: { email: 'holder@example.com' }, secret: a.secret });
    expect(r.status).toBe(201);
    await api(gw.url, 'DELETE', '/agents/key-holder', { secret: a.secret });
    expect((await call(r.body.key)).status).toBe(402);
  });
});

describe('usage recording', () => {
  it('counts calls and errors per tool and day', async () => {
    const key = (await issue('usage@example.com')).body.key;
    await call(key);
    await call(key, 'base_convert', { value: 'zz', from_base: 10, to_base: 2 });
    await gw.gateway.infra.usage.flush();
    const row = await gw.gateway.db.get<{ calls: number; errors: number }>("SELECT calls, errors FROM tool_usage WHERE tool = 'base_convert'");
    expect(row!.calls).toBeGreaterThanOrEqual(2);
    expect(row!.errors).toBeGreaterThanOrEqual(1);
  });
});
