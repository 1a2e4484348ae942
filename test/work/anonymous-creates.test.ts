// What a caller without credentials may create that outlives its request (src/anonymous-creates.ts): handoffs, jobs
// and artifacts, GATEWAY_ANONYMOUS_CREATES_PER_HOUR of each per client and hour, then 429 with Retry-After; an
// anonymous handoff's context is kept small. An agent is bounded by its storage budget, not by these.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANON_CONTEXT_MAX_BYTES } from '../../tools/handoffs/index.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

const PER_HOUR = 3;
let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_ANONYMOUS_CREATES_PER_HOUR: String(PER_HOUR) } });
});
afterAll(async () => gw?.cleanup());

const count = async (table: string) => Number((await gw.gateway.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE agent_id IS NULL`))!.n);

const KINDS = [
  { kind: 'handoffs', table: 'handoffs', create: (secret?: string) => api(gw.url, 'POST', '/handoff', { body: { task: 'Check the invoice', context: { n: 1 } }, secret }), status: 202 },
  { kind: 'jobs', table: 'jobs', create: (secret?: string) => api(gw.url, 'POST', '/jobs', { body: { type: 'delay', seconds: 3600 }, secret }), status: 202 },
  { kind: 'artifacts', table: 'artifacts', create: (secret?: string) => api(gw.url, 'POST', '/artifacts', { body: { text: 'hello' }, secret }), status: 201 },
];

describe('creations without credentials', () => {
  it(`allow ${PER_HOUR} of each kind an hour per client, then 429 with Retry-After and nothing stored; an agent goes on; the next hour allows again`, async () => {
    const agent = await register(gw.url, 'anon-limits-agent');
    for (const k of KINDS) {
      const before = await count(k.table);
      for (let i = 0; i < PER_HOUR; i++) expect((await k.create()).status, k.kind).toBe(k.status);
      const refused = await k.create();
      expect(refused.status, k.kind).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body.error).toMatchObject({ code: 'rate_limited', limit: PER_HOUR });
      expect(refused.body.error.message).toContain('GATEWAY_ANONYMOUS_CREATES_PER_HOUR');
      expect(await count(k.table), k.kind).toBe(before + PER_HOUR);
      // The agent is not held back by the anonymous allowance.
      expect((await k.create(agent.secret)).status, k.kind).toBe(k.status);
    }
    gw.clock.advance(3600_000 + 1000);
    for (const k of KINDS) expect((await k.create()).status, k.kind).toBe(k.status);
  });

  it('keep an anonymous handoff context under its limit (413, nothing parked); an agent may park more', async () => {
    const agent = await register(gw.url, 'anon-context-agent');
    const before = await count('handoffs');
    const big = { notes: 'x'.repeat(ANON_CONTEXT_MAX_BYTES) };
    const refused = await api(gw.url, 'POST', '/handoff', { body: { task: 'Read this', context: big } });
    expect(refused.status).toBe(413);
    expect(refused.body.error).toMatchObject({ code: 'payload_too_large', limit: ANON_CONTEXT_MAX_BYTES });
    expect(await count('handoffs')).toBe(before);
    expect((await api(gw.url, 'POST', '/handoff', { body: { task: 'Read this', context: big }, secret: agent.secret })).status).toBe(202);
  });
});

describe('the client an allowance counts', () => {
  let proxied: TestGateway;
  beforeAll(async () => {
    proxied = await startGateway({ env: { GATEWAY_ANONYMOUS_CREATES_PER_HOUR: String(PER_HOUR), GATEWAY_TRUST_PROXY: 'true' } });
  });
  afterAll(async () => proxied?.cleanup());

  const create = (from: string) => api(proxied.url, 'POST', '/artifacts', { body: { text: 'hello' }, headers: { 'x-forwarded-for': from } });

  it('is an IPv6 /64 as a whole, so rotating addresses inside it gets no more; the next /64 and an IPv4 client have their own', async () => {
    for (let i = 1; i <= PER_HOUR; i++) expect((await create(`2001:db8:1:2::${i}`)).status).toBe(201);
    expect((await create('2001:db8:1:2:ffff:ffff:ffff:ffff')).status).toBe(429);
    expect((await create('2001:db8:1:3::1')).status).toBe(201);
    expect((await create('198.51.100.1')).status).toBe(201);
    // An IPv4 client written as IPv6 by a dual-stack proxy is the same client.
    for (let i = 1; i < PER_HOUR; i++) expect((await create('::ffff:198.51.100.1')).status).toBe(201);
    expect((await create('198.51.100.1')).status).toBe(429);
  });
});

describe('the client an allowance counts behind two proxies (a CDN in front of nginx)', () => {
  let proxied: TestGateway;
  beforeAll(async () => {
    proxied = await startGateway({ env: { GATEWAY_ANONYMOUS_CREATES_PER_HOUR: String(PER_HOUR), GATEWAY_TRUST_PROXY: '2' } });
  });
  afterAll(async () => proxied?.cleanup());

  // What nginx passes on: what the client wrote, the client as the CDN saw it, the CDN edge as nginx saw it.
  const create = (wrote: string, client: string, edge: string) =>
    api(proxied.url, 'POST', '/artifacts', { body: { text: 'hello' }, headers: { 'x-forwarded-for': `${wrote}, ${client}, ${edge}` } });

  it('is the address the CDN saw: neither what the client wrote nor the edge it came through', async () => {
    for (let i = 1; i <= PER_HOUR; i++) expect((await create(`10.9.9.${i}`, '198.51.100.20', `203.0.113.${i}`)).status).toBe(201);
    expect((await create('10.9.9.99', '198.51.100.20', '203.0.113.99')).status).toBe(429);
    expect((await create('10.9.9.1', '198.51.100.21', '203.0.113.1')).status).toBe(201);
  });
});

describe('agent registrations', () => {
  let gw2: TestGateway;
  beforeAll(async () => {
    gw2 = await startGateway({ env: { GATEWAY_TRUST_PROXY: 'true', GATEWAY_REGISTRATIONS_PER_HOUR: '2' } });
  });
  afterAll(async () => gw2?.cleanup());

  const registerFrom = (from: string, handle: string) => api(gw2.url, 'POST', '/agents/register', { body: { handle }, headers: { 'x-forwarded-for': from } });
  const agents = async () => Number((await gw2.gateway.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM agents'))!.n);

  it('allow GATEWAY_REGISTRATIONS_PER_HOUR per client, then 429 with Retry-After and no agent made; another client registers; the next hour allows again', async () => {
    expect((await registerFrom('203.0.113.5', 'reg-one')).status).toBe(201);
    expect((await registerFrom('203.0.113.5', 'reg-two')).status).toBe(201);
    const before = await agents();
    const refused = await registerFrom('203.0.113.5', 'reg-three');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', limit: 2 });
    expect(refused.body.error.message).toContain('GATEWAY_REGISTRATIONS_PER_HOUR');
    expect(await agents()).toBe(before);
    expect((await api(gw2.url, 'GET', '/agents/reg-three')).status).toBe(404);
    expect((await registerFrom('203.0.113.6', 'reg-three')).status).toBe(201);
    gw2.clock.advance(3600_000 + 1000);
    expect((await registerFrom('203.0.113.5', 'reg-four')).status).toBe(201);
  });
});
