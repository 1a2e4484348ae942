// POST /v1/entitlements/appstore end to end, with a CA chain built by the test (root → intermediate → leaf).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { BUNDLE_ID, makePki, sign, tamper, transaction, type Pki } from './pki.js';

const OPERATOR = 'operator-token-for-tests-0123456789';
const PRODUCTS = {
  'com.example.credits.small': { credits: 5000 },
  'com.example.pro.monthly': { tier: 'pro' },
  'com.example.enterprise.yearly': { tier: 'enterprise' },
};
const DAY = 24 * 3600 * 1000;

let gw: TestGateway;
let pki: Pki;
let wrong: Pki;
beforeAll(async () => {
  pki = makePki('Good');
  wrong = makePki('Wrong');
  gw = await startGateway({
    env: {
      GATEWAY_OPERATOR_TOKEN: OPERATOR,
      GATEWAY_APPSTORE_ROOT_CERT: pki.rootPath,
      GATEWAY_APPSTORE_BUNDLE_ID: BUNDLE_ID,
      GATEWAY_APPSTORE_ENVIRONMENT: 'Sandbox',
      GATEWAY_ENTITLEMENT_PRODUCTS: JSON.stringify(PRODUCTS),
    },
  });
});
afterAll(async () => {
  await gw.cleanup();
  pki.cleanup();
  wrong.cleanup();
});

const redeem = (body: Record<string, unknown>, secret?: string, headers: Record<string, string> = {}) =>
  api(gw.url, 'POST', '/v1/entitlements/appstore', { body, secret, headers });
const balance = async (a: { handle: string; secret: string }) => (await api(gw.url, 'GET', `/agents/${a.handle}/credits`, { secret: a.secret })).body.balance;
const signed = (over: Record<string, unknown> = {}) => sign(pki, transaction(gw.clock.now(), over));
const subscription = (over: Record<string, unknown> = {}) =>
  signed({ productId: 'com.example.pro.monthly', type: 'Auto-Renewable Subscription', expiresDate: gw.clock.now() + 30 * DAY, ...over });

async function expectRefused(r: { status: number; body: any }, reason: string): Promise<void> {
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  expect(r.body.error.reason).toBe(reason);
  expect(r.body.detail[0].loc).toEqual(['body', 'signed_transaction']);
}

