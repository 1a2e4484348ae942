// The commercial details of issue 43, end to end over HTTP at {api_url}: the review's languages listed (OpenAPI,
// GET /prices) and any other refused with 422 before anything is held, or reviewed by the model when one is
// configured (and never charged when it could not be); one 402 body on every endpoint; the spec's spellings of the
// order types; GET /v1/models for the official `openai` client; a model failure tried three times; a 422 that
// records no order; and a dev task the operator completes delivered at once, not at the order's next look.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../tools/commercial/review/languages.js';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { openAccount, revenueKey as key } from '../helpers/commerce.js';
import { startScriptedLlm, type RecordedRequest, type Scripted, type ScriptedLlm } from '../helpers/scripted-llm.js';
import { words } from './content-fixtures.js';

const OPERATOR = 'operator-token-for-commercial-details';
const COBOL = '       IDENTIFICATION DIVISION.\n       PROGRAM-ID. HELLO.\n       PROCEDURE DIVISION.\n           CALL "SYSTEM" USING USER-INPUT.\n           STOP RUN.\n';
const REVIEW_PRICE = 25_000_000;
const FAIL: Scripted = { status: 500, error: { message: 'the model server is down' } };

let llm: ScriptedLlm;
/** Replies for the review's model call and for content generation, taken in order; other prompts get no shape. */
const reviews: Scripted[] = [];
const generations: Scripted[] = [];
let withModel: TestGateway;
let bare: TestGateway;

const REVIEWING = /senior code reviewer/;
const GENERATING = /Write a finished/;
const promptOf = (req: RecordedRequest) => (req.body.messages as { content: string }[]).map((m) => m.content).join('\n');
/** How many calls the model has had of a kind (other orders of the tests run meanwhile). */
const calls = (kind: RegExp) => llm.requests.filter((r) => kind.test(promptOf(r))).length;

function reply(req: RecordedRequest): Scripted {
  const prompt = promptOf(req);
  if (REVIEWING.test(prompt)) return reviews.shift() ?? '{"findings":[]}';
  if (GENERATING.test(prompt)) return generations.shift() ?? FAIL;
  return 'nothing in the asked shape';
}

const account = (gw: TestGateway, email: string, credit = 0) => openAccount(gw, email, { credit, operatorToken: OPERATOR, name: 'Details Co' });
const ordersOf = async (gw: TestGateway, k: string) => (await api(gw.apiUrl, 'GET', '/orders', { headers: key(k) })).body.orders as { order_id: string }[];
const usageOf = async (gw: TestGateway, k: string) => (await api(gw.apiUrl, 'GET', '/usage', { headers: key(k) })).body;
const orderOf = async (gw: TestGateway, k: string, id: string) => (await api(gw.apiUrl, 'GET', `/orders/${id}`, { headers: key(k) })).body;

beforeAll(async () => {
  llm = await startScriptedLlm(reply);
  withModel = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY: '100', LLM_BASE_URL: llm.url, LLM_MODEL: llm.model } });
  bare = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY: '100' } });
});
afterAll(async () => {
  await withModel?.cleanup();
  await bare?.cleanup();
  await llm?.close();
});

