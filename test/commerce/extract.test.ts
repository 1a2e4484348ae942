// POST /extract (issue 24) end to end on the commercial listener: fields filled from structured data (JSON-LD,
// microdata, OpenGraph, tables) and from entities and patterns in text, nothing invented, a URL fetched through
// egress from a loopback page server, the model's path (valid output accepted; invalid output asked again once,
// then failed and released), 422 before any hold, another account kept out, and the charge = tokens × rate.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { openAccount, revenueKey as key } from '../helpers/commerce.js';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm.js';
import path from 'node:path';
import { ROOT } from '../helpers/paths.js';

const OPERATOR = 'operator-token-for-extract-test';
const fixture = (name: string) => fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'extract', name), 'utf8');
const PRODUCT = fixture('product.html');
const PRESS = fixture('press-release.txt');
/** $0.10 per 1,000 tokens: 100 micro-dollars a token. */
const PER_TOKEN = 100;
const tokens = (chars: number) => Math.ceil(chars / 4);

let rules: TestGateway; // no model
let withModel: TestGateway;
let llm: ScriptedLlm;
let site: http.Server;
let siteUrl: string;

const account = (gw: TestGateway, email: string, credit: number) => openAccount(gw, email, { credit, operatorToken: OPERATOR, name: 'Extract Co' });
const balanceOf = async (gw: TestGateway, k: string): Promise<number> => (await api(gw.apiUrl, 'GET', '/usage', { headers: key(k) })).body.balance;

beforeAll(async () => {
  site = http.createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    if (req.url === '/product') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PRODUCT);
    if (req.url === '/press') return void res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(PRESS);
    if (req.url === '/store') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(STORE_MICRODATA);
    res.writeHead(404).end('not here');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  llm = await startScriptedLlm([]);
  const env = { GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY: '100', GATEWAY_EGRESS_ALLOW: '127.0.0.1/32' };
  rules = await startGateway({ env });
  withModel = await startGateway({ env: { ...env, LLM_BASE_URL: llm.url, LLM_MODEL: llm.model } });
});
afterAll(async () => {
  await rules?.cleanup();
  await withModel?.cleanup();
  await llm?.close();
  site?.closeAllConnections();
  site?.close();
});

const PRODUCT_HINT = { name: 'string', sku: 'string', price: 'number', currency: 'string', brand: 'string', color: 'string', rating: 'number', weight: 'string', warranty: 'string', title: 'string', site_name: 'string', availability: 'boolean', email: 'email', phone: 'phone', ceo: 'person' };

