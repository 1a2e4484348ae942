// The commercial group end to end over HTTP at {api_url} and over MCP: signup, usage, operator credit by email,
// orders through delivery and capture, failure and cancellation with release, dev tasks with revision and
// acceptance, content generated within the request, another account's orders unseen, and a 402 before any work.
// The language model is an OpenAI-compatible server on loopback whose replies follow the prompt.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { creditAccount, orderSettles, revenueKey as key, signUp } from '../helpers/commerce.js';
import { startScriptedLlm, type RecordedRequest, type Scripted, type ScriptedLlm } from '../helpers/scripted-llm.js';
import { adsReply, DEV_REPLY, words } from './content-fixtures.js';
import { stdioClient } from '../verbs/clients.js';

const OPERATOR = 'operator-token-for-orders-test';
let gw: TestGateway;
let llm: ScriptedLlm;
/** Replies that override the prompt-driven ones, taken first (a test scripts failures and delays with them). */
const queued: Scripted[] = [];

function reply(req: RecordedRequest): Scripted {
  const next = queued.shift();
  if (next !== undefined) return next;
  const prompt = (req.body.messages as { content: string }[]).map((m) => m.content).join('\n');
  if (/development task/i.test(prompt)) return /revisions/i.test(prompt) ? DEV_REPLY.replace('It adds.', 'It adds, as revised.') : DEV_REPLY;
  const target = /about (\d+) words/.exec(prompt);
  if (target) return `# A title\n\n${words(Number(target[1]))}`;
  return adsReply();
}

const operator = { 'x-operator-token': OPERATOR };

const signup = (email: string) => signUp(gw, email, 'Test Co');
const credit = (email: string, amount: number) => creditAccount(gw, email, amount, { operatorToken: OPERATOR, reason: 'invoice paid' });
const balanceOf = async (k: string): Promise<number> => (await api(gw.apiUrl, 'GET', '/usage', { headers: key(k) })).body.balance;
const settled = (k: string, id: string, status: string) => orderSettles(gw, k, id, status);

beforeAll(async () => {
  llm = await startScriptedLlm((req) => reply(req));
  gw = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY: '100', LLM_BASE_URL: llm.url, LLM_MODEL: llm.model } });
});
afterAll(async () => {
  await gw.cleanup();
  await llm.close();
});