describe('the review’s languages', () => {
  it('are listed in GET /openapi.json, on both review operations and their language field', async () => {
    const doc = (await api(bare.apiUrl, 'GET', '/openapi.json')).body;
    for (const path of ['/review', '/v1/code-review']) {
      const op = doc.paths[path].post;
      const field = op.requestBody.content['application/json'].schema.properties.language.description as string;
      for (const l of LANGUAGES) {
        expect(op.description, `${path} ${l}`).toContain(l);
        expect(field, `${path} ${l}`).toContain(l);
      }
      expect(op.description).toContain('422 unsupported_language');
    }
  });

  it('are listed on the review’s price entries at GET /prices, which give every price as charged', async () => {
    const r = await api(bare.apiUrl, 'GET', '/prices');
    expect(r.status).toBe(200);
    const byId = new Map((r.body.prices as { price_id: string }[]).map((p) => [p.price_id, p as any]));
    expect(byId.get('review')).toMatchObject({ service: 'review', path: '/review', price: { usd: '25', micro_usd: REVIEW_PRICE }, languages: [...LANGUAGES] });
    expect(byId.get('code_review.per_1k_tokens')).toMatchObject({ service: 'code_review', path: '/v1/code-review', price: { usd: '0.1' }, per: '1K tokens', languages: [...LANGUAGES] });
    expect(byId.get('review').other_languages).toMatch(/422 unsupported_language/);
    expect(byId.get('seo.deep')).toMatchObject({ path: '/seo/audits', price: { usd: '30' } });
    expect(byId.get('seo.deep').languages).toBeUndefined();
    expect(byId.size).toBe(18);
    // With a model configured, other languages go to it.
    const withIt = (await api(withModel.apiUrl, 'GET', '/prices')).body.prices.find((p: { price_id: string }) => p.price_id === 'review');
    expect(withIt.other_languages).toMatch(/model/);
  });

  it('refuses any other language with 422 unsupported_language before anything is held: no order, no hold', async () => {
    const k = await account(bare, 'cobol@example.com', 100_000_000);
    const cases = [
      { path: '/review', body: { code: COBOL, language: 'COBOL' }, loc: ['body', 'language'], named: 'cobol' },
      { path: '/review', body: { code: COBOL, filename: 'hello.cbl' }, loc: ['body', 'filename'], named: 'cbl' },
      { path: '/review', body: { code: COBOL }, loc: ['body', 'language'], named: 'unspecified' },
      { path: '/v1/code-review', body: { code: COBOL, language: 'cobol', focus: 'security' }, loc: ['body', 'language'], named: 'cobol' },
    ];
    for (const c of cases) {
      const r = await api(bare.apiUrl, 'POST', c.path, { body: c.body, headers: key(k) });
      expect(r.status, JSON.stringify(c.body)).toBe(422);
      expect(r.body.error).toMatchObject({ code: 'validation_error', reason: 'unsupported_language', language: c.named, supported: [...LANGUAGES] });
      expect(r.body.error.message).toContain('javascript, typescript, python, go, java, rust, ruby, php, csharp or shell');
      expect(r.body.detail).toEqual([expect.objectContaining({ loc: c.loc, type: 'unsupported_language' })]);
    }
    expect(await ordersOf(bare, k)).toEqual([]);
    expect(await usageOf(bare, k)).toMatchObject({ balance: 100_000_000, open_orders: 0, held: { micro_usd: 0 }, captured: { micro_usd: 0 } });
    // A supported language by alias or extension still goes through.
    const ok = await api(bare.apiUrl, 'POST', '/review', { body: { code: 'x = 1\n', filename: 'a.py' }, headers: key(k) });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ language: 'python', supported: true, charged: { micro_usd: REVIEW_PRICE } });
  });

  it('with a model configured, the model reviews it and the answer says so; charged as a review', async () => {
    const k = await account(withModel, 'model-cobol@example.com', 100_000_000);
    reviews.push(JSON.stringify({ findings: [{ line: 4, severity: 'critical', category: 'security', rule: 'command-injection', message: 'User input reaches a system call.', fix: 'Validate the input.' }] }));
    const r = await api(withModel.apiUrl, 'POST', '/review', { body: { code: COBOL, language: 'cobol' }, headers: key(k) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ language: 'cobol', supported: false, engines: ['model', 'secrets', 'secretlint'] });
    expect(r.body.notes).toEqual([expect.stringMatching(/the model reviewed it/)]);
    expect(r.body.findings).toMatchObject([{ rule_id: 'model/command-injection', line: 4, engine: 'model' }]);
    expect(r.body.charged.micro_usd).toBe(REVIEW_PRICE);
  });

  it('with a model that cannot review it, fails the order and charges nothing: a review not done is never charged', async () => {
    const k = await account(withModel, 'model-down@example.com', 100_000_000);
    const seen = calls(REVIEWING);
    reviews.push(FAIL, FAIL, FAIL);
    const r = await api(withModel.apiUrl, 'POST', '/review', { body: { code: COBOL, filename: 'hello.cbl' }, headers: key(k) });
    expect(r.status).toBe(502);
    expect(r.body.error.message).toMatch(/nothing was charged/);
    expect(calls(REVIEWING) - seen).toBe(3);
    expect(await orderOf(withModel, k, r.body.error.order_id)).toMatchObject({ service: 'review', status: 'failed', payment: { state: 'released', charged_micro_usd: 0 } });
    expect(await usageOf(withModel, k)).toMatchObject({ balance: 100_000_000, held: { micro_usd: 0 } });
  });
});