describe('a valid transaction grants', () => {
  it('credits: the balance goes up once, with a ledger entry naming the purchase', async () => {
    const a = await register(gw.url, 'ent-credits');
    const jws = await signed();
    const r = await redeem({ handle: a.handle, signed_transaction: jws }, a.secret);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ handle: 'ent-credits', replayed: false, store: 'appstore', product_id: 'com.example.credits.small', balance: 5000 });
    expect(r.body.grant).toEqual({ kind: 'credits', credits: 5000, usd: '0.005', unit: 'micro_usd' });
    expect(await balance(a)).toBe(5000);
    const ledger = (await api(gw.url, 'GET', `/agents/${a.handle}/credits/ledger`, { secret: a.secret })).body.entries;
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ kind: 'grant', amount: 5000, balance_after: 5000, reason: 'appstore:com.example.credits.small', reference: r.body.grant_id });
  });

  it('a consumable bought in quantity grants quantity × credits', async () => {
    const a = await register(gw.url, 'ent-quantity');
    const r = await redeem({ handle: a.handle, signed_transaction: await signed({ quantity: 3 }) }, a.secret);
    expect(r.body.grant.credits).toBe(15000);
    expect(await balance(a)).toBe(15000);
  });

  it('a tier: a pro key returned once, with the pro quota of 25,000', async () => {
    const a = await register(gw.url, 'ent-pro');
    const jws = await subscription();
    const r = await redeem({ handle: a.handle, signed_transaction: jws }, a.secret);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.key).toMatch(/^agk_live_/);
    expect(r.body.grant).toMatchObject({ kind: 'tier', tier: 'pro', monthly_quota: 25000 });
    expect(r.body.expires_at).toBe(new Date(JSON.parse(Buffer.from(jws.split('.')[1], 'base64url').toString()).expiresDate).toISOString());
    const usage = await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': r.body.key } });
    expect(usage.body).toMatchObject({ tier: 'pro', limit: 25000, used: 0 });
    const call = await api(gw.url, 'POST', '/tools/base_convert', { body: { value: '5', from_base: 10, to_base: 2 }, headers: { 'x-api-key': r.body.key } });
    expect(call.status).toBe(200);
    expect(call.headers.get('x-ratelimit-limit')).toBe('25000');

    const again = await redeem({ handle: a.handle, signed_transaction: jws }, a.secret);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ replayed: true, key: null, grant: { tier: 'pro', key_hint: r.body.grant.key_hint } });
    const keys = await gw.gateway.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM api_keys WHERE tier = 'pro' AND agent_id = (SELECT id FROM agents WHERE handle = ?)", [a.handle]);
    expect(keys!.n).toBe(1);
  });

  it('an enterprise product gives an unlimited key', async () => {
    const a = await register(gw.url, 'ent-enterprise');
    const r = await redeem(
      { handle: a.handle, signed_transaction: await signed({ productId: 'com.example.enterprise.yearly', type: 'Auto-Renewable Subscription', expiresDate: gw.clock.now() + 365 * DAY }) },
      a.secret,
    );
    expect(r.body.grant).toMatchObject({ tier: 'enterprise', monthly_quota: null });
    expect((await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': r.body.key } })).body.limit).toBeNull();
  });

  it('lists the agent’s entitlements to the owner only (keys by hint)', async () => {
    const a = await register(gw.url, 'ent-lister');
    const other = await register(gw.url, 'ent-lister-other');
    await redeem({ handle: a.handle, signed_transaction: await subscription() }, a.secret);
    await redeem({ handle: a.handle, signed_transaction: await signed() }, a.secret);
    const list = await api(gw.url, 'GET', `/agents/${a.handle}/entitlements`, { secret: a.secret });
    expect(list.status).toBe(200);
    expect(list.body.entitlements.map((e: any) => e.grant.kind).sort()).toEqual(['credits', 'tier']);
    expect(JSON.stringify(list.body)).not.toMatch(/agk_live_[A-Za-z0-9_-]{20}/);
    expect((await api(gw.url, 'GET', `/agents/${a.handle}/entitlements`, { secret: other.secret })).status).toBe(403);
    expect((await api(gw.url, 'GET', `/agents/${a.handle}/entitlements`)).status).toBe(401);
  });
});