describe('accounts', () => {
  it('signs up once per email, with a key shown once, and reads usage with it', async () => {
    const r = await api(gw.apiUrl, 'POST', '/signup', { body: { email: 'Ann@Example.com', name: 'Ann' } });
    expect(r.status).toBe(201);
    expect(r.body.key).toMatch(/^agr_live_[A-Za-z0-9_-]{43}$/);
    expect(r.body.email).toBe('ann@example.com');
    const again = await api(gw.apiUrl, 'POST', '/signup', { body: { email: 'ann@example.com', name: 'Ann again' } });
    expect(again.status).toBe(409);
    expect(again.body.error.reason).toBe('email_taken');
    expect(again.body.error.message).toMatch(/operator/);
    const usage = await api(gw.apiUrl, 'GET', '/usage', { headers: key(r.body.key) });
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({ email: 'ann@example.com', balance: 0, open_orders: 0, held: { micro_usd: 0 } });
    expect(JSON.stringify(usage.body)).not.toContain(r.body.key);
    // The spec's other credential form: the key as a Bearer.
    expect((await api(gw.apiUrl, 'GET', '/usage', { headers: { authorization: `Bearer ${r.body.key}` } })).status).toBe(200);
  });

  it('refuses bad input with 422 and missing or wrong keys with 401 and 403', async () => {
    const bad = await api(gw.apiUrl, 'POST', '/signup', { body: { email: 'not-an-email', name: 'X' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'email']);
    expect((await api(gw.apiUrl, 'GET', '/usage')).status).toBe(401);
    expect((await api(gw.apiUrl, 'GET', '/usage', { headers: key(`agr_live_${'x'.repeat(43)}`) })).status).toBe(403);
  });

  it('the operator credits an account by email and replaces a lost key; others cannot', async () => {
    const k = await signup('credit@example.com');
    expect((await api(gw.url, 'POST', '/operator/credits', { body: { email: 'credit@example.com', amount: 1000, reason: 'promo' } })).status).toBe(401);
    expect((await api(gw.url, 'POST', '/operator/credits', { body: { email: 'nobody@example.com', amount: 1000, reason: 'promo' }, headers: operator })).status).toBe(404);
    await credit('credit@example.com', 2_500_000);
    expect(await balanceOf(k)).toBe(2_500_000);
    const replaced = await api(gw.url, 'POST', '/operator/accounts/key', { body: { email: 'credit@example.com' }, headers: operator });
    expect(replaced.status).toBe(201);
    expect((await api(gw.apiUrl, 'GET', '/usage', { headers: key(k) })).status).toBe(403);
    expect(await balanceOf(replaced.body.key)).toBe(2_500_000);
  });

  it('limits signups per client address a day', async () => {
    const limited = await startGateway({ env: { GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY: '2' } });
    try {
      for (const n of [1, 2]) expect((await api(limited.apiUrl, 'POST', '/signup', { body: { email: `n${n}@example.com`, name: 'N' } })).status).toBe(201);
      const third = await api(limited.apiUrl, 'POST', '/signup', { body: { email: 'n3@example.com', name: 'N' } });
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBe('86400');
      limited.clock.advance(24 * 3600_000 + 1);
      expect((await api(limited.apiUrl, 'POST', '/signup', { body: { email: 'n3@example.com', name: 'N' } })).status).toBe(201);
    } finally {
      await limited.cleanup();
    }
  });

  it('serves health, readiness and its own OpenAPI 3.1 document', async () => {
    expect((await api(gw.apiUrl, 'GET', '/healthz')).status).toBe(200);
    expect((await api(gw.apiUrl, 'GET', '/readyz')).status).toBe(200);
    const doc = (await api(gw.apiUrl, 'GET', '/openapi.json')).body;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/signup', '/usage', '/copy/orders', '/orders', '/orders/{order_id}', '/dev/tasks', '/v1/content/generate']));
    expect(doc.servers[0].url).toBe(gw.apiUrl);
    // The gateway's own paths are not served here.
    expect((await api(gw.apiUrl, 'GET', '/agents/someone')).status).toBe(404);
  });
});

describe('orders charged on delivery', () => {
  it('refuses an unfunded order with 402 before any work, saying how to pay, with an x402 challenge for its price', async () => {
    const k = await signup('broke@example.com');
    const seen = llm.requests.length;
    const r = await api(gw.apiUrl, 'POST', '/copy/orders', { body: { type: 'ad', brief: 'A courier', platform: 'Facebook' }, headers: key(k) });
    expect(r.status).toBe(402);
    // The error says how to pay; beside it the x402 v2 challenge for the order's price and the other ways to pay.
    expect(r.body.error).toMatchObject({ code: 'payment_required', message: expect.stringMatching(/prepaid balance/) });
    expect(r.body.x402Version).toBe(2);
    expect(r.body.accepts[0].amount).toBe('5000000');
    expect(r.body.price).toEqual({ usd: '5', micro_usd: 5_000_000 });
    expect(r.body.rails).toEqual(expect.arrayContaining(['credits', 'x402']));
    expect(r.headers.get('payment-required')).toBeTruthy();
    expect((await api(gw.apiUrl, 'GET', '/orders', { headers: key(k) })).body.orders).toEqual([]);
    expect(llm.requests.length).toBe(seen);
  });

  it('delivers a copy order and captures its price once; usage shows the spend', async () => {
    const k = await signup('ads@example.com');
    await credit('ads@example.com', 12_000_000);
    const placed = await api(gw.apiUrl, 'POST', '/copy/orders', { body: { type: 'ad', brief: 'A same-day courier in town', platform: 'Facebook' }, headers: key(k) });
    expect(placed.status).toBe(202);
    expect(placed.body).toMatchObject({ service: 'copy.ad', price: { usd: '5' }, payment: { rail: 'credits', state: 'held' } });
    expect(placed.headers.get('location')).toBe(`${gw.apiUrl}/orders/${placed.body.order_id}`);
    const done = await settled(k, placed.body.order_id, 'delivered');
    expect(done.result.variations).toHaveLength(5);
    expect(done.payment).toMatchObject({ state: 'captured', charged_micro_usd: 5_000_000 });
    expect(await balanceOf(k)).toBe(7_000_000);
    const usage = (await api(gw.apiUrl, 'GET', '/usage', { headers: key(k) })).body;
    expect(usage.month.services).toEqual([{ service: 'copy.ad', orders: 1, delivered: 1, spent: { micro_usd: 5_000_000, usd: '5' } }]);
    expect(usage.captured).toMatchObject({ micro_usd: 5_000_000, charges: 1 });
    expect(usage).toMatchObject({ open_orders: 0, held: { micro_usd: 0 } });
    // A month later this month's use starts from nothing; the charges captured stay.
    gw.clock.advance(32 * 24 * 3600_000);
    const next = (await api(gw.apiUrl, 'GET', '/usage', { headers: key(k) })).body;
    expect(next.month.services).toEqual([]);
    expect(next.captured).toMatchObject({ micro_usd: 5_000_000, charges: 1 });
  });

  it('fails an order whose replies keep missing the shape, and releases its hold', async () => {
    const k = await signup('fail@example.com');
    await credit('fail@example.com', 20_000_000);
    queued.push('nothing useful', 'still nothing', 'no variations at all');
    const placed = await api(gw.apiUrl, 'POST', '/copy/orders', { body: { type: 'ad', brief: 'Shoes', platform: 'LinkedIn' }, headers: key(k) });
    expect(placed.status).toBe(202);
    const failed = await settled(k, placed.body.order_id, 'failed');
    expect(failed.payment).toMatchObject({ state: 'released', charged_micro_usd: 0 });
    expect(failed.result).toBeNull();
    expect(await balanceOf(k)).toBe(20_000_000);
  });

  it('cancels an order before its result is made: released, and the late result is never charged', async () => {
    const k = await signup('cancel@example.com');
    await credit('cancel@example.com', 10_000_000);
    queued.push({ content: adsReply(), delayMs: 600 });
    const placed = await api(gw.apiUrl, 'POST', '/copy/orders', { body: { type: 'ad', brief: 'Bikes', platform: 'Facebook' }, headers: key(k) });
    const canceled = await api(gw.apiUrl, 'POST', `/orders/${placed.body.order_id}/cancel`, { headers: key(k) });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', payment: { state: 'released' } });
    await new Promise((r) => setTimeout(r, 900));
    const after = (await api(gw.apiUrl, 'GET', `/orders/${placed.body.order_id}`, { headers: key(k) })).body;
    expect(after).toMatchObject({ status: 'canceled', result: null, payment: { state: 'released' } });
    expect(await balanceOf(k)).toBe(10_000_000);
    // Too late once delivered.
    const second = await api(gw.apiUrl, 'POST', '/copy/orders', { body: { type: 'ad', brief: 'Bikes', platform: 'Facebook' }, headers: key(k) });
    await settled(k, second.body.order_id, 'delivered');
    expect((await api(gw.apiUrl, 'POST', `/orders/${second.body.order_id}/cancel`, { headers: key(k) })).status).toBe(409);
  });

  it('never shows or lets another account touch an order', async () => {
    const owner = await signup('owner@example.com');
    const other = await signup('other@example.com');
    await credit('owner@example.com', 5_000_000);
    const placed = await api(gw.apiUrl, 'POST', '/copy/orders', { body: { type: 'ad', brief: 'Tea', platform: 'Facebook' }, headers: key(owner) });
    for (const [method, path, body] of [['GET', '', undefined], ['POST', '/cancel', undefined], ['POST', '/accept', undefined], ['POST', '/revisions', { notes: 'mine now' }]] as const) {
      const r = await api(gw.apiUrl, method, `/orders/${placed.body.order_id}${path}`, { headers: key(other), body });
      expect(r.status).toBe(404);
    }
    expect((await api(gw.apiUrl, 'GET', '/orders', { headers: key(other) })).body.orders).toEqual([]);
    expect((await api(gw.apiUrl, 'GET', `/orders/${placed.body.order_id}`)).status).toBe(401);
  });

  it('validates order input with 422 before any hold', async () => {
    const k = await signup('invalid@example.com');
    await credit('invalid@example.com', 50_000_000);
    const r = await api(gw.apiUrl, 'POST', '/orders', { body: { type: 'blog', topic: 'Tea' }, headers: key(k) });
    expect(r.status).toBe(422);
    expect((await api(gw.apiUrl, 'POST', '/copy/orders', { body: { type: 'poem', brief: 'x' }, headers: key(k) })).status).toBe(422);
    expect((await api(gw.apiUrl, 'POST', '/orders', { body: { type: 'blog', topic: 'Tea', word_count: 20 }, headers: key(k) })).status).toBe(422);
    const unknown = await api(gw.apiUrl, 'POST', '/orders', { body: { type: 'blog', topic: 'Tea', word_count: 500, colour: 'red' }, headers: key(k) });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].loc).toEqual(['body', 'colour']);
    expect((await api(gw.apiUrl, 'POST', '/copy/orders', { body: { type: 'ad', brief: 'x', webhook_url: 'not a url' }, headers: key(k) })).status).toBe(422);
    expect(await balanceOf(k)).toBe(50_000_000);
  });

  it('prices a blog post by its length and delivers it within ±15% of the word count', async () => {
    const k = await signup('blog@example.com');
    await credit('blog@example.com', 40_000_000);
    const placed = await api(gw.apiUrl, 'POST', '/orders', { body: { type: 'blog', topic: 'Tea gardens', word_count: 1000 }, headers: key(k) });
    expect(placed.status).toBe(202);
    expect(placed.body.price).toMatchObject({ usd: '25', price_id: 'content.blog.medium' });
    const done = await settled(k, placed.body.order_id, 'delivered');
    expect(done.result.word_count).toBeGreaterThanOrEqual(850);
    expect(done.result.word_count).toBeLessThanOrEqual(1150);
    expect(await balanceOf(k)).toBe(15_000_000);
  });

  it('delivers every other copy and content type in its shape, each charged its price', async () => {
    const k = await signup('every@example.com');
    await credit('every@example.com', 100_000_000);
    const email = (i: number) => `### Email ${i + 1}\nSubject: Step ${i + 1}\nBody:\nHi there,\n\n${words(40, i)}.\n\nThe Team`;
    const product = (i: number) => `### Product ${i + 1}\n**Title:** Mug ${i + 1}\n**Description:**\n${words(25, i)}.`;
    const post = (i: number) => `### Post ${i + 1}\n${words(12, i)} #coffee`;
    const cases = [
      { path: '/copy/orders', body: { type: 'email_sequence', brief: 'Onboarding for a to-do app', platform: 'email' }, reply: [0, 1, 2, 3, 4].map(email).join('\n\n'), usd: '15', check: (r: any) => expect(r.emails).toHaveLength(5) },
      { path: '/copy/orders', body: { type: 'product_description', brief: 'Ten ceramic mugs', platform: 'Shopify' }, reply: [...Array(10).keys()].map(product).join('\n\n'), usd: '10', check: (r: any) => expect(r.descriptions).toHaveLength(10) },
      { path: '/orders', body: { type: 'social_pack', topic: 'Our new coffee', platform: 'X' }, reply: [...Array(10).keys()].map(post).join('\n\n'), usd: '5', check: (r: any) => expect(r.posts).toHaveLength(10) },
      { path: '/orders', body: { type: 'newsletter', topic: 'March news', word_count: 300 }, reply: `Subject: March news\n\n${words(300)}`, usd: '25', check: (r: any) => expect(r.subject).toBe('March news') },
    ];
    let spent = 0;
    for (const c of cases) {
      queued.push(c.reply);
      const placed = await api(gw.apiUrl, 'POST', c.path, { body: c.body, headers: key(k) });
      expect(placed.status).toBe(202);
      expect(placed.body.price.usd).toBe(c.usd);
      const done = await settled(k, placed.body.order_id, 'delivered');
      c.check(done.result);
      spent += Number(c.usd) * 1_000_000;
      expect(done.payment.charged_micro_usd).toBe(Number(c.usd) * 1_000_000);
    }
    expect(await balanceOf(k)).toBe(100_000_000 - spent);
  });

  it('generates content within the request: 200 with the content, only the tokens used charged', async () => {
    const k = await signup('gen@example.com');
    await credit('gen@example.com', 5_000_000);
    const r = await api(gw.apiUrl, 'POST', '/v1/content/generate', { body: { topic: 'Rain', type: 'article', tone: 'calm', word_count: 200 }, headers: key(k) });
    expect(r.status).toBe(200);
    expect(r.body.content.split(/\s+/).length).toBeGreaterThan(150);
    expect(r.body.order_id).toMatch(/^ord_/);
    const charged = r.body.charged.micro_usd as number;
    expect(charged).toBeGreaterThan(0);
    const order = (await api(gw.apiUrl, 'GET', `/orders/${r.body.order_id}`, { headers: key(k) })).body;
    expect(order).toMatchObject({ status: 'delivered', payment: { state: 'captured', charged_micro_usd: charged } });
    expect(charged).toBeLessThan(order.price.micro_usd);
    expect(await balanceOf(k)).toBe(5_000_000 - charged);
  });
});

