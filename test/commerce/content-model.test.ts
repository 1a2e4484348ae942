// The model caller over the OpenAI wire, against the scripted server: which the official `openai` client takes
// for the real thing; usage as reported (or estimated); failures as GatewayErrors; structured output asked
// for first and dropped when the server refuses it.
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.js';
import { callModel } from '../../tools/commercial/content/model.js';
import { produceAds } from '../../tools/commercial/content/ads.js';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm.js';
import { adsReply } from './content-fixtures.js';

let server: ScriptedLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const failure = async (p: Promise<unknown>): Promise<GatewayError> => {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(GatewayError);
  return err as GatewayError;
};

describe('the scripted server', () => {
  it('answers the official openai client as OpenAI does, JSON and stream, and records the requests', async () => {
    server = await startScriptedLlm(['Hello there.', { content: 'Streamed words here.', usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } }]);
    const client = new OpenAI({ apiKey: 'k-test', baseURL: server.url, maxRetries: 0 });
    const c = await client.chat.completions.create({ model: server.model, messages: [{ role: 'user', content: 'Say hello' }] });
    expect(c.choices[0].message.content).toBe('Hello there.');
    expect(c.object).toBe('chat.completion');
    expect(c.usage?.total_tokens).toBe((c.usage?.prompt_tokens ?? 0) + (c.usage?.completion_tokens ?? 0));
    const stream = await client.chat.completions.create({ model: server.model, messages: [{ role: 'user', content: 'Stream' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('Streamed words here.');
    expect(usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
    expect((await client.models.list()).data.map((m) => m.id)).toEqual([server.model]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0].headers.authorization).toBe('Bearer k-test');
    expect(server.requests[0].body.messages).toEqual([{ role: 'user', content: 'Say hello' }]);
  });

  it('an error reply reaches the openai client as its APIError with the status', async () => {
    server = await startScriptedLlm([{ status: 500, error: { message: 'boom' } }]);
    const client = new OpenAI({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const err = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(500);
  });
});

describe('callModel', () => {
  it('posts {model, messages} with the key and returns the text, usage and finish reason', async () => {
    server = await startScriptedLlm([{ content: 'Done.', usage: { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 }, finish_reason: 'length' }]);
    const reply = await callModel(server.llm({ apiKey: 'op-key' }), [{ role: 'user', content: 'Go' }]);
    expect(reply).toEqual({ text: 'Done.', usage: { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 }, finishReason: 'length' });
    expect(server.requests[0].headers.authorization).toBe('Bearer op-key');
    expect(server.requests[0].body).toMatchObject({ model: server.model, messages: [{ role: 'user', content: 'Go' }], stream: false });
  });

  it('estimates usage when the server reports none', async () => {
    server = await startScriptedLlm([{ content: 'x'.repeat(40), usage: null }]);
    const reply = await callModel(server.llm(), [{ role: 'user', content: 'y'.repeat(80) }]);
    expect(reply.usage).toEqual({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 });
  });

  it('a 500 is upstream_error (502) naming the status', async () => {
    server = await startScriptedLlm([{ status: 500, error: { message: 'exploded' } }]);
    const err = await failure(callModel(server.llm(), [{ role: 'user', content: 'x' }]));
    expect(err.code).toBe('upstream_error');
    expect(err.status).toBe(502);
    expect(err.extra.upstream_status).toBe(500);
  });

  it('a timeout is upstream_error', async () => {
    server = await startScriptedLlm([{ content: 'late', delayMs: 2000 }]);
    const started = Date.now();
    const err = await failure(callModel(server.llm({ timeoutMs: 200 }), [{ role: 'user', content: 'x' }]));
    expect(err.code).toBe('upstream_error');
    expect(err.message).toMatch(/timed out/);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('an answer that is not JSON, or not in the OpenAI format, is upstream_error', async () => {
    server = await startScriptedLlm([{ raw: '<html>proxy error</html>' }, { raw: JSON.stringify({ result: 'hi' }) }]);
    expect((await failure(callModel(server.llm(), [{ role: 'user', content: 'x' }]))).code).toBe('upstream_error');
    const err = await failure(callModel(server.llm(), [{ role: 'user', content: 'x' }]));
    expect(err.code).toBe('upstream_error');
    expect(err.message).toMatch(/OpenAI format/);
  });

  it('an unreachable server is upstream_error; no model configured is unavailable (503)', async () => {
    server = await startScriptedLlm([]);
    const url = server.url;
    await server.close();
    server = undefined;
    expect((await failure(callModel({ baseUrl: url, model: 'm', timeoutMs: 1000 }, [{ role: 'user', content: 'x' }]))).code).toBe('upstream_error');
    const none = await failure(callModel(undefined, [{ role: 'user', content: 'x' }]));
    expect([none.code, none.status]).toEqual(['unavailable', 503]);
    expect((await failure(callModel({ baseUrl: url, timeoutMs: 1000 }, [{ role: 'user', content: 'x' }]))).code).toBe('unavailable');
  });
});

describe('structured output', () => {
  it('is asked for first, and a JSON reply is read', async () => {
    const json = JSON.stringify({ variations: Array.from({ length: 5 }, (_, i) => ({ headline: `Fast Lane ${i + 1}`, body: 'Ship in a day with our couriers.', call_to_action: 'Book now' })) });
    server = await startScriptedLlm([json]);
    const out = await produceAds({ brief: 'Courier service', platform: 'Google Ads' }, server.llm(), 3);
    expect(out.deliverable.variations[4]).toEqual({ headline: 'Fast Lane 5', body: 'Ship in a day with our couriers.', call_to_action: 'Book now' });
    expect(server.requests[0].body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'ad_variations', strict: true } });
  });

  it('a server that refuses it (400) is asked again in Markdown within the same attempt', async () => {
    server = await startScriptedLlm([adsReply()], { refuseStructured: true });
    const out = await produceAds({ brief: 'Courier service', platform: 'Google Ads' }, server.llm(), 1);
    expect(out.attempts).toBe(1);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].body.response_format).toBeUndefined();
    expect(server.requests[1].body.messages[1].content).toMatch(/### Variation 1\nHeadline:/);
  });

  it('a server that ignores it and answers Markdown is read all the same; structured: false asks in Markdown only', async () => {
    server = await startScriptedLlm([adsReply(), adsReply()]);
    expect((await produceAds({ brief: 'b' }, server.llm(), 1)).deliverable.variations).toHaveLength(5);
    await produceAds({ brief: 'b' }, server.llm(), 1, { structured: false });
    expect(server.requests[1].body.response_format).toBeUndefined();
  });
});