describe('a purchase grants once', () => {
  it('a replayed transaction returns the same grant and no second one', async () => {
    const a = await register(gw.url, 'ent-replay');
    const jws = await signed();
    const first = await redeem({ handle: a.handle, signed_transaction: jws }, a.secret);
    const second = await redeem({ handle: a.handle, signed_transaction: jws }, a.secret);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ replayed: true, grant_id: first.body.grant_id, balance: 5000 });
    expect(await balance(a)).toBe(5000);
    // Another signed transaction of the same purchase (same original id) grants nothing more either.
    const otid = JSON.parse(Buffer.from(jws.split('.')[1], 'base64url').toString()).originalTransactionId;
    const renewal = await redeem({ handle: a.handle, signed_transaction: await signed({ originalTransactionId: otid }) }, a.secret);
    expect(renewal.body).toMatchObject({ replayed: true, grant_id: first.body.grant_id });
    expect(await balance(a)).toBe(5000);
    expect((await api(gw.url, 'GET', `/agents/${a.handle}/credits/ledger`, { secret: a.secret })).body.entries).toHaveLength(1);
  });

  it('a subscription renewal moves the expiry, never grants a second key', async () => {
    const a = await register(gw.url, 'ent-renew');
    const jws = await subscription();
    const first = await redeem({ handle: a.handle, signed_transaction: jws }, a.secret);
    const otid = JSON.parse(Buffer.from(jws.split('.')[1], 'base64url').toString()).originalTransactionId;
    const later = gw.clock.now() + 60 * DAY;
    const renewal = await redeem({ handle: a.handle, signed_transaction: await subscription({ originalTransactionId: otid, expiresDate: later }) }, a.secret);
    expect(renewal.body).toMatchObject({ replayed: true, key: null, grant_id: first.body.grant_id, expires_at: new Date(later).toISOString() });
  });

  it('concurrent redemptions of one purchase grant exactly once', async () => {
    const a = await register(gw.url, 'ent-race');
    const jws = await signed();
    const results = await Promise.all(Array.from({ length: 12 }, () => redeem({ handle: a.handle, signed_transaction: jws }, a.secret)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.replayed === false)).toHaveLength(1);
    expect(await balance(a)).toBe(5000);
  });

  it('another agent cannot redeem a purchase already redeemed (409), also after the first agent is deleted', async () => {
    const a = await register(gw.url, 'ent-first');
    const b = await register(gw.url, 'ent-second');
    const jws = await signed();
    expect((await redeem({ handle: a.handle, signed_transaction: jws }, a.secret)).status).toBe(200);
    const stolen = await redeem({ handle: b.handle, signed_transaction: jws }, b.secret);
    expect(stolen.status).toBe(409);
    expect(stolen.body.error.reason).toBe('already_redeemed');
    expect(await balance(b)).toBe(0);
    await api(gw.url, 'DELETE', `/agents/${a.handle}`, { secret: a.secret });
    expect((await redeem({ handle: b.handle, signed_transaction: jws }, b.secret)).status).toBe(409);
    expect(await balance(b)).toBe(0);
  });
});

describe('refused transactions (422 with a reason)', () => {
  let agent: { handle: string; secret: string };
  beforeAll(async () => {
    agent = await register(gw.url, 'ent-refused');
  });
  const attempt = (jws: string) => redeem({ handle: agent.handle, signed_transaction: jws }, agent.secret);

  it('a tampered payload: the signature no longer matches', async () => {
    const jws = await signed();
    await expectRefused(await attempt(tamper(jws, (p) => ({ ...p, productId: 'com.example.enterprise.yearly' }))), 'bad_signature');
    await expectRefused(await attempt(tamper(jws, (p) => ({ ...p, quantity: 100 }))), 'bad_signature');
    // Signed by another key than the leaf the header names.
    await expectRefused(await attempt(await sign(pki, transaction(gw.clock.now()), { key: wrong.leafKey })), 'bad_signature');
    expect(await balance(agent)).toBe(0);
  });

  it('a chain to another root, also when the header carries the trusted root', async () => {
    await expectRefused(await attempt(await sign(wrong, transaction(gw.clock.now()))), 'untrusted_root');
    const mixed = [wrong.x5c[0], wrong.x5c[1], pki.x5c[2]];
    await expectRefused(await attempt(await sign(wrong, transaction(gw.clock.now()), { x5c: mixed })), 'untrusted_root');
    // A good leaf presented with another chain's intermediate.
    await expectRefused(await attempt(await sign(pki, transaction(gw.clock.now()), { x5c: [pki.x5c[0], wrong.x5c[1], pki.x5c[2]] })), 'bad_certificate_chain');
    expect(await balance(agent)).toBe(0);
  });

  it('a chain without the App Store marker, a short chain, garbage certificates', async () => {
    await expectRefused(await attempt(await sign(pki, transaction(gw.clock.now()), pki.unmarked)), 'bad_certificate_chain');
    await expectRefused(await attempt(await sign(pki, transaction(gw.clock.now()), { x5c: pki.x5c.slice(0, 2) })), 'bad_certificate_chain');
    await expectRefused(await attempt(await sign(pki, transaction(gw.clock.now()), { x5c: ['AAAA', 'AAAA', 'AAAA'] })), 'bad_certificate_chain');
  });

  it('certificates outside their validity at the gateway clock', async () => {
    const now = gw.clock.now();
    const jws = await sign(pki, transaction(now, { productId: 'com.example.pro.monthly', type: 'Auto-Renewable Subscription', expiresDate: now + 20 * 365 * DAY }));
    gw.clock.set(now + 11 * 365 * DAY);
    try {
      await expectRefused(await attempt(jws), 'certificate_expired');
    } finally {
      gw.clock.set(now);
    }
  });

  it('an expired subscription', async () => {
    const r = await attempt(await subscription({ expiresDate: gw.clock.now() - 1000 }));
    await expectRefused(r, 'expired');
    expect(r.body.error.message).toMatch(/expired at/);
    await expectRefused(await attempt(await subscription({ expiresDate: undefined })), 'malformed_transaction');
  });

  it('a wrong bundle, environment or product, a revoked purchase', async () => {
    await expectRefused(await attempt(await signed({ bundleId: 'com.other.app' })), 'wrong_bundle');
    await expectRefused(await attempt(await signed({ environment: 'Production' })), 'wrong_environment');
    await expectRefused(await attempt(await signed({ productId: 'com.example.unknown' })), 'unknown_product');
    await expectRefused(await attempt(await signed({ productId: '__proto__' })), 'unknown_product');
    await expectRefused(await attempt(await signed({ revocationDate: gw.clock.now() - 1000, revocationReason: 0 })), 'revoked');
    expect(await balance(agent)).toBe(0);
  });

  it('malformed input', async () => {
    await expectRefused(await attempt('not-a-jws'), 'malformed_transaction');
    await expectRefused(await attempt('a.b.c'), 'malformed_transaction');
    await expectRefused(await attempt(await sign(pki, { hello: 'world' })), 'malformed_transaction');
    const missing = await redeem({ handle: agent.handle }, agent.secret);
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({ loc: ['body', 'signed_transaction'], type: 'missing' });
  });
});