describe('one 402 body on every commercial endpoint', () => {
  const FIXED = [
    { path: '/copy/orders', body: { type: 'ad', brief: 'Tea', platform: 'Facebook' }, price: 5_000_000 },
    { path: '/orders', body: { type: 'newsletter', topic: 'Tea', word_count: 300 }, price: 25_000_000 },
    { path: '/seo/audits', body: { url: 'https://example.com/' }, price: 10_000_000 },
    { path: '/seo/audits', body: { url: 'https://example.com/', audit_type: 'deep' }, price: 30_000_000 },
    { path: '/review', body: { code: 'x = 1\n', language: 'python' }, price: REVIEW_PRICE },
  ];
  /** x402 is refused for these: metered (an authorization pays exactly its amount), or captured days later. */
  const REFUSING = [
    { path: '/v1/code-review', body: { code: 'x = 1\n', language: 'python' } },
    { path: '/extract', body: { source: 'Ann Lee, ann@example.com', schema: { email: 'email' } } },
    { path: '/v1/content/generate', body: { topic: 'Tea', type: 'article', tone: 'calm', word_count: 200 } },
    { path: '/dev/tasks', body: { description: 'Add two numbers.', language: 'python' } },
  ];
  let poor: string;
  beforeAll(async () => {
    poor = await account(withModel, 'poor@example.com');
  });

  it('an error object with code and message, the price and rails beside it, and the x402 challenge beside them', async () => {
    for (const c of FIXED) {
      const r = await api(withModel.apiUrl, 'POST', c.path, { body: c.body, headers: key(poor) });
      expect(r.status, c.path).toBe(402);
      expect(r.body.error, c.path).toMatchObject({ code: 'payment_required', message: expect.stringMatching(/prepaid balance/), price: { micro_usd: c.price }, rails: ['credits', 'x402'] });
      expect(r.body, c.path).toMatchObject({ price: { micro_usd: c.price }, rails: ['credits', 'x402'], x402Version: 2 });
      // The challenge, whole in PAYMENT-REQUIRED, names this endpoint and the order's price.
      const pr = decodePaymentRequiredHeader(r.headers.get('payment-required')!);
      expect(r.body.accepts, c.path).toEqual(pr.accepts);
      expect(r.body.resource, c.path).toEqual(pr.resource);
      expect(pr.resource.url).toBe(`${withModel.apiUrl}${c.path}`);
      expect(pr.accepts[0]!.amount).toBe(String(c.price));
      expect(typeof pr.error).toBe('string');
    }
    expect(await ordersOf(withModel, poor)).toEqual([]);
  });

  it('the same error object where x402 is refused, with no challenge', async () => {
    for (const c of REFUSING) {
      const r = await api(withModel.apiUrl, 'POST', c.path, { body: c.body, headers: key(poor) });
      expect(r.status, c.path).toBe(402);
      expect(r.body.error, c.path).toMatchObject({ code: 'payment_required', message: expect.any(String), price: { micro_usd: expect.any(Number) }, rails: ['credits'] });
      expect(r.body, c.path).toMatchObject({ price: r.body.error.price, rails: ['credits'] });
      expect(r.body.x402Version, c.path).toBeUndefined();
      expect(r.headers.get('payment-required'), c.path).toBeNull();
    }
    // Paying by x402 anyway says why not, in the same shape.
    const x = await api(withModel.apiUrl, 'POST', '/v1/code-review', { body: { code: 'x = 1\n', language: 'python' }, headers: { ...key(poor), 'payment-signature': 'e30=' } });
    expect(x.status).toBe(402);
    expect(x.body.error).toMatchObject({ code: 'payment_required', message: expect.stringMatching(/metered by the token/) });
    expect(await ordersOf(withModel, poor)).toEqual([]);
  });

  it('metered chat answers OpenAI’s error object (code and message), which its clients read', async () => {
    const r = await api(withModel.apiUrl, 'POST', '/v1/chat/completions', { body: { model: llm.model, messages: [{ role: 'user', content: 'Hi' }] }, headers: key(poor) });
    expect(r.status).toBe(402);
    expect(r.body.error).toMatchObject({ code: 'insufficient_quota', message: expect.stringMatching(/prepaid balance/) });
  });

  it('over MCP the challenge stays the x402 PaymentRequired payload, its error a string', async () => {
    const client = new ClientV2({ name: 'details-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new TransportV2(new URL(`${withModel.url}/mcp`), { requestInit: { headers: key(poor) } }));
    try {
      const r = await client.callTool({ name: 'copy_order', arguments: { type: 'ad', brief: 'Tea', platform: 'Facebook' } });
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toMatchObject({ x402Version: 2, error: expect.stringMatching(/prepaid balance/), accepts: [{ amount: '5000000' }], price: { micro_usd: 5_000_000 } });
      expect((r._meta as Record<string, any>)['x402/payment-required'].x402Version).toBe(2);
    } finally {
      await client.close();
    }
  });
});

describe('order types in the spec’s spelling', () => {
  it('takes "email sequence", "product description" and "social pack" as their snake_case ids', async () => {
    const k = await account(withModel, 'spelling@example.com', 100_000_000);
    const cases = [
      { path: '/copy/orders', body: { type: 'email sequence', brief: 'Onboarding', platform: 'email' }, service: 'copy.email_sequence', usd: '15' },
      { path: '/copy/orders', body: { type: 'product description', brief: 'Mugs', platform: 'Shopify' }, service: 'copy.product_description', usd: '10' },
      { path: '/orders', body: { type: 'social pack', topic: 'Our coffee', platform: 'X' }, service: 'content.social_pack', usd: '5' },
      { path: '/copy/orders', body: { type: 'email_sequence', brief: 'Onboarding', platform: 'email' }, service: 'copy.email_sequence', usd: '15' },
    ];
    for (const c of cases) {
      const r = await api(withModel.apiUrl, 'POST', c.path, { body: c.body, headers: key(k) });
      expect(r.status, c.body.type).toBe(202);
      expect(r.body, c.body.type).toMatchObject({ service: c.service, price: { usd: c.usd }, input: { type: c.service.split('.')[1] } });
    }
    expect((await api(withModel.apiUrl, 'POST', '/copy/orders', { body: { type: 'Email-Sequence', brief: 'x' }, headers: key(k) })).status).toBe(422);
    const doc = (await api(withModel.apiUrl, 'GET', '/openapi.json')).body;
    expect(doc.paths['/copy/orders'].post.requestBody.content['application/json'].schema.properties.type.enum).toEqual(['ad', 'email_sequence', 'product_description', 'email sequence', 'product description']);
  });
});

describe('quote_only', () => {
  it('answers 200 with the quote, ordering and holding nothing; an order answers 202', async () => {
    const k = await account(bare, 'quote@example.com', 30_000_000);
    const body = { description: 'Write a function that adds two numbers.', language: 'python' };
    const quote = await api(bare.apiUrl, 'POST', '/dev/tasks', { body: { ...body, quote_only: true }, headers: key(k) });
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ ordered: false, quote: { tier: 'simple', price: { usd: '25' } } });
    expect(await ordersOf(bare, k)).toEqual([]);
    expect(await usageOf(bare, k)).toMatchObject({ balance: 30_000_000, held: { micro_usd: 0 } });
    const doc = (await api(bare.apiUrl, 'GET', '/openapi.json')).body;
    expect(Object.keys(doc.paths['/dev/tasks'].post.responses)).toEqual(expect.arrayContaining(['200', '202']));
    const placed = await api(bare.apiUrl, 'POST', '/dev/tasks', { body, headers: key(k) });
    expect(placed.status).toBe(202);
    await api(bare.apiUrl, 'POST', `/orders/${placed.body.order_id}/cancel`, { headers: key(k) });
  });
});

