// The router behind /ask, A2A text and gateway-local chat: a table of questions with the tool each must run
// (and the key facts of the answer), and the "how do I …" questions with the capability each must rank first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let key: string;

beforeAll(async () => {
  gw = await startGateway();
  key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'router@example.com' } })).body.key;
});
afterAll(async () => gw.cleanup());

const ask = (q: string, headers: Record<string, string> = { 'x-api-key': key }) => api(gw.url, 'GET', `/ask?q=${encodeURIComponent(q)}`, { headers });

interface Case {
  q: string;
  tool: string;
  args: Record<string, unknown>;
  result?: Record<string, unknown>;
  text: string;
}

const CALCULATOR_CASES: Case[] = [
  { q: 'convert 255 to base 2', tool: 'base_convert', args: { value: '255', from_base: 10, to_base: 2 }, result: { value: '11111111' }, text: '11111111' },
  { q: 'what is 0xff in decimal?', tool: 'base_convert', args: { value: '0xff', from_base: 16, to_base: 10 }, result: { value: '255' }, text: '255' },
  { q: '255 in hex', tool: 'base_convert', args: { to_base: 16 }, result: { value: 'ff' }, text: 'ff' },
  { q: 'convert 11111111 from base 2 to base 16', tool: 'base_convert', args: { from_base: 2, to_base: 16 }, result: { value: 'ff', decimal: '255' }, text: '(255 in decimal)' },
  { q: 'convert the binary number 1010 to hex', tool: 'base_convert', args: { value: '1010', from_base: 2, to_base: 16 }, result: { value: 'a' }, text: 'is a in base 16' },
  { q: 'is this IBAN valid: DE89 3704 0044 0532 0130 00', tool: 'checksum_validate', args: { type: 'iban' }, result: { valid: true, country: 'DE' }, text: 'is a valid IBAN' },
  { q: 'check IBAN GB82WEST12345698765433', tool: 'checksum_validate', args: { type: 'iban' }, result: { valid: false }, text: 'is not a valid IBAN' },
  { q: 'validate ISBN 978-0-306-40615-7', tool: 'checksum_validate', args: { type: 'isbn13' }, result: { valid: true }, text: 'valid ISBN-13' },
  { q: 'is 0-306-40615-2 a valid ISBN?', tool: 'checksum_validate', args: { type: 'isbn10' }, result: { valid: true }, text: 'valid ISBN-10' },
  {
    q: '10 business days after 2026-12-20 in DE',
    tool: 'business_days',
    args: { mode: 'add', start: '2026-12-20', days: 10, country: 'DE' },
    result: { result: '2027-01-05' },
    text: 'is 2027-01-05, skipping 2026-12-25 (Christmas Day)',
  },
  { q: '3 business days after 2026-05-01 in Germany', tool: 'business_days', args: { days: 3, country: 'DE' }, result: { result: '2026-05-06' }, text: '2026-05-06' },
  { q: '5 working days before 2026-03-10', tool: 'business_days', args: { mode: 'add', days: -5 }, result: { result: '2026-03-03' }, text: 'before 2026-03-10 is 2026-03-03' },
  { q: 'how many business days between 2026-01-01 and 2026-02-01 in US', tool: 'business_days', args: { mode: 'count', country: 'US' }, result: { result: 20 }, text: 'are 20 business days' },
  { q: 'which card brand is 4111 1111 1111 1111', tool: 'card_brand', args: { number: '411111••••••1111' }, result: { brand: 'visa', valid: true }, text: 'Visa' },
  { q: '12 xor 10', tool: 'bitwise', args: { op: 'xor', a: 12, b: 10 }, result: { decimal: '6' }, text: '12 xor 10 = 6' },
  { q: 'not 0 in 8 bits', tool: 'bitwise', args: { op: 'not', width: 8 }, result: { decimal: '255' }, text: '= 255' },
  { q: 'shift 1 left by 4', tool: 'bitwise', args: { op: 'shl' }, result: { decimal: '16' }, text: '= 16' },
  { q: 'popcount of 255', tool: 'bitwise', args: { op: 'popcount' }, result: { decimal: '8' }, text: '= 8' },
  {
    q: 'I can make 100 requests per minute and have used 95, can I send 10 more?',
    tool: 'rate_limit',
    args: { limit: 100, window_seconds: 60, used: 95, planned_calls: 10 },
    result: { remaining: 5, proceed_now: false, wait_seconds: 3 },
    text: '5 of 100 calls per 60 s left',
  },
  { q: 'strip ansi codes from: \u001b[31mred\u001b[0m text', tool: 'ansi_strip', args: {}, result: { text: 'red text', removed: 2 }, text: 'red text' },
];