describe('dev tasks', () => {
  it('quotes, delivers, takes a revision, and captures only on acceptance', async () => {
    const k = await signup('dev@example.com');
    await credit('dev@example.com', 30_000_000);
    const body = { description: 'Write a function that adds two numbers.', language: 'python' };
    const quote = await api(gw.apiUrl, 'POST', '/dev/tasks', { body: { ...body, quote_only: true }, headers: key(k) });
    expect(quote.body).toMatchObject({ ordered: false, quote: { tier: 'simple', price: { usd: '25' } } });
    const placed = await api(gw.apiUrl, 'POST', '/dev/tasks', { body, headers: key(k) });
    expect(placed.status).toBe(202);
    expect(placed.body.quote.tier).toBe('simple');
    const delivered = await settled(k, placed.body.order_id, 'delivered');
    expect(delivered.payment.state).toBe('held');
    expect(delivered.result.code_blocks[0].code).toContain('def add');
    expect(await balanceOf(k)).toBe(5_000_000);
    const revised = await api(gw.apiUrl, 'POST', `/orders/${placed.body.order_id}/revisions`, { body: { notes: 'Explain more.' }, headers: key(k) });
    expect(revised.status).toBe(200);
    expect(revised.body.revisions).toBe(1);
    const again = await eventually(async () => {
      const o = await settled(k, placed.body.order_id, 'delivered');
      if (!o.result.markdown.includes('as revised')) throw new Error('not revised yet');
      return o;
    }, 10_000);
    expect(again.payment.state).toBe('held');
    const accepted = await api(gw.apiUrl, 'POST', `/orders/${placed.body.order_id}/accept`, { headers: key(k) });
    expect(accepted.body).toMatchObject({ status: 'accepted', payment: { state: 'captured', charged_micro_usd: 25_000_000 } });
    expect(await balanceOf(k)).toBe(5_000_000);
    expect((await api(gw.apiUrl, 'POST', `/orders/${placed.body.order_id}/revisions`, { body: { notes: 'More' }, headers: key(k) })).status).toBe(409);
  });

  it('accepts a delivered dev task by itself when its window ends', async () => {
    const k = await signup('auto@example.com');
    await credit('auto@example.com', 25_000_000);
    const placed = await api(gw.apiUrl, 'POST', '/dev/tasks', { body: { description: 'Add two numbers.', language: 'python' }, headers: key(k) });
    await settled(k, placed.body.order_id, 'delivered');
    gw.clock.advance(6 * 24 * 3600_000);
    await gw.gateway.registry.services.scheduler.runDue();
    const o = await settled(k, placed.body.order_id, 'accepted');
    expect(o.payment).toMatchObject({ state: 'captured', charged_micro_usd: 25_000_000 });
  });

  it('refuses x402 for a dev task, which is captured days later', async () => {
    const k = await signup('devx402@example.com');
    const r = await api(gw.apiUrl, 'POST', '/dev/tasks', { body: { description: 'Add.', language: 'go' }, headers: { ...key(k), 'payment-signature': 'e30=' } });
    expect(r.status).toBe(402);
    expect(r.body.error.message).toMatch(/x402 authorization cannot wait/);
  });
});