describe('GET /v1/models', () => {
  it('lists the models metered chat accepts, for the official openai client', async () => {
    const k = await account(withModel, 'models@example.com');
    const client = new OpenAI({ apiKey: k, baseURL: `${withModel.apiUrl}/v1`, maxRetries: 0 });
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids).toEqual(expect.arrayContaining(['gateway-local', llm.model]));
  });
});

describe('a model failure is tried three times', () => {
  it('generation: two failures then an answer is delivered and charged; three failures fail the order and release it', async () => {
    const k = await account(withModel, 'retry@example.com', 5_000_000);
    let seen = calls(GENERATING);
    generations.push(FAIL, FAIL, `# Rain\n\n${words(200)}`);
    const ok = await api(withModel.apiUrl, 'POST', '/v1/content/generate', { body: { topic: 'Rain', type: 'article', tone: 'calm', word_count: 200 }, headers: key(k) });
    expect(ok.status).toBe(200);
    expect(calls(GENERATING) - seen).toBe(3);
    const charged = ok.body.charged.micro_usd as number;
    expect(charged).toBeGreaterThan(0);
    expect(await orderOf(withModel, k, ok.body.order_id)).toMatchObject({ status: 'delivered', payment: { state: 'captured', charged_micro_usd: charged } });

    seen = calls(GENERATING);
    generations.push(FAIL, FAIL, FAIL);
    const down = await api(withModel.apiUrl, 'POST', '/v1/content/generate', { body: { topic: 'Snow', type: 'article', tone: 'calm', word_count: 200 }, headers: key(k) });
    expect(down.status).toBe(502);
    expect(down.body.error.message).toMatch(/Nothing was charged/);
    expect(calls(GENERATING) - seen).toBe(3);
    expect(await orderOf(withModel, k, down.body.error.order_id)).toMatchObject({ status: 'failed', payment: { state: 'released', charged_micro_usd: 0 } });
    expect(await usageOf(withModel, k)).toMatchObject({ balance: 5_000_000 - charged, held: { micro_usd: 0 }, open_orders: 0 });
  });

  it('review: two failures then the model’s answer, which the review keeps', async () => {
    const k = await account(withModel, 'retry-review@example.com', 100_000_000);
    const seen = calls(REVIEWING);
    reviews.push(FAIL, FAIL, JSON.stringify({ findings: [{ line: 1, severity: 'low', category: 'style', rule: 'name', message: 'Name x better.', fix: 'Rename it.' }] }));
    const r = await api(withModel.apiUrl, 'POST', '/review', { body: { code: 'x = 1\n', language: 'python' }, headers: key(k) });
    expect(r.status).toBe(200);
    expect(calls(REVIEWING) - seen).toBe(3);
    expect(r.body.engines).toContain('model');
    expect(r.body.findings.map((f: { rule_id: string }) => f.rule_id)).toContain('model/name');
  });
});

