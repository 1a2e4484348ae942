// Models other than gateway-local go to the configured upstream (an OpenAI-compatible server started here on
// loopback): answers and streams relayed, model list merged, upstream errors mapped, timeouts bounded.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { startOpenAiServer, UPSTREAM_MODELS, type FakeUpstream } from '../helpers/openai-server.js';

let gw: TestGateway;
let upstream: FakeUpstream;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startOpenAiServer({ slowMs: 1500 });
  gw = await startGateway({ env: { LLM_BASE_URL: upstream.url, LLM_API_KEY: 'upstream-secret', LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: '400' } });
  client = new OpenAI({ apiKey: 'client-key', baseURL: `${gw.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await gw.cleanup();
  await upstream.close();
});

const lastRequest = () => upstream.requests[upstream.requests.length - 1];

describe('proxying to the upstream', () => {
  it('/v1/models lists gateway-local first, then the upstream’s models', async () => {
    const list = await client.models.list();
    expect(list.data.map((m) => m.id)).toEqual(['gateway-local', ...UPSTREAM_MODELS]);
    expect(list.data[1]).toMatchObject({ owned_by: 'test-upstream', created: 1_700_000_000 });
  });

  it('relays a completion, with the operator’s key (not the client’s) and the body as sent', async () => {
    const c = await client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: '## one\n## two' }], temperature: 0.2, user: 'u-1' });
    expect(c).toMatchObject({ id: 'chatcmpl-test', model: 'test-model', choices: [{ message: { content: '# Summary\n\n- 2 notes reviewed' }, finish_reason: 'stop' }] });
    const sent = lastRequest();
    expect(sent.headers.authorization).toBe('Bearer upstream-secret');
    expect(sent.body).toMatchObject({ model: 'test-model', temperature: 0.2, user: 'u-1', stream: false });
  });

  it('relays a stream chunk by chunk, ending with [DONE], usage included when asked', async () => {
    const stream = await client.chat.completions.create({
      model: 'test-model',
      messages: [{ role: 'user', content: '## a' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const ch of stream) chunks.push(ch);
    expect(chunks[0]).toMatchObject({ id: 'chatcmpl-up', object: 'chat.completion.chunk', choices: [{ delta: { role: 'assistant' } }] });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('# Summary\n\n- 1 notes reviewed');
    expect(chunks[chunks.length - 1].usage).toEqual({ prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 });
    expect(lastRequest().body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const raw = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test-model', messages: [{ role: 'user', content: 'x' }], stream: true }),
    });
    expect((await raw.text()).trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('gateway-local still answers locally with an upstream configured', async () => {
    const before = upstream.requests.length;
    const c = await client.chat.completions.create({ model: 'gateway-local', messages: [{ role: 'user', content: 'what can you do?' }] });
    expect(c.model).toBe('gateway-local');
    expect(upstream.requests.length).toBe(before);
  });
});

describe('upstream errors, mapped', () => {
  const call = (model: string, stream = false) =>
    stream
      ? (async () => {
          const s = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }], stream: true });
          for await (const _ of s) void _;
        })()
      : client.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }] });

  it('an unknown upstream model passes through as 404 model_not_found', async () => {
    for (const stream of [false, true]) {
      const err = await call('missing-model', stream).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.NotFoundError);
      expect((err as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
    }
  });

  it('upstream 5xx and refused operator credentials become 502; its 429 stays 429 with Retry-After', async () => {
    const e500 = (await call('error-500').catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(e500.status).toBe(502);
    expect(e500.code).toBe('upstream_error');
    expect(e500.message).not.toContain('exploded');
    const e401 = (await call('error-401', true).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(e401.status).toBe(502);
    expect(e401.message).toContain('LLM_API_KEY');
    const e429 = (await call('error-429').catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(e429).toBeInstanceOf(OpenAI.RateLimitError);
    expect(e429.headers?.get('retry-after')).toBe('7');
  });

  it('an upstream error that quotes the operator’s key reaches the caller without it', async () => {
    for (const model of ['echo-key-400', 'echo-key-429']) {
      for (const stream of [false, true]) {
        const err = (await call(model, stream).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
        expect(err.status, model).toBe(model.endsWith('400') ? 400 : 429);
        expect(JSON.stringify({ message: err.message, error: err.error })).not.toContain('upstream-secret');
        expect(err.message).toContain('[redacted]');
      }
    }
  });

  it('a slow upstream times out with 504 (LLM_TIMEOUT_MS)', async () => {
    const t0 = Date.now();
    const err = (await call('slow').catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(err.status).toBe(504);
    expect(err.code).toBe('upstream_timeout');
    expect(Date.now() - t0).toBeLessThan(1400);
  });

  it('a stream that stalls midway ends with an error event (no [DONE])', async () => {
    const res = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'stall-stream', messages: [{ role: 'user', content: 'x' }], stream: true }),
    });
    expect(res.status).toBe(200);
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(JSON.parse(events[0].slice(6)).choices[0].delta.role).toBe('assistant');
    const last = JSON.parse(events[events.length - 1].slice(6));
    expect(last.error).toMatchObject({ code: 'upstream_timeout', type: 'api_error' });
    expect(events).not.toContain('data: [DONE]');
    const err = await call('stall-stream', true).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
  });

  it('an unreachable upstream is 502; the model list falls back to LLM_MODEL', async () => {
    const dead = await startGateway({ env: { LLM_BASE_URL: 'http://127.0.0.1:1/v1', LLM_MODEL: 'fallback-model', LLM_TIMEOUT_MS: '500' } });
    try {
      const c = new OpenAI({ apiKey: 'x', baseURL: `${dead.url}/v1`, maxRetries: 0 });
      const err = (await c.chat.completions.create({ model: 'anything', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
      expect(err.status).toBe(502);
      expect((await api(dead.url, 'GET', '/v1/models')).body.data.map((m: { id: string }) => m.id)).toEqual(['gateway-local', 'fallback-model']);
    } finally {
      await dead.cleanup();
    }
  });
});
