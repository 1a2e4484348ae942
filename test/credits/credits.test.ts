// Agent credits: operator grants, paying paid tools with only the Bearer secret (atomic, never overdrawn,
// refunded on failure), the owner-only balance and ledger, and the MCP receipt in _meta.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

const OPERATOR = 'operator-token-for-tests-0123456789';
const PRICE = 1000; // base_convert costs $0.001 = 1000 credits
const convert = { value: '255', from_base: 10, to_base: 16 };

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_KEYS_PER_CLIENT_PER_DAY: '1000' } });
});
afterAll(async () => gw.cleanup());

const grant = (handle: string, amount: number, headers: Record<string, string> = { 'x-operator-token': OPERATOR }) =>
  api(gw.url, 'POST', '/operator/credits', { body: { handle, amount, reason: 'test top-up' }, headers });
const balanceOf = async (a: { handle: string; secret: string }) => (await api(gw.url, 'GET', `/agents/${a.handle}/credits`, { secret: a.secret })).body;
const ledgerOf = async (a: { handle: string; secret: string }) =>
  (await api(gw.url, 'GET', `/agents/${a.handle}/credits/ledger`, { secret: a.secret })).body.entries;
const callAs = (secret: string, body: unknown = convert, headers: Record<string, string> = {}) =>
  api(gw.url, 'POST', '/tools/base_convert', { body, secret, headers });

describe('operator grants', () => {
  it('needs the operator token: 401 without, 403 wrong, 404 unknown handle, 422 bad amount', async () => {
    const a = await register(gw.url, 'cr-granted');
    expect((await grant(a.handle, 100, {})).status).toBe(401);
    expect((await grant(a.handle, 100, { 'x-operator-token': 'wrong-token-wrong-token-wrong' })).status).toBe(403);
    expect((await grant('cr-nobody', 100)).status).toBe(404);
    expect((await grant(a.handle, 0)).status).toBe(422);
    expect((await grant(a.handle, 1.5)).status).toBe(422);
    expect((await grant(a.handle, -5)).status).toBe(422);
    const ok = await grant(a.handle, 2500);
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ handle: a.handle, granted: 2500, balance: 2500, usd: '0.0025', unit: 'micro_usd' });
    const b = await balanceOf(a);
    expect(b).toMatchObject({ handle: a.handle, balance: 2500, usd: '0.0025' });
    expect(b.recent[0]).toMatchObject({ kind: 'grant', amount: 2500, balance_after: 2500, reason: 'operator: test top-up' });
  });

  it('a new agent holds no credits (invites never grant any)', async () => {
    const inviter = await register(gw.url, 'cr-inviter');
    await api(gw.url, 'POST', '/agents/register', { body: { handle: 'cr-invitee', via: inviter.handle } });
    expect((await balanceOf(inviter)).balance).toBe(0);
    expect(await ledgerOf(inviter)).toEqual([]);
  });
});