describe('calculator questions run the calculator through the registry', () => {
  it.each(CALCULATOR_CASES)('$q → $tool', async (c) => {
    const r = await ask(c.q);
    expect(r.status).toBe(200);
    expect(r.body.answer).toMatchObject({ kind: 'calculator', tool: c.tool, arguments: c.args, ...(c.result ? { result: c.result } : {}) });
    expect(r.body.answer.text).toContain(c.text);
    expect(r.body.results[0]).toMatchObject({ name: c.tool, score: 100, url: `${gw.url}/tools/${c.tool}` });
  });

  it('is deterministic: the same question gives the same answer', async () => {
    const a = await ask('10 business days after 2026-12-20 in DE');
    const b = await ask('10 business days after 2026-12-20 in DE');
    expect(b.body.answer).toEqual(a.body.answer);
    expect(b.body.results).toEqual(a.body.results);
  });

  it('charges the key one call per calculator answer, as REST does', async () => {
    const fresh = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'router-count@example.com' } })).body.key;
    await ask('convert 7 to base 2', { 'x-api-key': fresh });
    await ask('what can you do?', { 'x-api-key': fresh });
    const usage = await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': fresh } });
    expect(usage.body.used).toBe(1);
  });

  it('without a key, a paid calculator answers how to pay instead of the result', async () => {
    const r = await ask('convert 255 to base 2', {});
    expect(r.status).toBe(200);
    expect(r.body.answer).toMatchObject({ kind: 'payment_required', tool: 'base_convert', error: { code: 'payment_required', status: 402 } });
    expect(r.body.answer.text).toContain('X-API-Key');
    expect(r.body.answer.text).toContain('/keys/issue');
    expect(r.body.answer.payment).toMatchObject({ x402Version: 2, accepts: [{ scheme: 'exact' }] });
    expect(r.body.answer.result).toBeUndefined();
  });

  it('never echoes a card number, not even in a payment answer', async () => {
    const r = await ask('is 5500 0000 0000 0004 a valid card number?', {});
    expect(JSON.stringify(r.body)).not.toContain('5500 0000 0000 0004');
    expect(r.body.answer.arguments.number).toBe('550000••••••0004');
    const paid = await ask('is 5500 0000 0000 0004 a valid card number?');
    expect(JSON.stringify(paid.body)).not.toContain('5500000000000004');
    expect(paid.body.answer.result).toMatchObject({ brand: 'mastercard', valid: true });
  });

  it('a recognised request with bad input says what is wrong', async () => {
    const r = await ask('convert 255 to base 40');
    expect(r.body.answer.kind).not.toBe('calculator');
    const bad = await ask('10 business days after 2026-02-30');
    expect(bad.body.answer).toMatchObject({ kind: 'invalid_input', tool: 'business_days', error: { code: 'validation_error', status: 422 } });
  });
});

const HOW_TO: [string, string][] = [
  ['how do I get an API key?', 'keys_issue'],
  ['how do I store a secret?', 'vault_put'],
  ['how do I remember something between sessions?', 'memory_put'],
  ['how do I park a task for a human?', 'handoff_create'],
  ['how do I schedule a delayed job?', 'job_create'],
  ['how do I check a job status?', 'job_get'],
  ['how do I watch a url for changes?', 'watch_create'],
  ['how do I register a handle?', 'agent_register'],
  ['how do I host a file?', 'artifact_create'],
  ['how do I share memory with another agent?', 'memory_share'],
  ['how do I convert a number to binary?', 'base_convert'],
  ['how do I validate an IBAN?', 'checksum_validate'],
  ['how do I decode a jwt?', 'jwt_decode'],
  ['how do I call an external API with a stored credential?', 'vault_call'],
  ['how do I connect over MCP?', 'MCP endpoint'],
  ['is there an A2A endpoint?', 'A2A endpoint'],
  ['how can I pay per call?', 'x402 payment requirements'],
];

describe('"how do I …" questions rank the matching capability first', () => {
  it.each(HOW_TO)('%s → %s', async (q, top) => {
    const r = await ask(q, {});
    expect(r.body.answer.kind).toBe('capabilities');
    expect(r.body.results[0].name).toBe(top);
    expect(r.body.answer.text).toContain(top);
  });

  it('says how to call a tool over REST and MCP, with its price and auth', async () => {
    const r = await ask('how do I store a secret?', {});
    const top = r.body.results[0];
    expect(top).toMatchObject({ name: 'vault_put', url: `${gw.url}/vault`, kind: 'tool', toolset: 'vault', auth: 'owner', call: { rest: 'POST /vault', mcp: { method: 'tools/call', name: 'vault_put' } }, price: null });
    expect(r.body.answer.text).toContain('Authorization: Bearer');
    const paid = await ask('how do I validate an IBAN?', {});
    expect(paid.body.results[0].price).toMatchObject({ usd: '0.001' });
    expect(paid.body.answer.text).toContain('$0.001 per call');
  });

  it('scores are 0–100 and sorted', async () => {
    const r = await ask('how do I search my memory?', {});
    const scores = r.body.results.map((x: { score: number }) => x.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const s of scores) expect(s).toBeGreaterThan(0), expect(s).toBeLessThanOrEqual(100);
  });

  it('something unrelated gets no pretend answer', async () => {
    const r = await ask('xyzzy plugh frobnicate', {});
    expect(r.body.answer.kind).toBe('no_match');
    expect(r.body.answer.text).toContain('what can you do');
  });
});

