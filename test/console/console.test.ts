// The operator console on seeded data: the operator API's reads and actions (and their 401/403), then the console in
// headless Chromium: charts present as SVG with marks and the seeded numbers in their tables, every action changing
// what the API then reports, and a POST without the form token refused. UPDATE_SCREENSHOTS=1 writes the overview's
// screenshot to docs/images/console-overview.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { holdStatements } from '../../src/store/accounts.js';
import { insertOrder } from '../../src/store/orders.js';
import { hasChromium, launchBrowser } from '../helpers/browser.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { DAY, order, orderId, seedAccount } from './seed.js';

const OP = 'operator-token-for-the-console-tests';
const op = { 'x-operator-token': OP };
let gw: TestGateway;
let now: number;
const day = (n: number) => new Date(now - n * DAY).toISOString().slice(0, 10);
let keyId: string;
let plainKey: string;

beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OP } });
  now = gw.clock.now();
  const db = gw.gateway.db;
  for (const h of ['alice', 'bob', 'carol']) await register(gw.url, h);
  const ids = Object.fromEntries((await db.all<{ id: string; handle: string }>('SELECT id, handle FROM agents')).map((a) => [a.handle, a.id]));
  await db.run('INSERT INTO storage_usage (owner_id, bytes) VALUES (?, 5000000) ON CONFLICT (owner_id) DO UPDATE SET bytes = 5000000', [ids.alice!]);
  await db.run('INSERT INTO storage_usage (owner_id, bytes) VALUES (?, 3000000) ON CONFLICT (owner_id) DO UPDATE SET bytes = 3000000', [ids.bob!]);
  await db.run("INSERT INTO tool_usage (tool, day, calls, errors) VALUES ('memory_set', ?, 40, 0), ('memory_get', ?, 25, 0)", [day(3), day(3)]);
  await seedAccount(db, 'acct_ops', 'ops@example.com', 10_000_000, now);
  const captured = (n: number, service: string, rail: 'credits' | 'x402' | 'card', charged: number, ago: number) =>
    insertOrder(db, order({ id: orderId(n), account_id: 'acct_ops', service, rail, status: 'delivered', payment_state: 'captured', price: charged, charged, created_at: now - ago * DAY, closed_at: now - ago * DAY }));
  await captured(1, 'copy.ad', 'credits', 1_500_000, 1);
  await captured(2, 'seo.audit', 'x402', 2_000_000, 1);
  await captured(3, 'copy.ad', 'card', 500_000, 2);
  // A placed order paid from the prepaid balance, its hold taken as the credits rail takes it.
  await db.batch(holdStatements({ accountId: 'acct_ops', amount: 700_000, reason: 'hold:copy.ad', reference: orderId(4), now }));
  await insertOrder(db, order({ id: orderId(4), account_id: 'acct_ops', service: 'copy.ad', rail: 'credits', status: 'placed', payment_state: 'held', price: 700_000, hold_amount: 700_000, created_at: now }));
  for (let i = 0; i < 2; i++) {
    await db.run("INSERT INTO webhook_deliveries (source, ref, agent_id, url, body, secret, status, created_at, finished_at) VALUES ('job', ?, NULL, 'https://example.com/h', '{}', 's', 'failed', ?, ?)", [`job_w${i}`, now - 2 * DAY, now - 2 * DAY]);
  }
  await db.run("INSERT INTO jobs (id, agent_id, type, input, status, created_at, due_at, finished_at) VALUES ('job_f1', NULL, 'echo', '{}', 'failed', ?, ?, ?)", [now - 2 * DAY, now - 2 * DAY, now - 2 * DAY]);
  const k = await api(gw.url, 'POST', '/keys/issue', { body: { email: 'dev@example.com' } });
  expect(k.status).toBe(201);
  plainKey = k.body.key;
  keyId = (await api(gw.url, 'GET', '/operator/keys', { headers: op })).body.keys[0].key_id;
});

afterAll(async () => {
  await gw?.cleanup();
});