describe('extraction without a model', () => {
  it('reads JSON-LD, microdata, OpenGraph, a table and patterns from a URL, exactly, and charges its tokens', async () => {
    const k = await account(rules, 'url@example.com', 10_000_000);
    const r = await api(rules.apiUrl, 'POST', '/extract', { body: { source: `${siteUrl}/product`, source_type: 'url', schema: PRODUCT_HINT }, headers: key(k) });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      name: 'Trail Runner 2',
      sku: 'TR2-0042',
      price: 119.99,
      currency: 'USD',
      brand: 'Northwind',
      color: 'Forest green',
      rating: 4.6,
      weight: '280 g',
      warranty: '2 years',
      title: 'Trail Runner 2',
      site_name: 'Northwind Outfitters',
      availability: true,
      email: 'support@northwind.example',
      phone: '+1 (555) 010-4477',
      ceo: null,
    });
    expect(r.body.missing).toEqual(['ceo']);
    expect(r.body.sources).toMatchObject({
      price: { source: 'json-ld', key: 'offers.price', confidence: 0.95 },
      color: { source: 'microdata', confidence: 0.9 },
      rating: { source: 'microdata', key: 'aggregateRating.ratingValue' },
      site_name: { source: 'opengraph', confidence: 0.85 },
      weight: { source: 'table', key: 'Weight', confidence: 0.8 },
      email: { source: 'pattern', key: 'email' },
      phone: { source: 'pattern', key: 'phone' },
    });
    expect(r.body.sources.ceo).toBeUndefined();
    expect(r.body.engine).toBe('rules');
    expect(r.body.source).toMatchObject({ type: 'url', final_url: `${siteUrl}/product`, content_type: 'text/html', truncated: false });
    // Charged: the text read (visible text and JSON-LD) in tokens at $0.10 per 1,000; the rest of the hold given back.
    const used = tokens(r.body.source.chars);
    expect(r.body.tokens).toEqual({ source: used, model: 0, total: used });
    expect(r.body.charged.micro_usd).toBe(used * PER_TOKEN);
    expect(await balanceOf(rules, k)).toBe(10_000_000 - used * PER_TOKEN);
    const order = (await api(rules.apiUrl, 'GET', `/orders/${r.body.order_id}`, { headers: key(k) })).body;
    expect(order).toMatchObject({ service: 'extract', status: 'delivered', price: { price_id: 'extract.per_1k_tokens' }, payment: { state: 'captured', charged_micro_usd: used * PER_TOKEN } });
    expect(order.result.data.sku).toBe('TR2-0042');
  });

  it('finds people, organisations, places, dates, money, emails, phones and URLs in a text (a JSON Schema)', async () => {
    const k = await account(rules, 'text@example.com', 10_000_000);
    const schema = {
      type: 'object',
      properties: {
        company: { type: 'string' },
        ceo: { type: 'string' },
        announced_on: { type: 'string', format: 'date' },
        city: { type: 'string' },
        funding: { type: 'number' },
        email: { type: 'string', format: 'email' },
        phone: { type: 'string' },
        website: { type: 'string', format: 'uri' },
        organizations: { type: 'array', items: { type: 'string' } },
        employees: { type: 'integer' },
      },
    };
    const r = await api(rules.apiUrl, 'POST', '/extract', { body: { source: PRESS, schema }, headers: key(k) });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      company: 'Acme Corporation',
      ceo: 'Alice Johnson',
      announced_on: '2024-03-03',
      city: 'Berlin',
      funding: 4_500_000,
      email: 'press@acme.example',
      phone: '+44 20 7946 0958',
      website: 'https://acme.example/newsroom',
      organizations: ['Acme Corporation', 'Globex Industries', 'European division'],
      employees: null,
    });
    expect(r.body.missing).toEqual(['employees']);
    expect(r.body.sources).toMatchObject({
      company: { source: 'entity:organization' },
      ceo: { source: 'entity:person' },
      announced_on: { source: 'entity:date' },
      city: { source: 'entity:place' },
      funding: { source: 'entity:money' },
      email: { source: 'pattern', confidence: 0.9 },
      website: { source: 'pattern', key: 'url' },
    });
    expect(r.body.charged.micro_usd).toBe(tokens(PRESS.length) * PER_TOKEN);
    expect(await balanceOf(rules, k)).toBe(10_000_000 - tokens(PRESS.length) * PER_TOKEN);
  });

  it('invents nothing: a text with no match gives nulls, all listed as missing', async () => {
    const k = await account(rules, 'nothing@example.com', 1_000_000);
    const source = 'the weather was mild and the garden quiet all afternoon.';
    const r = await api(rules.apiUrl, 'POST', '/extract', { body: { source, source_type: 'text', schema: { email: 'string', price: 'number', ceo: 'person', website: 'url', founded: 'date' } }, headers: key(k) });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ email: null, price: null, ceo: null, website: null, founded: null });
    expect(r.body.missing).toEqual(['email', 'price', 'ceo', 'website', 'founded']);
    expect(r.body.sources).toEqual({});
    expect(r.body.charged.micro_usd).toBe(tokens(source.length) * PER_TOKEN);
  });

  it('reads a plain-text URL and HTML given inline', async () => {
    const k = await account(rules, 'kinds@example.com', 10_000_000);
    const t = await api(rules.apiUrl, 'POST', '/extract', { body: { source: `${siteUrl}/press`, source_type: 'url', schema: { email: 'email', ceo: 'person' } }, headers: key(k) });
    expect(t.status).toBe(200);
    expect(t.body.data).toEqual({ email: 'press@acme.example', ceo: 'Alice Johnson' });
    const h = await api(rules.apiUrl, 'POST', '/extract', { body: { source: PRODUCT, source_type: 'html', schema: { sku: 'string', drop: 'string' } }, headers: key(k) });
    expect(h.status).toBe(200);
    expect(h.body.data).toEqual({ sku: 'TR2-0042', drop: '6 mm' });
  });

  it('answers a blocked or unreachable URL clearly and releases the order: nothing charged', async () => {
    const k = await account(rules, 'blocked@example.com', 5_000_000);
    const blocked = await api(rules.apiUrl, 'POST', '/extract', { body: { source: 'http://10.0.0.1/admin', source_type: 'url', schema: { title: 'string' } }, headers: key(k) });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.reason).toBe('blocked_address');
    expect(blocked.body.error.message).toMatch(/nothing was charged/);
    const order = (await api(rules.apiUrl, 'GET', `/orders/${blocked.body.error.order_id}`, { headers: key(k) })).body;
    expect(order).toMatchObject({ status: 'failed', payment: { state: 'released', charged_micro_usd: 0 } });
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const unreachable = await api(rules.apiUrl, 'POST', '/extract', { body: { source: `http://127.0.0.1:${port}/x`, source_type: 'url', schema: { title: 'string' } }, headers: key(k) });
    expect(unreachable.status).toBe(502);
    const missing = await api(rules.apiUrl, 'POST', '/extract', { body: { source: `${siteUrl}/gone`, source_type: 'url', schema: { title: 'string' } }, headers: key(k) });
    expect(missing.status).toBe(502);
    expect(missing.body.error).toMatchObject({ reason: 'upstream_status', upstream_status: 404 });
    expect(await balanceOf(rules, k)).toBe(5_000_000);
  });

  it('refuses a bad schema or source with 422 before any hold', async () => {
    const k = await account(rules, 'invalid@example.com', 5_000_000);
    const bad = async (body: unknown, loc: (string | number)[]) => {
      const r = await api(rules.apiUrl, 'POST', '/extract', { body, headers: key(k) });
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(loc);
    };
    await bad({ source: 'x', schema: { price: 'float' } }, ['body', 'schema', 'price']);
    await bad({ source: 'x', schema: {} }, ['body', 'schema']);
    // Nested schemas are accepted; a nested one that is invalid is refused where it is wrong.
    await bad({ source: 'x', schema: { type: 'object', properties: { address: { type: 'object' } } } }, ['body', 'schema', 'properties', 'address']);
    await bad({ source: 'x', schema: { type: 'object', properties: { address: { type: 'object', properties: { city: { type: 'string', minLength: 'two' } } } } } }, ['body', 'schema', 'properties', 'address', 'properties', 'city']);
    await bad({ source: 'x', schema: { type: 'object', properties: { offers: { type: 'array', items: { type: 'object', properties: { price: { type: 'money' } } } } } } }, ['body', 'schema', 'properties', 'offers', 'items', 'properties', 'price']);
    await bad({ source: 'x', schema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'array', items: { type: 'string' } } } } } }, ['body', 'schema', 'properties', 'tags']);
    await bad({ source: 'x', schema: { offers: [{ price: 'float' }] } }, ['body', 'schema', 'offers', 0, 'price']);
    // Bounded: six levels of objects, 200 fields in all.
    await bad({ source: 'x', schema: { a: { b: { c: { d: { e: { f: { g: 'string' } } } } } } } }, ['body', 'schema', 'a', 'b', 'c', 'd', 'e', 'f']);
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, 'string']));
    await bad({ source: 'x', schema: { a: fifty, b: fifty, c: fifty, d: fifty } }, ['body', 'schema', 'd']);
    await bad({ source: 'x', schema: { type: 'object', properties: { n: { type: 'string', minLength: 'two' } } } }, ['body', 'schema', 'properties', 'n']);
    await bad({ source: 'x', source_type: 'pdf', schema: { a: 'string' } }, ['body', 'source_type']);
    await bad({ source: '', schema: { a: 'string' } }, ['body', 'source']);
    await bad({ source: 'a'.repeat(100_001), schema: { a: 'string' } }, ['body', 'source']);
    await bad({ schema: { a: 'string' } }, ['body', 'source']);
    await bad({ source: 'x', schema: 'name' }, ['body', 'schema']);
    const notUrl = await api(rules.apiUrl, 'POST', '/extract', { body: { source: 'not a url', source_type: 'url', schema: { a: 'string' } }, headers: key(k) });
    expect(notUrl.status).toBe(422);
    expect(await balanceOf(rules, k)).toBe(5_000_000);
    expect((await api(rules.apiUrl, 'GET', '/orders', { headers: key(k) })).body.orders.filter((o: any) => o.status !== 'failed')).toEqual([]);
  });

  it('refuses an unfunded extraction with 402 and a missing key with 401; another account cannot read the order', async () => {
    const broke = (await api(rules.apiUrl, 'POST', '/signup', { body: { email: 'broke-x@example.com', name: 'B' } })).body.key;
    const r = await api(rules.apiUrl, 'POST', '/extract', { body: { source: 'Call 555-010-4477', schema: { phone: 'phone' } }, headers: key(broke) });
    expect(r.status).toBe(402);
    expect((await api(rules.apiUrl, 'POST', '/extract', { body: { source: 'x', schema: { a: 'string' } } })).status).toBe(401);
    const owner = await account(rules, 'owner-x@example.com', 1_000_000);
    const other = await account(rules, 'other-x@example.com', 1_000_000);
    const done = await api(rules.apiUrl, 'POST', '/extract', { body: { source: 'Write to a@b.example', schema: { email: 'email' } }, headers: key(owner) });
    expect(done.status).toBe(200);
    expect((await api(rules.apiUrl, 'GET', `/orders/${done.body.order_id}`, { headers: key(other) })).status).toBe(404);
    expect((await api(rules.apiUrl, 'GET', `/orders/${done.body.order_id}`, { headers: key(owner) })).status).toBe(200);
  });
});

