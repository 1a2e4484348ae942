// The free chat tier with the embedded model gateway-local, through the real `openai` client: completions,
// streams (with include_usage), OpenAI-style errors, the per-client rate limit and /v1/models.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let key: string;
const client = (apiKey = 'anything', extra: Record<string, string> = {}) =>
  new OpenAI({ apiKey, baseURL: `${gw.url}/v1`, maxRetries: 0, defaultHeaders: extra });

beforeAll(async () => {
  gw = await startGateway();
  key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'chat@example.com' } })).body.key;
});
afterAll(async () => gw.cleanup());

describe('gateway-local with the openai client', () => {
  it('answers a question about the gateway (no key needed)', async () => {
    const c = await client().chat.completions.create({ model: 'gateway-local', messages: [{ role: 'user', content: 'how do I store a secret?' }] });
    expect(c.object).toBe('chat.completion');
    expect(c.model).toBe('gateway-local');
    expect(c.id).toMatch(/^chatcmpl-/);
    expect(c.choices).toHaveLength(1);
    expect(c.choices[0].finish_reason).toBe('stop');
    expect(c.choices[0].message.role).toBe('assistant');
    expect(c.choices[0].message.content).toContain('vault_put');
    expect(c.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(c.usage!.total_tokens).toBe(c.usage!.prompt_tokens + c.usage!.completion_tokens);
  });

  it('runs a calculator with the caller’s key: as Bearer (what OpenAI clients send) or X-API-Key', async () => {
    const viaBearer = await client(key).chat.completions.create({ model: 'gateway-local', messages: [{ role: 'user', content: 'convert 255 to base 2' }] });
    expect(viaBearer.choices[0].message.content).toBe('255 in base 10 is 11111111 in base 2.');
    const viaHeader = await client('sk-placeholder', { 'x-api-key': key }).chat.completions.create({
      model: 'gateway-local',
      messages: [{ role: 'user', content: '10 business days after 2026-12-20 in DE' }],
    });
    expect(viaHeader.choices[0].message.content).toContain('is 2027-01-05');
    expect((await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } })).body.used).toBe(2);
  });

  it('without payment, a calculator question is answered with how to pay (not an error)', async () => {
    const c = await client().chat.completions.create({ model: 'gateway-local', messages: [{ role: 'user', content: 'convert 255 to base 2' }] });
    expect(c.choices[0].finish_reason).toBe('stop');
    expect(c.choices[0].message.content).toContain('paid calculator');
    expect(c.choices[0].message.content).toContain('/keys/issue');
  });

  it('an agent secret as Bearer pays with the agent’s credits (none here: the payment answer)', async () => {
    const a = await register(gw.url, 'chat-agent');
    const c = await client(a.secret).chat.completions.create({ model: 'gateway-local', messages: [{ role: 'user', content: 'convert 5 to base 2' }] });
    expect(c.choices[0].message.content).toContain('paid calculator');
  });

  it("answers an agent's long message from its memory (searched by its first words), not with a 400 about a field it never sent", async () => {
    const a = await register(gw.url, 'chat-long');
    expect((await api(gw.url, 'PUT', '/memory/trips/lisbon', { secret: a.secret, body: { value: 'The Lisbon trip starts on 4 May at the Alfama hotel.' } })).status).toBe(200);
    const long = `What did I note about the Lisbon trip? ${'Some context about my plans and the people coming along. '.repeat(40)}`;
    expect(long.length).toBeGreaterThan(2000);
    const c = await client(a.secret).chat.completions.create({ model: 'gateway-local', messages: [{ role: 'user', content: long }] });
    expect(c.choices[0].message.content).toContain('Alfama');
  });

  it('earlier user turns give context to a follow-up', async () => {
    const c = await client().chat.completions.create({
      model: 'gateway-local',
      messages: [
        { role: 'system', content: 'You are helpful.' },
        { role: 'user', content: 'how do I store a secret in the vault?' },
        { role: 'assistant', content: 'Use vault_put.' },
        { role: 'user', content: 'and how do I list them?' },
      ],
    });
    expect(c.choices[0].message.content).toMatch(/^Use vault_list/);
  });

  it('streams chunks ending with [DONE], with a usage chunk when asked', async () => {
    const stream = await client(key).chat.completions.create({
      model: 'gateway-local',
      messages: [{ role: 'user', content: 'how do I store a secret?' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const ch of stream) chunks.push(ch);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const text = chunks.flatMap((c) => c.choices.map((x) => x.delta.content ?? '')).join('');
    expect(text).toContain('vault_put');
    expect(chunks.filter((c) => c.choices.length).length).toBeGreaterThan(3);
    const finish = chunks.find((c) => c.choices[0]?.finish_reason);
    expect(finish?.choices[0].finish_reason).toBe('stop');
    const last = chunks[chunks.length - 1];
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) });
    for (const c of chunks.slice(0, -1)) expect(c.usage).toBeNull();

    const plain = await client().chat.completions.create({ model: 'gateway-local', messages: [{ role: 'user', content: 'hi' }], stream: true });
    const all = [];
    for await (const ch of plain) all.push(ch);
    expect(all.every((c) => c.usage === undefined)).toBe(true);
  });

  it('the raw stream is SSE with data: lines and a final data: [DONE]', async () => {
    const res = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gateway-local', messages: [{ role: 'user', content: 'what can you do?' }], stream: true }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    const events = text.split('\n\n').filter(Boolean);
    expect(events.every((e) => e.startsWith('data: '))).toBe(true);
    expect(events[events.length - 1]).toBe('data: [DONE]');
    expect(JSON.parse(events[0].slice(6)).object).toBe('chat.completion.chunk');
  });

  it('max_tokens cuts the answer with finish_reason length; n repeats it', async () => {
    const c = await client().chat.completions.create({ model: 'gateway-local', messages: [{ role: 'user', content: 'what can you do?' }], max_tokens: 5, n: 2 });
    expect(c.choices).toHaveLength(2);
    expect(c.choices[0].finish_reason).toBe('length');
    expect(c.choices[0].message.content).toBe('Agent Gateway 1.6'); // 5 tokens: Agent, Gateway, 1, ., 6
    expect(c.usage!.completion_tokens).toBe(10);
  });

  it('response_format json_object gives the answer as JSON', async () => {
    const c = await client(key).chat.completions.create({ model: 'gateway-local', messages: [{ role: 'user', content: '12 xor 10' }], response_format: { type: 'json_object' } });
    expect(JSON.parse(c.choices[0].message.content!)).toMatchObject({ kind: 'calculator', tool: 'bitwise', result: { decimal: '6' } });
  });
});