describe('operator API', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/operator/overview'],
    ['GET', '/operator/agents'],
    ['GET', '/operator/orders'],
    ['GET', '/operator/keys'],
    ['GET', '/operator/x402'],
    ['POST', `/operator/keys/key_nonexistent1/revoke`],
    ['POST', `/operator/orders/${orderId(1)}/cancel`],
    ['POST', `/operator/orders/${orderId(1)}/refund`, { reason: 'x' }],
    ['DELETE', '/operator/agents/carol'],
  ];
  it('refuses every console route without the operator token (401) and with a wrong one (403)', async () => {
    for (const [method, path, body] of routes) {
      expect((await api(gw.url, method, path, { body })).status, `${method} ${path}`).toBe(401);
      expect((await api(gw.url, method, path, { body, headers: { 'x-operator-token': 'wrong-wrong-wrong-wrong' } })).status, `${method} ${path}`).toBe(403);
    }
  });

  it('reports the seeded aggregates in the overview', async () => {
    const r = await api(gw.url, 'GET', '/operator/overview?days=7', { headers: op });
    expect(r.status).toBe(200);
    expect(r.body.agents_per_day).toContainEqual({ day: day(0), count: 3 });
    expect(r.body.tool_calls_per_day).toEqual(expect.arrayContaining([{ day: day(3), tool: 'memory_set', calls: 40 }, { day: day(3), tool: 'memory_get', calls: 25 }]));
    expect(r.body.revenue_per_day).toEqual(
      expect.arrayContaining([
        { day: day(1), service: 'copy.ad', rail: 'credits', amount: 1_500_000 },
        { day: day(1), service: 'seo.audit', rail: 'x402', amount: 2_000_000 },
        { day: day(2), service: 'copy.ad', rail: 'card', amount: 500_000 },
      ]),
    );
    expect(r.body.orders_by_state).toEqual(expect.arrayContaining([{ status: 'delivered', count: 3 }, { status: 'placed', count: 1 }]));
    expect(r.body.failures_per_day).toEqual(expect.arrayContaining([{ day: day(2), kind: 'webhook', count: 2 }, { day: day(2), kind: 'job', count: 1 }]));
    expect(r.body.top_storage.slice(0, 2)).toEqual([{ owner: 'alice', kind: 'agent', bytes: 5_000_000 }, { owner: 'bob', kind: 'agent', bytes: 3_000_000 }]);
  });

  it('answers 422 for a bad filter and 404 for an unknown key or order', async () => {
    expect((await api(gw.url, 'GET', '/operator/orders?status=lost', { headers: op })).status).toBe(422);
    expect((await api(gw.url, 'POST', '/operator/keys/key_nonexistent1/revoke', { headers: op })).status).toBe(404);
    expect((await api(gw.url, 'POST', `/operator/orders/${orderId(99)}/cancel`, { headers: op })).status).toBe(404);
  });
});