const STORE_MICRODATA = `<!doctype html><html><head><title>Northwind Outfitters</title></head><body>
<div itemscope itemtype="https://schema.org/Store">
  <h1 itemprop="name">Northwind Outfitters</h1>
  <div itemprop="address" itemscope itemtype="https://schema.org/PostalAddress">
    <span itemprop="streetAddress">12 Harbour Road</span>, <span itemprop="addressLocality">Portsmouth</span>
  </div>
  <div itemprop="makesOffer" itemscope itemtype="https://schema.org/Offer">
    <span itemprop="name">Trail Runner 2</span> <span itemprop="price" content="119.99">$119.99</span> <img itemprop="image" src="/img/tr2.jpg" alt="">
  </div>
  <div itemprop="makesOffer" itemscope itemtype="https://schema.org/Offer">
    <span itemprop="name">Summit Jacket</span> <meta itemprop="price" content="249.00">
  </div>
</div></body></html>`;

const EVENT_RDFA = `<!doctype html><html><body>
<div vocab="https://schema.org/" typeOf="Event">
  <span property="name">Harbour Jazz Night</span>
  <time property="startDate" datetime="2026-07-04T19:30">4 July, 7.30 pm</time>
  <div property="location" typeof="Place"><span property="name">Quay Hall</span>
    <div property="address" typeof="PostalAddress"><span property="addressLocality">Portsmouth</span></div>
  </div>
  <div property="performer" typeof="MusicGroup"><span property="name">The Tide</span></div>
  <div property="performer" typeof="Person"><span property="name">Ana Ruiz</span></div>
</div></body></html>`;