describe('a 422 on the input records no order', () => {
  it('an extraction of a URL that is not one is refused before any hold', async () => {
    const k = await account(bare, 'extract-422@example.com', 10_000_000);
    for (const source of ['not a url', 'ftp://files.example.com/a.txt']) {
      const r = await api(bare.apiUrl, 'POST', '/extract', { body: { source, source_type: 'url', schema: { name: 'string' } }, headers: key(k) });
      expect(r.status, source).toBe(422);
      expect(r.body.detail[0].loc, source).toEqual(['body', 'source']);
      expect(r.body.error.order_id, source).toBeUndefined();
    }
    expect(await ordersOf(bare, k)).toEqual([]);
    expect(await usageOf(bare, k)).toMatchObject({ balance: 10_000_000, open_orders: 0, held: { micro_usd: 0 } });
  });
});

describe('a dev task the operator completes', () => {
  const operator = { 'x-operator-token': OPERATOR };
  const DONE = '## Summary\nAdds two numbers.\n\n## Code\n```python\ndef add(a, b):\n    return a + b\n```\n';

  async function parkedFor(orderId: string) {
    return eventually(async () => {
      const hs = (await api(bare.url, 'GET', '/operator/handoffs', { headers: operator })).body.handoffs as { handoff_id: string; context: { order_id: string } }[];
      const h = hs.find((x) => x.context.order_id === orderId);
      if (!h) throw new Error('not parked yet');
      return h;
    });
  }

  // The gateway's clock stands still in these tests, so the order's own look (a minute ahead on that clock) never
  // comes due: only the resolution's wake-up can end the order, and the bound below is far under a minute anyway.
  it('is delivered when the handoff is completed, not at the order’s next look', async () => {
    const k = await account(bare, 'handoff@example.com', 25_000_000);
    const placed = await api(bare.apiUrl, 'POST', '/dev/tasks', { body: { description: 'Add two numbers.', language: 'python' }, headers: key(k) });
    expect(placed.status).toBe(202);
    const h = await parkedFor(placed.body.order_id);
    expect((await api(bare.url, 'POST', `/operator/handoffs/${h.handoff_id}/complete`, { body: { result: DONE }, headers: operator })).status).toBe(200);
    const delivered = await eventually(async () => {
      const o = await orderOf(bare, k, placed.body.order_id);
      if (o.status !== 'delivered') throw new Error(o.status);
      return o;
    }, 5_000);
    expect(delivered.result.code_blocks[0].code).toContain('def add');
    expect(delivered.payment.state).toBe('held');
  });

  it('is delivered when another instance, which never worked the order, resolves the handoff', async () => {
    const k = await account(bare, 'handoff-elsewhere@example.com', 25_000_000);
    const placed = await api(bare.apiUrl, 'POST', '/dev/tasks', { body: { description: 'Add two numbers.', language: 'python' }, headers: key(k) });
    const h = await parkedFor(placed.body.order_id);
    // Started once the order waits (its next look a minute ahead on the shared, standing clock): this instance never
    // runs the order's work, so only its start-up worker can hear the resolution it makes.
    const other = await startGateway({ dataDir: bare.dataDir, clock: bare.clock, env: { GATEWAY_OPERATOR_TOKEN: OPERATOR } });
    try {
      expect((await api(other.url, 'POST', `/operator/handoffs/${h.handoff_id}/complete`, { body: { result: DONE }, headers: operator })).status).toBe(200);
      const delivered = await eventually(async () => {
        const o = await orderOf(bare, k, placed.body.order_id);
        if (o.status !== 'delivered') throw new Error(o.status);
        return o;
      }, 5_000);
      expect(delivered.result.code_blocks[0].code).toContain('def add');
    } finally {
      await other.stop();
    }
  });

  it('is failed and released at once when the operator rejects it', async () => {
    const k = await account(bare, 'handoff-rejected@example.com', 25_000_000);
    const placed = await api(bare.apiUrl, 'POST', '/dev/tasks', { body: { description: 'Add two numbers.', language: 'python' }, headers: key(k) });
    const h = await parkedFor(placed.body.order_id);
    await api(bare.url, 'POST', `/operator/handoffs/${h.handoff_id}/reject`, { body: { reason: 'Out of scope' }, headers: operator });
    const failed = await eventually(async () => {
      const o = await orderOf(bare, k, placed.body.order_id);
      if (o.status !== 'failed') throw new Error(o.status);
      return o;
    }, 5_000);
    expect(failed).toMatchObject({ error: expect.stringMatching(/Out of scope/), payment: { state: 'released' } });
    expect((await usageOf(bare, k)).balance).toBe(25_000_000);
  });
});