describe('over MCP', () => {
  it('places and reads an order with the revenue key as the credential', async () => {
    const k = await signup('mcp@example.com');
    await credit('mcp@example.com', 5_000_000);
    const client = new ClientV2({ name: 'orders-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new TransportV2(new URL(`${gw.url}/mcp`), { requestInit: { headers: key(k) } }));
    try {
      const usage = await client.callTool({ name: 'commercial_usage', arguments: {} });
      expect((usage.structuredContent as any).balance).toBe(5_000_000);
      const placed = await client.callTool({ name: 'copy_order', arguments: { type: 'ad', brief: 'Coffee', platform: 'Facebook' } });
      const id = (placed.structuredContent as any).order_id;
      await settled(k, id, 'delivered');
      const got = await client.callTool({ name: 'order_get', arguments: { order_id: id } });
      expect((got.structuredContent as any).payment.state).toBe('captured');
      const listed = await client.callTool({ name: 'orders_list', arguments: {} });
      expect((listed.structuredContent as any).orders.map((o: any) => o.order_id)).toEqual([id]);
      // Another account's key over MCP: the same order reads as one that does not exist.
      const stranger = await signup('mcp-stranger@example.com');
      const other = new ClientV2({ name: 'orders-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await other.connect(new TransportV2(new URL(`${gw.url}/mcp`), { requestInit: { headers: key(stranger) } }));
      const hidden = await other.callTool({ name: 'order_get', arguments: { order_id: id } });
      expect(hidden.isError).toBe(true);
      expect(JSON.parse((hidden.content as any)[0].text).error.code).toBe('not_found');
      await other.close();
    } finally {
      await client.close();
    }
  });

  it('takes a dev task through revision and acceptance', async () => {
    const k = await signup('mcp-dev@example.com');
    await credit('mcp-dev@example.com', 25_000_000);
    const client = new ClientV2({ name: 'orders-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new TransportV2(new URL(`${gw.url}/mcp`), { requestInit: { headers: key(k) } }));
    try {
      const placed = await client.callTool({ name: 'dev_task_create', arguments: { description: 'Add two numbers.', language: 'python' } });
      const id = (placed.structuredContent as any).order_id;
      await settled(k, id, 'delivered');
      const revised = await client.callTool({ name: 'order_revise', arguments: { order_id: id, notes: 'More comments.' } });
      expect((revised.structuredContent as any).status).toBe('revision_requested');
      await settled(k, id, 'delivered');
      const accepted = await client.callTool({ name: 'order_accept', arguments: { order_id: id } });
      expect((accepted.structuredContent as any).payment).toMatchObject({ state: 'captured', charged_micro_usd: 25_000_000 });
    } finally {
      await client.close();
    }
  });
});

describe('over stdio', () => {
  it('reads the account of GATEWAY_REVENUE_KEY, in both eras', async () => {
    const k = await signup('stdio@example.com');
    await credit('stdio@example.com', 3_000_000);
    for (const mode of ['v2 pinned to 2026-07-28', 'v2 legacy'] as const) {
      const c = await stdioClient(gw.dataDir, '', mode, { GATEWAY_REVENUE_KEY: k });
      try {
        const r = await c.call('commercial_usage', {});
        expect(r.isError).toBeFalsy();
        expect(r.structuredContent).toMatchObject({ email: 'stdio@example.com', balance: 3_000_000 });
      } finally {
        await c.close();
      }
    }
  });
});