describe('nested schemas', () => {
  it('fills an object and a list of objects from microdata, URLs resolved against the page', async () => {
    const k = await account(rules, 'nested-md@example.com', 10_000_000);
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        address: { type: 'object', properties: { streetAddress: { type: 'string' }, addressLocality: { type: 'string' } } },
        makesOffer: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' }, image: { type: 'string', format: 'uri' } } } },
      },
    };
    const r = await api(rules.apiUrl, 'POST', '/extract', { body: { source: `${siteUrl}/store`, source_type: 'url', schema }, headers: key(k) });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      name: 'Northwind Outfitters',
      address: { streetAddress: '12 Harbour Road', addressLocality: 'Portsmouth' },
      makesOffer: [
        { name: 'Trail Runner 2', price: 119.99, image: `${siteUrl}/img/tr2.jpg` },
        { name: 'Summit Jacket', price: 249, image: null },
      ],
    });
    expect(r.body.missing).toEqual([]);
    expect(r.body.sources).toMatchObject({ name: { source: 'microdata', key: 'name' }, address: { source: 'microdata', key: 'address', confidence: 0.9 }, makesOffer: { source: 'microdata', key: 'makesOffer' } });
    // The same as a hint: an object of fields, and a list written [{…}].
    const hint = await api(rules.apiUrl, 'POST', '/extract', { body: { source: STORE_MICRODATA, source_type: 'html', schema: { address: { addressLocality: 'string' }, makesOffer: [{ price: 'money' }] } }, headers: key(k) });
    expect(hint.status).toBe(200);
    expect(hint.body.data).toEqual({ address: { addressLocality: 'Portsmouth' }, makesOffer: [{ price: 119.99 }, { price: 249 }] });
  });

  it('fills nested objects, @type included, from RDFa (attribute names in any case); a schema nothing fills gives null', async () => {
    const k = await account(rules, 'nested-rdfa@example.com', 10_000_000);
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        startDate: { type: 'string' },
        location: { type: 'object', properties: { name: { type: 'string' }, address: { type: 'object', properties: { addressLocality: { type: 'string' } } } } },
        performer: { type: 'array', items: { type: 'object', properties: { '@type': { type: 'string' }, name: { type: 'string' } } } },
        organizer: { type: 'object', properties: { name: { type: 'string' } } },
      },
    };
    const r = await api(rules.apiUrl, 'POST', '/extract', { body: { source: EVENT_RDFA, source_type: 'html', schema }, headers: key(k) });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      name: 'Harbour Jazz Night',
      startDate: '2026-07-04T19:30',
      location: { name: 'Quay Hall', address: { addressLocality: 'Portsmouth' } },
      performer: [
        { '@type': 'MusicGroup', name: 'The Tide' },
        { '@type': 'Person', name: 'Ana Ruiz' },
      ],
      organizer: null,
    });
    expect(r.body.missing).toEqual(['organizer']);
    expect(r.body.sources.location).toEqual({ source: 'rdfa', confidence: 0.9, key: 'location' });
  });
});

