// POST /v1/chat/completions at {api_url} with a revenue key, through the official `openai` client: each call
// holds its most, is charged per 1,000 tokens of the usage it reports (streams too), shows in /usage as the
// 'chat' service, and a failed call or a refused one costs nothing.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { creditAccount, revenueKey } from '../helpers/commerce.js';
import { startScriptedLlm, type Scripted, type ScriptedLlm } from '../helpers/scripted-llm.js';

const OPERATOR = 'operator-token-for-chat-test';
const RATE = 50_000; // micro-dollars per 1K tokens: the default chat.per_1k_tokens (0.05 USD)
let gw: TestGateway;
let llm: ScriptedLlm;
const queued: Scripted[] = [];

const charge = (tokens: number) => Math.ceil((RATE * tokens) / 1000);

// The signup's answer is not checked here (a failed one shows in the next call), so not signUp.
async function account(email: string, credit: number): Promise<string> {
  const key = (await api(gw.apiUrl, 'POST', '/signup', { body: { email, name: 'Chat Co' } })).body.key as string;
  if (credit) await creditAccount(gw, email, credit, { operatorToken: OPERATOR });
  return key;
}

const usageOf = async (key: string) => (await api(gw.apiUrl, 'GET', '/usage', { headers: revenueKey(key) })).body;
const client = (key: string) => new OpenAI({ apiKey: key, baseURL: `${gw.apiUrl}/v1`, maxRetries: 0 });

beforeAll(async () => {
  llm = await startScriptedLlm(() => queued.shift() ?? { content: 'Hello there.', usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 } });
  gw = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY: '100', LLM_BASE_URL: llm.url, LLM_MODEL: llm.model } });
});
afterAll(async () => {
  await gw.cleanup();
  await llm.close();
});

describe('metered chat', () => {
  it('charges a completion for the tokens it used, and shows it as an order of the chat service', async () => {
    const key = await account('chat@example.com', 1_000_000);
    queued.push({ content: 'Paris.', usage: { prompt_tokens: 12, completion_tokens: 300, total_tokens: 312 } });
    const { data: completion, response } = await client(key).chat.completions.create({ model: llm.model, messages: [{ role: 'user', content: 'Capital of France?' }], max_tokens: 500 }).withResponse();
    expect(completion.choices[0].message.content).toBe('Paris.');
    expect(response.headers.get('x-charged-micro-usd')).toBe(String(charge(312)));
    // The upstream was asked with the caller's max_tokens, not the gateway's default.
    expect(llm.requests.at(-1)!.body.max_tokens).toBe(500);
    const usage = await usageOf(key);
    expect(usage.balance).toBe(1_000_000 - charge(312));
    expect(usage.month.services).toEqual([{ service: 'chat', orders: 1, delivered: 1, spent: { micro_usd: charge(312), usd: '0.0156' } }]);
    const order = (await api(gw.apiUrl, 'GET', `/orders/${response.headers.get('x-order-id')}`, { headers: { 'x-revenue-key': key } })).body;
    expect(order).toMatchObject({ service: 'chat', status: 'delivered', payment: { state: 'captured', charged_micro_usd: charge(312) } });
    // Never more than was held: an upstream reporting more tokens than the call could use is charged the hold.
    queued.push({ content: 'Long.', usage: { prompt_tokens: 5000, completion_tokens: 500, total_tokens: 5500 } });
    const capped = await client(key).chat.completions.create({ model: llm.model, messages: [{ role: 'user', content: 'Hi' }], max_tokens: 500 }).withResponse();
    expect(Number(capped.response.headers.get('x-charged-micro-usd'))).toBeLessThan(charge(5500));
    // What the conversation said is not kept on the order.
    expect(JSON.stringify(order)).not.toContain('France');
  });

  it('bounds a call without max_tokens by the default, and charges a stream when its last event has passed', async () => {
    const key = await account('stream@example.com', 1_000_000);
    queued.push({ content: 'one two three', usage: { prompt_tokens: 100, completion_tokens: 900, total_tokens: 1000 } });
    const stream = await client(key).chat.completions.create({ model: llm.model, messages: [{ role: 'user', content: 'Count.' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('one two three');
    expect(llm.requests.at(-1)!.body.max_tokens).toBe(4096);
    expect(llm.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true });
    expect((await usageOf(key)).balance).toBe(1_000_000 - charge(1000));
  });

  it('meters the gateway’s own model too', async () => {
    const key = await account('local@example.com', 1_000_000);
    const c = await client(key).chat.completions.create({ model: 'gateway-local', messages: [{ role: 'user', content: 'What is 2+2?' }] });
    const used = c.usage!.total_tokens;
    expect(used).toBeGreaterThan(0);
    expect((await usageOf(key)).balance).toBe(1_000_000 - charge(used));
  });

  it('releases the hold of a call the upstream fails, and refuses an unfunded one with 402 before calling it', async () => {
    const key = await account('fails@example.com', 1_000_000);
    queued.push({ status: 500, error: { message: 'boom' } });
    await expect(client(key).chat.completions.create({ model: llm.model, messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({ status: 502 });
    expect((await usageOf(key)).balance).toBe(1_000_000);
    const poor = await account('poor@example.com', 0);
    const calls = llm.requests.length;
    await expect(client(poor).chat.completions.create({ model: llm.model, messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({ status: 402 });
    expect(llm.requests.length).toBe(calls);
  });

  it('answers 401 without a key and 403 with a wrong one, in OpenAI’s error format', async () => {
    const none = await api(gw.apiUrl, 'POST', '/v1/chat/completions', { body: { model: llm.model, messages: [{ role: 'user', content: 'Hi' }] } });
    expect(none.status).toBe(401);
    expect(none.body.error.message).toMatch(/X-Revenue-Key/);
    await expect(new OpenAI({ apiKey: `agr_live_${'y'.repeat(43)}`, baseURL: `${gw.apiUrl}/v1`, maxRetries: 0 }).chat.completions.create({ model: llm.model, messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({ status: 403 });
  });
});