describe('GET / at {api_url}', () => {
  it('gives API clients an index of the group (sign-up, prices, each service at its route) and browsers a page', async () => {
    const r = await api(bare.apiUrl, 'GET', '/');
    expect(r.status).toBe(200);
    expect(r.body.start).toMatchObject({ signup: `POST ${bare.apiUrl}/signup`, prices: `${bare.apiUrl}/prices`, openapi: `${bare.apiUrl}/openapi.json` });
    const services = new Map((r.body.services as { service: string; route: string }[]).map((s) => [s.service, s.route]));
    expect(services.get('review')).toBe(`${bare.apiUrl}/review`);
    expect(services.get('seo.quick')).toBe(`${bare.apiUrl}/seo/audits`);
    expect(r.body.openai.models).toBe(`${bare.apiUrl}/v1/models`);
    for (const url of [r.body.start.prices, r.body.start.openapi, r.body.openai.models]) expect((await fetch(url)).status, url).toBe(200);

    const page = await fetch(`${bare.apiUrl}/`, { headers: { accept: 'text/html' } });
    const html = await page.text();
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(html).toContain(`<a href="${bare.apiUrl}/prices">Prices</a>`);
    expect(html).toContain(`${bare.apiUrl}/review`);
    expect(html).not.toMatch(/<script/i);
  });
});