describe('/ask', () => {
  it('an empty question (or none) returns the overview of the service', async () => {
    for (const path of ['/ask', '/ask?q=', '/ask?q=%20']) {
      const r = await api(gw.url, 'GET', path);
      expect(r.status).toBe(200);
      expect(r.body.answer.kind).toBe('overview');
      expect(r.body.answer.text).toContain(`${gw.url}/mcp`);
      expect(r.body.answer.text).toContain(`${gw.url}/a2a`);
      const names = r.body.results.map((x: { name: string }) => x.name);
      expect(names).toEqual(expect.arrayContaining(['calculators', 'memory', 'vault', 'jobs']));
      expect(r.body.results[0]).toMatchObject({ kind: 'toolset', url: expect.stringContaining('/mcp?toolsets=') });
    }
    expect((await ask('what can you do?', {})).body.answer.kind).toBe('overview');
  });

  it('POST takes an NLWeb-style AskBody: query, prev, mode, limit, query_id', async () => {
    const r = await api(gw.url, 'POST', '/ask', { body: { query: 'how do I store a secret?', mode: 'summarize', limit: 3, query_id: 'q-1' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ query_id: 'q-1', query: 'how do I store a secret?', mode: 'summarize' });
    expect(r.body.results).toHaveLength(3);
    for (const x of r.body.results) expect(Object.keys(x)).toEqual(expect.arrayContaining(['name', 'url', 'score', 'description']));
    expect(r.body.summary).toContain('Top matches: vault_put');
    expect((await api(gw.url, 'POST', '/ask', { body: {} })).body.answer.kind).toBe('overview');
  });

  it('earlier questions (prev) inform an ambiguous follow-up', async () => {
    const alone = await api(gw.url, 'POST', '/ask', { body: { query: 'and how do I list them?' } });
    const followUp = await api(gw.url, 'POST', '/ask', { body: { query: 'and how do I list them?', prev: ['how do I store a secret in the vault?'] } });
    expect(followUp.body.results[0].name).toBe('vault_list');
    expect(alone.body.results[0].name).not.toBe('vault_list');
    const viaGet = await api(gw.url, 'GET', `/ask?q=${encodeURIComponent('and how do I list them?')}&prev=${encodeURIComponent('how do I store a secret in the vault?')}`);
    expect(viaGet.body.results[0].name).toBe('vault_list');
  });

  it('GET accepts query= as well as q=; bad fields answer 422', async () => {
    const r = await api(gw.url, 'GET', `/ask?query=${encodeURIComponent('how do I decode a jwt?')}`);
    expect(r.body.results[0].name).toBe('jwt_decode');
    const bad = await api(gw.url, 'POST', '/ask', { body: { query: 'x', mode: 'shout' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'mode']);
    expect((await api(gw.url, 'GET', '/ask?q=x&limit=0')).status).toBe(422);
  });

  it('is documented in /openapi.json (GET and POST)', async () => {
    const doc = await api(gw.url, 'GET', '/openapi.json');
    expect(Object.keys(doc.body.paths['/ask'])).toEqual(expect.arrayContaining(['get', 'post']));
  });

  it('documents GET /ask with the spec\'s parameter q (query stays a deprecated alias), and q wins when both are sent', async () => {
    const params = (await api(gw.url, 'GET', '/openapi.json')).body.paths['/ask'].get.parameters as { name: string; in: string; required: boolean; deprecated?: boolean; schema: { type: string } }[];
    const q = params.find((p) => p.name === 'q');
    expect(q).toMatchObject({ in: 'query', required: false, schema: { type: 'string' } });
    expect(q!.deprecated).toBeUndefined();
    expect(params.find((p) => p.name === 'query')).toMatchObject({ in: 'query', deprecated: true });
    expect(params.findIndex((p) => p.name === 'q')).toBeLessThan(params.findIndex((p) => p.name === 'query'));
    const both = await api(gw.url, 'GET', `/ask?query=${encodeURIComponent('what is the weather')}&q=${encodeURIComponent('how do I decode a jwt?')}`);
    expect(both.body.query).toBe('how do I decode a jwt?');
    expect(both.body.results[0].name).toBe('jwt_decode');
  });
});