describe('extraction with a model', () => {
  it('accepts output that fits the schema, keeps structured data, drops what the source does not say, and charges source + model tokens', async () => {
    const k = await account(withModel, 'model@example.com', 10_000_000);
    const usage = { prompt_tokens: 300, completion_tokens: 40, total_tokens: 340 };
    const schema = { ceo: 'person', previous_employer: 'string', funding: 'number', motto: 'string', email: 'email' };
    // The model fills previous_employer, invents a motto (not in the source) and gives no email.
    llm.push({ content: JSON.stringify({ ceo: 'Alice Johnson', previous_employer: 'Globex Industries', funding: 4500000, motto: 'Move fast', email: null }), usage });
    const ok = await api(withModel.apiUrl, 'POST', '/extract', { body: { source: PRESS, schema }, headers: key(k) });
    expect(ok.status).toBe(200);
    expect(ok.body.engine).toBe('model');
    expect(ok.body.data).toEqual({ ceo: 'Alice Johnson', previous_employer: 'Globex Industries', funding: 4_500_000, motto: null, email: 'press@acme.example' });
    expect(ok.body.missing).toEqual(['motto']);
    expect(ok.body.dropped).toEqual(['motto']); // "Move fast" is not in the source
    expect(ok.body.sources).toMatchObject({ previous_employer: { source: 'llm', confidence: 0.8 }, email: { source: 'pattern' } });
    // The request asked for structured output of the result's schema.
    const req = llm.requests[llm.requests.length - 1]!;
    expect(req.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true, schema: { required: Object.keys(schema), additionalProperties: false } } });
    const total = tokens(PRESS.length) + usage.total_tokens;
    expect(ok.body.tokens).toEqual({ source: tokens(PRESS.length), model: 340, total });
    expect(ok.body.charged.micro_usd).toBe(total * PER_TOKEN);
    expect(await balanceOf(withModel, k)).toBe(10_000_000 - total * PER_TOKEN);
  });

  it('fills a nested object with the model, each string inside checked against the source', async () => {
    const k = await account(withModel, 'model-nested@example.com', 10_000_000);
    const usage = { prompt_tokens: 200, completion_tokens: 30, total_tokens: 230 };
    llm.push({ content: JSON.stringify({ ceo: 'Alice Johnson', hq: { city: 'Berlin', street: '1 Invented Street' } }), usage });
    const r = await api(withModel.apiUrl, 'POST', '/extract', { body: { source: PRESS, schema: { ceo: 'person', hq: { city: 'string', street: 'string' } } }, headers: key(k) });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ ceo: 'Alice Johnson', hq: { city: 'Berlin', street: null } });
    expect(r.body.dropped).toEqual(['hq']);
    expect(r.body.sources.hq).toEqual({ source: 'llm', confidence: 0.8 });
    const req = llm.requests[llm.requests.length - 1]!;
    expect(req.body.response_format.json_schema.schema.properties.hq).toEqual({
      type: ['object', 'null'],
      properties: { city: { type: ['string', 'null'] }, street: { type: ['string', 'null'] } },
      required: ['city', 'street'],
      additionalProperties: false,
    });
  });

  it('reads JSON from a plain reply when the server has no structured output', async () => {
    const plain = await startScriptedLlm([], { refuseStructured: true });
    const gw = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR, LLM_BASE_URL: plain.url, LLM_MODEL: plain.model } });
    try {
      const k = await account(gw, 'plain@example.com', 5_000_000);
      plain.push('Here it is:\n```json\n{"city": "Berlin"}\n```');
      const r = await api(gw.apiUrl, 'POST', '/extract', { body: { source: PRESS, schema: { city: 'string' } }, headers: key(k) });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({ city: 'Berlin' });
      expect(plain.requests.map((q) => !!q.body.response_format)).toEqual([true, false]);
    } finally {
      await gw.cleanup();
      await plain.close();
    }
  });

  it('asks once more when the output misses the schema, then fails the order and charges nothing', async () => {
    const k = await account(withModel, 'retry@example.com', 10_000_000);
    // A miss, then a fit: accepted on the second call.
    llm.push('{"funding": "a lot"}', '{"funding": 4500000}');
    const seen = llm.requests.length;
    const second = await api(withModel.apiUrl, 'POST', '/extract', { body: { source: PRESS, schema: { funding: 'number' } }, headers: key(k) });
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual({ funding: 4_500_000 });
    expect(llm.requests.length - seen).toBe(2);
    expect(JSON.stringify(llm.requests[llm.requests.length - 1]!.body.messages)).toMatch(/funding must be number/);
    const before = await balanceOf(withModel, k);
    // Two misses: the order fails, released.
    llm.push('{"funding": "a lot"}', 'I cannot do that.');
    const failed = await api(withModel.apiUrl, 'POST', '/extract', { body: { source: PRESS, schema: { funding: 'number' } }, headers: key(k) });
    expect(failed.status).toBe(502);
    expect(failed.body.error.message).toMatch(/missed the schema 2 times.*nothing was charged/s);
    const order = (await api(withModel.apiUrl, 'GET', `/orders/${failed.body.error.order_id}`, { headers: key(k) })).body;
    expect(order).toMatchObject({ status: 'failed', result: null, payment: { state: 'released', charged_micro_usd: 0 } });
    expect(await balanceOf(withModel, k)).toBe(before);
  });
});
