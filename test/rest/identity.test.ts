import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

describe('registration', () => {
  it('returns the secret once, stores only its hash, and shows a public profile', async () => {
    const r = await api(gw.url, 'POST', '/agents/register', { body: { handle: 'Ada_Lovelace', bio: 'math' } });
    expect(r.status).toBe(201);
    expect(r.body.handle).toBe('ada_lovelace');
    expect(r.body.secret).toMatch(/^ags_[A-Za-z0-9_-]{43}$/);
    const profile = await api(gw.url, 'GET', '/agents/ada_lovelace');
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ handle: 'ada_lovelace', bio: 'math', xp: 0 });
    expect(JSON.stringify(profile.body)).not.toContain(r.body.secret);
    const row = await gw.gateway.db.get<{ secret_hash: string }>('SELECT secret_hash FROM agents WHERE handle = ?', ['ada_lovelace']);
    expect(row?.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.secret_hash).not.toContain(r.body.secret);
    const list = await api(gw.url, 'GET', '/agents?limit=50');
    expect(JSON.stringify(list.body)).not.toContain(r.body.secret);
  });

  it('answers 409 with a free suggestion for a taken handle, and auto_suffix claims it', async () => {
    await register(gw.url, 'taken-name');
    const again = await api(gw.url, 'POST', '/agents/register', { body: { handle: 'taken-name' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('handle_taken');
    const suggestion = again.body.error.suggestion as string;
    expect(suggestion).toMatch(/^taken-name-\d+$/);
    expect((await api(gw.url, 'GET', `/agents/${suggestion}`)).status).toBe(404);

    const auto = await api(gw.url, 'POST', '/agents/register', { body: { handle: 'taken-name', auto_suffix: true } });
    expect(auto.status).toBe(201);
    expect(auto.body.handle).toBe(suggestion);
    expect(auto.body.requested_handle).toBe('taken-name');
  });

  it('refuses reserved names with a suggestion', async () => {
    const r = await api(gw.url, 'POST', '/agents/register', { body: { handle: 'admin' } });
    expect(r.status).toBe(409);
    expect(r.body.error.suggestion).toMatch(/^admin-\d+$/);
  });

  it('puts the 409 suggestion at the top of the body, where the spec has clients look (and keeps it in error)', async () => {
    await register(gw.url, 'top-level');
    const taken = await api(gw.url, 'POST', '/agents/register', { body: { handle: 'top-level' } });
    expect(taken.status).toBe(409);
    expect(taken.body.suggestion).toMatch(/^top-level-\d+$/);
    expect(taken.body.error.suggestion).toBe(taken.body.suggestion);
    expect((await api(gw.url, 'GET', `/agents/${taken.body.suggestion}`)).status).toBe(404);
    const reserved = await api(gw.url, 'POST', '/agents/register', { body: { handle: 'admin' } });
    expect(reserved.body.suggestion).toMatch(/^admin-\d+$/);
    expect(reserved.body.error.suggestion).toBe(reserved.body.suggestion);
    // A client following the suggestion gets the handle.
    expect((await api(gw.url, 'POST', '/agents/register', { body: { handle: taken.body.suggestion } })).status).toBe(201);
  });

  it('concurrent registrations of one handle: exactly one wins', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => api(gw.url, 'POST', '/agents/register', { body: { handle: 'race-handle' } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
  });

  it.each([
    [{ handle: 'ab' }, 'handle', 'too_small'],
    [{ handle: 'x'.repeat(33) }, 'handle', 'too_big'],
    [{ handle: '9lives' }, 'handle', 'invalid_format'],
    [{ handle: 'bad handle' }, 'handle', 'invalid_format'],
    [{ handle: 'ends-' }, 'handle', 'invalid_format'],
    [{}, 'handle', 'missing'],
    [{ handle: 'okay-name', auto_suffix: 'yes' }, 'auto_suffix', 'invalid_type'],
  ])('422 with a FastAPI-style body for %j', async (body, field, type) => {
    const r = await api(gw.url, 'POST', '/agents/register', { body });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body', field], type });
    expect(typeof r.body.detail[0].msg).toBe('string');
    expect(r.body.error.code).toBe('validation_error');
  });

  it('422 for malformed JSON and for a non-object body', async () => {
    const bad = await api(gw.url, 'POST', '/agents/register', { raw: '{"handle": ' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].type).toBe('json_invalid');
    const arr = await api(gw.url, 'POST', '/agents/register', { raw: '["x"]' });
    expect(arr.status).toBe(422);
    expect(arr.body.detail[0].loc).toEqual(['body']);
  });

  it('413 for a body over the size limit', async () => {
    const small = await startGateway({ env: { GATEWAY_MAX_BODY_BYTES: '1024' } });
    try {
      const r = await api(small.url, 'POST', '/agents/register', { body: { handle: 'big-body', bio: 'x'.repeat(5000) } });
      expect(r.status).toBe(413);
      expect(r.body.error.code).toBe('payload_too_large');
    } finally {
      await small.cleanup();
    }
  });

  it('lists agents newest first with paging and validates the limit', async () => {
    const page = await api(gw.url, 'GET', '/agents?limit=2');
    expect(page.status).toBe(200);
    expect(page.body.agents).toHaveLength(2);
    expect(page.body.total).toBeGreaterThan(2);
    const next = await api(gw.url, 'GET', '/agents?limit=2&offset=2');
    expect(next.body.agents[0].handle).not.toBe(page.body.agents[0].handle);
    expect((await api(gw.url, 'GET', '/agents?limit=0')).status).toBe(422);
    expect((await api(gw.url, 'GET', '/agents?limit=5000')).status).toBe(422);
    const bad = await api(gw.url, 'GET', '/agents?limit=abc');
    expect(bad.body.detail[0]).toMatchObject({ loc: ['query', 'limit'] });
  });
});

describe('errors and URLs', () => {
  it('unknown routes answer 404 JSON', async () => {
    const r = await api(gw.url, 'GET', '/no/such/route');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toContain('application/json');
    expect(r.body.error.code).toBe('not_found');
    expect((await api(gw.url, 'GET', '/agents/nobody-here')).status).toBe(404);
  });

  it('refuses a secret or key in the query string with 400', async () => {
    const { secret } = await register(gw.url, 'url-leaker');
    for (const q of [`secret=${secret}`, `api_key=abc`, `token=abc`, `x=${secret}`, `whatever=agk_live_123`, 'operator_token=abc', 'client_secret=abc', 'refresh_token=abc', 'login=agl_abc']) {
      const r = await api(gw.url, 'GET', `/agents/me?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.code).toBe('secret_in_url');
      expect(JSON.stringify(r.body)).not.toContain(secret);
    }
  });

  it('every response carries a request id', async () => {
    const r = await api(gw.url, 'GET', '/healthz');
    expect(r.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('owner routes: 401 without credentials, 403 for wrong ones or another agent', () => {
  it('whoami, delete and rotate', async () => {
    const victim = await register(gw.url, 'victim-one');
    const intruder = await register(gw.url, 'intruder-one');
    expect((await api(gw.url, 'GET', '/agents/me')).status).toBe(401);
    expect((await api(gw.url, 'GET', '/agents/me')).headers.get('www-authenticate')).toContain('Bearer');
    expect((await api(gw.url, 'GET', '/agents/me', { secret: 'ags_wrong-secret-value' })).status).toBe(403);
    expect((await api(gw.url, 'GET', '/agents/me', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    expect((await api(gw.url, 'GET', '/agents/me', { secret: victim.secret })).body.handle).toBe('victim-one');

    for (const [method, path] of [
      ['DELETE', '/agents/victim-one'],
      ['POST', '/agents/victim-one/secret'],
    ] as const) {
      expect((await api(gw.url, method, path)).status, `${method} ${path} anonymous`).toBe(401);
      expect((await api(gw.url, method, path, { secret: intruder.secret })).status, `${method} ${path} intruder`).toBe(403);
      expect((await api(gw.url, method, path, { secret: 'ags_not-a-real-secret' })).status).toBe(403);
    }
    expect((await api(gw.url, 'GET', '/agents/victim-one')).status).toBe(200);
    expect((await api(gw.url, 'GET', '/agents/me', { secret: victim.secret })).status).toBe(200);
  });

  it('rotating the secret stops the old one at once', async () => {
    const a = await register(gw.url, 'rotator');
    const r = await api(gw.url, 'POST', '/agents/rotator/secret', { secret: a.secret });
    expect(r.status).toBe(200);
    expect(r.body.secret).not.toBe(a.secret);
    expect((await api(gw.url, 'GET', '/agents/me', { secret: a.secret })).status).toBe(403);
    expect((await api(gw.url, 'GET', '/agents/me', { secret: r.body.secret })).body.handle).toBe('rotator');
  });

  it('rotating revokes the API keys issued with the old secret, unless asked to keep them', async () => {
    const usage = (key: string) => api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } });
    for (const [handle, keep] of [
      ['rotate-leaked', false],
      ['rotate-routine', true],
    ] as const) {
      const a = await register(gw.url, handle);
      const key = (await api(gw.url, 'POST', '/keys/issue', { secret: a.secret, body: { email: `${handle}@example.com` } })).body.key as string;
      const other = await register(gw.url, `${handle}-other`);
      const othersKey = (await api(gw.url, 'POST', '/keys/issue', { secret: other.secret, body: { email: `${handle}-other@example.com` } })).body.key as string;
      expect((await usage(key)).status).toBe(200);
      const r = await api(gw.url, 'POST', `/agents/${handle}/secret`, { secret: a.secret, body: keep ? { keep_connections: true } : {} });
      expect(r.status).toBe(200);
      expect(r.body.revoked).toEqual(keep ? { oauth_connections: 0, api_keys: 0 } : { oauth_connections: 0, api_keys: 1 });
      expect((await usage(key)).status, handle).toBe(keep ? 200 : 403);
      // Another agent's key is untouched.
      expect((await usage(othersKey)).status).toBe(200);
    }
  });
});

describe('invites, provenance and the identity card', () => {
  it('records a /start referral for the next registration from the same client, never as a reward', async () => {
    const host = await register(gw.url, 'inviter');
    const start = await api(gw.url, 'GET', '/start?via=inviter');
    expect(start.status).toBe(200);
    expect(start.body.referrer).toBe('inviter');
    await register(gw.url, 'invitee-one');
    await api(gw.url, 'POST', '/agents/register', { body: { handle: 'invitee-two', via: 'inviter' } });
    await register(gw.url, 'not-invited');
    const inv = await api(gw.url, 'GET', '/invite/inviter');
    expect(inv.status).toBe(200);
    expect(inv.body).toMatchObject({ handle: 'inviter', introduced_total: 2, introduced_active: 0 });
    expect(inv.body.invite_url).toBe(`${gw.url}/start?via=inviter`);
    // Active = invitees with xp > 0.
    await gw.gateway.db.run("UPDATE agents SET xp = 5 WHERE handle = 'invitee-one'");
    expect((await api(gw.url, 'GET', '/invite/inviter')).body.introduced_active).toBe(1);
    expect(host.secret).toBeTruthy();

    const unknown = await api(gw.url, 'GET', '/start?via=ghost-agent');
    expect(unknown.status).toBe(200);
    expect(unknown.body.referrer).toBeNull();
    expect((await api(gw.url, 'GET', '/invite/ghost-agent')).status).toBe(404);
  });

  it('serves a public identity card', async () => {
    await register(gw.url, 'carded');
    const card = await api(gw.url, 'GET', '/identity/carded');
    expect(card.status).toBe(200);
    expect(card.body).toMatchObject({ handle: 'carded', standing: { trust_label: expect.any(String) } });
    expect(card.body.member_since).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});