describe('errors in OpenAI’s format', () => {
  it('an unknown model without an upstream is 404 model_not_found', async () => {
    const err = await client()
      .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    const e = err as InstanceType<typeof OpenAI.NotFoundError>;
    expect(e.status).toBe(404);
    expect(e.code).toBe('model_not_found');
    expect(e.param).toBe('model');
    expect(e.type).toBe('invalid_request_error');
    expect(e.message).toContain('gpt-4o');
  });

  it('bad requests are 400 invalid_request_error naming the parameter', async () => {
    const noMessages = await client()
      .chat.completions.create({ model: 'gateway-local', messages: [] })
      .catch((e: unknown) => e);
    expect(noMessages).toBeInstanceOf(OpenAI.BadRequestError);
    expect((noMessages as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('messages');
    const raw = async (body: string, type = 'application/json') => {
      const r = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': type }, body });
      return { status: r.status, body: (await r.json()) as { error: { type: string; param: string | null; message: string } } };
    };
    expect(await raw('{not json')).toMatchObject({ status: 400, body: { error: { type: 'invalid_request_error' } } });
    expect(await raw('[1,2]')).toMatchObject({ status: 400, body: { error: { type: 'invalid_request_error' } } });
    expect(await raw('')).toMatchObject({ status: 400 });
    expect(await raw(JSON.stringify({ model: 'gateway-local' }))).toMatchObject({ status: 400, body: { error: { param: 'messages' } } });
    expect(await raw(JSON.stringify({ messages: [{ role: 'user', content: 'x' }] }))).toMatchObject({ status: 400, body: { error: { param: 'model' } } });
    expect(await raw(JSON.stringify({ model: 'gateway-local', messages: [{ role: 'wizard', content: 'x' }] }))).toMatchObject({
      status: 400,
      body: { error: { param: 'messages[0].role' } },
    });
    expect((await raw('{}', 'text/plain')).status).toBe(415);
    const get = await fetch(`${gw.url}/v1/chat/completions`);
    expect(get.status).toBe(405);
  });
});

describe('free tier rate limit', () => {
  it('allows GATEWAY_CHAT_RATE_PER_MINUTE completions per client per minute, then 429 with Retry-After', async () => {
    const small = await startGateway({ env: { GATEWAY_CHAT_RATE_PER_MINUTE: '3' } });
    try {
      const c = new OpenAI({ apiKey: 'x', baseURL: `${small.url}/v1`, maxRetries: 0 });
      const ask = () => c.chat.completions.create({ model: 'gateway-local', messages: [{ role: 'user', content: 'hi' }] });
      for (let i = 0; i < 3; i++) await ask();
      const err = await ask().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.RateLimitError);
      const e = err as InstanceType<typeof OpenAI.RateLimitError>;
      expect(e.code).toBe('rate_limit_exceeded');
      expect(Number(e.headers?.get('retry-after'))).toBeGreaterThan(0);
      // Another client (an agent) has its own allowance; a minute later the first one has its allowance back.
      const a = await register(small.url, 'chat-limit');
      await new OpenAI({ apiKey: a.secret, baseURL: `${small.url}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'gateway-local', messages: [{ role: 'user', content: 'hi' }] });
      small.clock.advance(61_000);
      await ask();
    } finally {
      await small.cleanup();
    }
  });
});

describe('GET /v1/models', () => {
  it('lists gateway-local (no upstream configured)', async () => {
    const list = await client().models.list();
    expect(list.data.map((m) => m.id)).toEqual(['gateway-local']);
    expect(list.data[0]).toMatchObject({ object: 'model', owned_by: 'agent-gateway' });
  });
});