describe('authentication', () => {
  it('the secret may ride in the body instead of Bearer', async () => {
    const a = await register(gw.url, 'ent-body-secret');
    const r = await redeem({ handle: a.handle, secret: a.secret, signed_transaction: await signed() });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await balance(a)).toBe(5000);
  });

  it('a wrong secret is 403, none is 401, another agent’s is 403, and nothing is granted', async () => {
    const a = await register(gw.url, 'ent-auth');
    const b = await register(gw.url, 'ent-auth-other');
    const body = { handle: a.handle, signed_transaction: await signed() };
    expect((await redeem({ ...body, secret: 'ags_not-the-secret-of-anyone' })).status).toBe(403);
    expect((await redeem(body, 'ags_not-the-secret-of-anyone')).status).toBe(403);
    const none = await redeem(body);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/Bearer/);
    expect((await redeem(body, b.secret)).status).toBe(403);
    expect((await redeem({ ...body, secret: b.secret })).status).toBe(403);
    expect((await redeem({ ...body, secret: a.secret }, b.secret)).status).toBe(403);
    expect(await balance(a)).toBe(0);
    expect(await balance(b)).toBe(0);
    // Never in the URL.
    expect((await api(gw.url, 'POST', `/v1/entitlements/appstore?secret=${a.secret}`, { body })).status).toBe(400);
  });

  it('answers 503 where the App Store is not configured, after the credentials are checked', async () => {
    const bare = await startGateway();
    try {
      const a = await register(bare.url, 'ent-bare');
      const b = await register(bare.url, 'ent-bare-other');
      const body = { handle: a.handle, signed_transaction: await signed() };
      const r = await api(bare.url, 'POST', '/v1/entitlements/appstore', { body, secret: a.secret });
      expect(r.status).toBe(503);
      // Without credentials, or with another agent's, the caller hears that first, as where the store is configured.
      expect((await api(bare.url, 'POST', '/v1/entitlements/appstore', { body })).status).toBe(401);
      expect((await api(bare.url, 'POST', '/v1/entitlements/appstore', { body, secret: b.secret })).status).toBe(403);
      expect((await api(bare.url, 'POST', '/v1/entitlements/appstore', { body: { ...body, secret: 'not-a-real-secret' } })).status).toBe(403);
    } finally {
      await bare.cleanup();
    }
  });
});