describe.skipIf(!hasChromium)('operator console in Chromium', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${gw.url}/operator`);
    await page.fill('input[name=token]', OP);
    await Promise.all([page.waitForURL(`${gw.url}/operator`), page.click('button[type=submit]')]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const cells = (chart: string) => page.locator(`[data-chart="${chart}"] table tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));

  it('shows every chart as SVG with marks and the seeded numbers beside it', async () => {
    await page.goto(`${gw.url}/operator?days=7`);
    expect(await page.locator('h1').innerText()).toBe('Overview');
    for (const chart of ['agents', 'tools', 'revenueByService', 'revenueByRail', 'orders', 'failures', 'storage']) {
      const svg = page.locator(`[data-chart="${chart}"] svg`);
      expect(await svg.count(), chart).toBe(1);
      expect(await svg.locator('.role-mark path, .role-mark line, .mark-rect path, .mark-line path').count(), chart).toBeGreaterThan(0);
    }
    expect(await cells('agents')).toContainEqual([day(0), '3']);
    expect(await cells('tools')).toEqual(expect.arrayContaining([[day(3), 'memory_set', '40'], [day(3), 'memory_get', '25']]));
    expect(await cells('revenueByService')).toEqual(expect.arrayContaining([[day(1), 'copy.ad', '$1.50'], [day(1), 'seo.audit', '$2.00'], [day(2), 'copy.ad', '$0.50']]));
    expect(await cells('revenueByRail')).toEqual(expect.arrayContaining([[day(1), 'credits', '$1.50'], [day(1), 'x402', '$2.00'], [day(2), 'card', '$0.50']]));
    expect(await cells('orders')).toEqual(expect.arrayContaining([['delivered', '3'], ['placed', '1']]));
    expect(await cells('failures')).toEqual(expect.arrayContaining([[day(2), 'webhook', '2'], [day(2), 'job', '1']]));
    expect((await cells('storage')).slice(0, 2)).toEqual([['@alice', '5000000'], ['@bob', '3000000']]);
    // The storage chart's labels are the handles, as text Vega wrote.
    expect(await page.locator('[data-chart="storage"] svg text', { hasText: '@alice' }).count()).toBeGreaterThan(0);
    if (process.env.UPDATE_SCREENSHOTS === '1') await page.screenshot({ path: 'docs/images/console-overview.png', fullPage: true });
  });

  it('grants credits and deletes an agent, as the API then reports', async () => {
    await page.goto(`${gw.url}/operator/console/agents?handle=car`);
    const row = page.locator('[data-agent="carol"]');
    await row.locator('input[name=amount]').fill('1234');
    await row.locator('form[action$="/credits"] input[name=reason]').fill('welcome');
    await Promise.all([page.waitForURL(/\/operator\/console\/agents$/), row.locator('form[action$="/credits"] button').click()]);
    const agents = await api(gw.url, 'GET', '/operator/agents?handle=carol', { headers: op });
    expect(agents.body.agents[0]).toMatchObject({ handle: 'carol', credits: 1234 });
    await page.goto(`${gw.url}/operator/console/agents?handle=carol`);
    await page.locator('[data-agent="carol"] input[name=confirm]').fill('carol');
    await Promise.all([page.waitForURL(/\/operator\/console\/agents$/), page.locator('[data-agent="carol"] form[action$="/delete"] button').click()]);
    expect((await api(gw.url, 'GET', '/agents/carol')).status).toBe(404);
  });

  it('cancels a placed order and refunds a captured one, as the API then reports', async () => {
    await page.goto(`${gw.url}/operator/console/orders?status=placed`);
    await Promise.all([page.waitForURL(/\/operator\/console\/orders$/), page.locator(`[data-order="${orderId(4)}"] form[action$="/cancel"] button`).click()]);
    let orders = (await api(gw.url, 'GET', '/operator/orders', { headers: op })).body.orders as { order_id: string; status: string; refunded_micro_usd: number }[];
    expect(orders.find((o) => o.order_id === orderId(4))?.status).toBe('canceled');
    const refundRow = page.locator(`[data-order="${orderId(1)}"]`);
    await refundRow.locator('input[name=reason]').fill('goodwill');
    await Promise.all([page.waitForURL(/\/operator\/console\/orders$/), refundRow.locator('form[action$="/refund"] button').click()]);
    orders = (await api(gw.url, 'GET', '/operator/orders', { headers: op })).body.orders;
    expect(orders.find((o) => o.order_id === orderId(1))?.refunded_micro_usd).toBe(1_500_000);
    expect(await page.locator(`[data-order="${orderId(1)}"] [data-refunded]`).innerText()).toBe('$1.50');
    // Once per order.
    expect((await api(gw.url, 'POST', `/operator/orders/${orderId(1)}/refund`, { headers: op, body: { reason: 'again' } })).status).toBe(409);
  });

  it('revokes a key, as the API then reports, and the key is refused at once', async () => {
    const convert = () => api(gw.url, 'POST', '/tools/base_convert', { body: { value: '255', from_base: 10, to_base: 2 }, headers: { 'x-api-key': plainKey } });
    expect((await convert()).status).toBe(200);
    await page.goto(`${gw.url}/operator/console/keys?state=active`);
    await Promise.all([page.waitForURL(/\/operator\/console\/keys$/), page.locator(`[data-key="${keyId}"] form[action$="/revoke"] button`).click()]);
    const keys = (await api(gw.url, 'GET', '/operator/keys?state=revoked', { headers: op })).body.keys as { key_id: string; revoked_at: string | null }[];
    expect(keys.find((k) => k.key_id === keyId)?.revoked_at).not.toBeNull();
    // Not served from the key cache after its revocation.
    expect((await convert()).status).not.toBe(200);
  });

  it('refuses a POST without the form token, or without the operator cookie', async () => {
    const cookie = (await page.context().cookies()).find((c) => c.name === 'gw_operator')!;
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${gw.url}/operator/console/agents/alice/credits`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body, redirect: 'manual' });
    expect((await post({ cookie: `gw_operator=${cookie.value}` }, 'amount=5&reason=x')).status).toBe(403);
    expect((await post({ cookie: `gw_operator=${cookie.value}` }, 'amount=5&reason=x&form_token=forged')).status).toBe(403);
    const token = await page.locator('input[name=form_token]').first().getAttribute('value');
    expect((await post({}, `amount=5&reason=x&form_token=${token}`)).status).toBe(401);
    const agents = await api(gw.url, 'GET', '/operator/agents?handle=alice', { headers: op });
    expect(agents.body.agents[0].credits).toBe(0);
    // With both, the same POST acts.
    expect((await post({ cookie: `gw_operator=${cookie.value}` }, `amount=5&reason=x&form_token=${token}`)).status).toBe(303);
    expect((await api(gw.url, 'GET', '/operator/agents?handle=alice', { headers: op })).body.agents[0].credits).toBe(5);
  });

  it('pages the lists, and shows a bad filter as a refusal', async () => {
    const first = await api(gw.url, 'GET', '/operator/orders?limit=2', { headers: op });
    expect(first.body).toMatchObject({ next_offset: 2 });
    const rest = await api(gw.url, 'GET', '/operator/orders?limit=2&offset=2', { headers: op });
    expect(rest.body.next_offset).toBeNull();
    expect(new Set([...first.body.orders, ...rest.body.orders].map((o: { order_id: string }) => o.order_id)).size).toBe(4);
    await page.goto(`${gw.url}/operator/console/x402`);
    expect(await page.locator('h1').innerText()).toBe('x402 settlements');
    await page.goto(`${gw.url}/operator/console/orders?status=lost`);
    expect(await page.locator('h1').innerText()).toBe('Not done');
  });
});