describe('paying with credits', () => {
  it('an agent with credits calls a paid tool with only its Bearer secret and is charged exactly the price', async () => {
    const a = await register(gw.url, 'cr-payer');
    await grant(a.handle, 5 * PRICE);
    const r = await callAs(a.secret);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.value).toBe('ff');
    expect(r.headers.get('x-credits-charged')).toBe(String(PRICE));
    expect(r.headers.get('x-credits-balance')).toBe(String(4 * PRICE));
    expect((await balanceOf(a)).balance).toBe(4 * PRICE);
    const [spend] = await ledgerOf(a);
    expect(spend).toMatchObject({ kind: 'spend', amount: -PRICE, balance_after: 4 * PRICE, reason: 'tool:base_convert' });
    expect(spend.reference).toMatch(/^chg_/);
  });

  it('too few credits: 402 with the x402 challenge, saying what the credits lack, and nothing taken', async () => {
    const a = await register(gw.url, 'cr-short');
    await grant(a.handle, PRICE - 1);
    const r = await callAs(a.secret);
    expect(r.status).toBe(402);
    expect(r.headers.get('payment-required')).toBeTruthy();
    expect(r.body.x402Version).toBe(2);
    expect(r.body.error).toMatch(/Not enough credits: base_convert costs 1000 credits .* holds 999/);
    expect(r.headers.get('x-credits-balance')).toBe('999');
    expect(r.headers.get('x-credits-required')).toBe('1000');
    expect((await balanceOf(a)).balance).toBe(PRICE - 1);
    // An agent that never held credits gets the same answer.
    const b = await register(gw.url, 'cr-none');
    expect((await callAs(b.secret)).status).toBe(402);
  });

  it('30 concurrent calls with credits for exactly 10 charge exactly 10 and never go negative', async () => {
    const a = await register(gw.url, 'cr-race');
    await grant(a.handle, 10 * PRICE);
    const results = await Promise.all(Array.from({ length: 30 }, () => callAs(a.secret)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 402)).toHaveLength(20);
    const balances = results.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-credits-balance')));
    expect(balances.sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => n * PRICE));
    expect((await balanceOf(a)).balance).toBe(0);
    const ledger = await ledgerOf(a);
    expect(ledger.filter((e: any) => e.kind === 'spend')).toHaveLength(10);
    expect(ledger.every((e: any) => e.balance_after >= 0)).toBe(true);
  });

  it('a failed call (422 from the handler) is refunded; a call refused by validation costs nothing', async () => {
    const a = await register(gw.url, 'cr-refund');
    await grant(a.handle, 3 * PRICE);
    const bad = await callAs(a.secret, { value: 'zz', from_base: 10, to_base: 2 });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('x-credits-charged')).toBeNull();
    expect((await balanceOf(a)).balance).toBe(3 * PRICE);
    const kinds = (await ledgerOf(a)).map((e: any) => [e.kind, e.amount]);
    expect(kinds).toEqual([['refund', PRICE], ['spend', -PRICE], ['grant', 3 * PRICE]]);
    const ledger = await ledgerOf(a);
    expect(ledger[0].reference).toBe(ledger[1].reference);
    const invalid = await callAs(a.secret, { value: '1' });
    expect(invalid.status).toBe(422);
    expect(await ledgerOf(a)).toHaveLength(3);
  });

  it('an API key or a payment header takes precedence: credits are untouched', async () => {
    const a = await register(gw.url, 'cr-keyed');
    await grant(a.handle, 2 * PRICE);
    const key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'keyed@example.com' } })).body.key;
    const r = await callAs(a.secret, convert, { 'x-api-key': key });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-credits-charged')).toBeNull();
    expect(r.headers.get('x-ratelimit-remaining')).toBe('9999');
    // A key that is not valid does not fall back to credits either.
    expect((await callAs(a.secret, convert, { 'x-api-key': 'agk_live_not-a-key' })).status).toBe(402);
    expect((await balanceOf(a)).balance).toBe(2 * PRICE);
  });

  it('a batch with only the Bearer secret pays each paid item with credits', async () => {
    const a = await register(gw.url, 'cr-batch');
    await grant(a.handle, 2 * PRICE);
    const r = await api(gw.url, 'POST', '/batch', {
      secret: a.secret,
      body: { calls: [{ tool: 'base_convert', input: convert }, { tool: 'base_convert', input: convert }, { tool: 'base_convert', input: convert }] },
    });
    expect(r.body.results.map((i: any) => i.error?.code ?? 'ok')).toEqual(['ok', 'ok', 'payment_required']);
    expect((await balanceOf(a)).balance).toBe(0);
  });

  it('over MCP the receipt rides in the result _meta', async () => {
    const a = await register(gw.url, 'cr-mcp');
    await grant(a.handle, 2 * PRICE);
    const client = new Client({ name: 'credits', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp?toolsets=all`), { requestInit: { headers: { authorization: `Bearer ${a.secret}` } } }));
    try {
      const r = (await client.callTool({ name: 'base_convert', arguments: convert })) as any;
      expect(r.isError).toBeFalsy();
      expect(r._meta.credits).toMatchObject({ charged: PRICE, balance: PRICE, unit: 'micro_usd' });
      const bal = (await client.callTool({ name: 'credits_balance', arguments: { handle: a.handle } })) as any;
      expect(bal.structuredContent.balance).toBe(PRICE);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['credits_balance', 'credits_ledger', 'credits_grant', 'entitlement_appstore', 'entitlements_list']));
    } finally {
      await client.close();
    }
  });
});

describe('reading the balance', () => {
  it('is for the owner only: 401 without credentials, 403 for another agent', async () => {
    const a = await register(gw.url, 'cr-private');
    const b = await register(gw.url, 'cr-snoop');
    await grant(a.handle, 700);
    for (const path of [`/agents/${a.handle}/credits`, `/agents/${a.handle}/credits/ledger`]) {
      expect((await api(gw.url, 'GET', path)).status).toBe(401);
      const other = await api(gw.url, 'GET', path, { secret: b.secret });
      expect(other.status).toBe(403);
      expect(JSON.stringify(other.body)).not.toContain('700');
    }
    expect((await balanceOf(a)).balance).toBe(700);
  });

  it('pages the ledger with before', async () => {
    const a = await register(gw.url, 'cr-pages');
    for (let i = 1; i <= 5; i++) await grant(a.handle, i);
    const first = await api(gw.url, 'GET', `/agents/${a.handle}/credits/ledger?limit=2`, { secret: a.secret });
    expect(first.body.entries.map((e: any) => e.amount)).toEqual([5, 4]);
    const next = await api(gw.url, 'GET', `/agents/${a.handle}/credits/ledger?limit=2&before=${first.body.next_before}`, { secret: a.secret });
    expect(next.body.entries.map((e: any) => e.amount)).toEqual([3, 2]);
  });

  it('the ledger is append-only in the database', async () => {
    const a = await register(gw.url, 'cr-append');
    await grant(a.handle, 10);
    await expect(gw.gateway.db.run('UPDATE credit_ledger SET amount = 1000000')).rejects.toThrow(/append-only/);
    await expect(gw.gateway.db.run("DELETE FROM credit_ledger WHERE agent_id = (SELECT id FROM agents WHERE handle = 'cr-append')")).rejects.toThrow(/append-only/);
    await expect(
      gw.gateway.db.run("UPDATE credit_balances SET balance = -1 WHERE agent_id = (SELECT id FROM agents WHERE handle = 'cr-append')"),
    ).rejects.toThrow(/CHECK constraint failed|violates check constraint/);
    // Its rows go only with the agent.
    const id = (await gw.gateway.db.get<{ id: string }>("SELECT id FROM agents WHERE handle = 'cr-append'"))!.id;
    expect((await api(gw.url, 'DELETE', `/agents/${a.handle}`, { secret: a.secret })).status).toBeLessThan(300);
    expect(await gw.gateway.db.get('SELECT 1 AS x FROM credit_ledger WHERE agent_id = ?', [id])).toBeUndefined();
  });
});
