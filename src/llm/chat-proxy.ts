// Chat completions forwarded to the operator's OpenAI-compatible upstream: the request body goes as sent,
// the JSON answer comes back as is, and a stream is relayed event by event (eventsource-parser) as soon as
// each arrives. undici's request() keeps the added latency below fetch's.
import { undici } from '../lazy-undici.js';
import type { GatewayError } from '../errors.js';
import type { ChatStream } from './chat-stream.js';
import type { UpstreamConfig } from './openai-client.js';
import { upstreamStatusError, upstreamTransportError } from './upstream-errors.js';

const DEFAULT_TIMEOUT_MS = 60_000;

async function send(cfg: UpstreamConfig, body: unknown, signal?: AbortSignal) {
  const timeout = cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { request } = await undici();
  return request(`${cfg.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {}),
    },
    body: JSON.stringify(body),
    signal,
    // A stream may run long; what is bounded is the wait for the answer to start and any silence inside it.
    headersTimeout: timeout,
    bodyTimeout: timeout,
  });
}

async function failOn(res: Awaited<ReturnType<typeof send>>, apiKey: string | undefined): Promise<GatewayError | null> {
  if (res.statusCode >= 200 && res.statusCode < 300) return null;
  const text = await res.body.text().catch(() => '');
  const retry = res.headers['retry-after'];
  return upstreamStatusError(res.statusCode, text, Array.isArray(retry) ? retry[0] : retry, apiKey);
}

/** A whole `chat.completion` object as the equivalent single `chat.completion.chunk`. */
function completionAsChunk(c: unknown): Record<string, unknown> | null {
  if (!c || typeof c !== 'object' || !Array.isArray((c as { choices?: unknown }).choices)) return null;
  const o = c as { choices: { index?: number; message?: unknown; finish_reason?: unknown }[] };
  return {
    ...o,
    object: 'chat.completion.chunk',
    choices: o.choices.map((ch, i) => ({ index: ch.index ?? i, delta: ch.message ?? {}, finish_reason: ch.finish_reason ?? 'stop' })),
  };
}

/** A non-streamed completion: the upstream's JSON answer. */
export async function proxyChat(cfg: UpstreamConfig, body: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
  try {
    const res = await send(cfg, { ...body, stream: false }, signal);
    const failed = await failOn(res, cfg.apiKey);
    if (failed) throw failed;
    return await res.body.json();
  } catch (err) {
    throw upstreamTransportError(err);
  }
}

/** Relays the `data:` payloads of an SSE body until `[DONE]` (not included) or the end of the body. */
export async function* relayEvents(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  // The SSE parser loads with the first stream relayed, not at start-up.
  const { createParser } = await import('eventsource-parser');
  const decoder = new TextDecoder();
  const ready: string[] = [];
  let done = false;
  const parser = createParser({
    onEvent: (e) => {
      if (e.data === '[DONE]') done = true;
      else if (!done) ready.push(e.data);
    },
  });
  try {
    for await (const chunk of body) {
      parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
      while (ready.length) yield ready.shift()!;
      if (done) return;
    }
  } catch (err) {
    throw upstreamTransportError(err);
  }
  parser.feed(decoder.decode());
  parser.reset({ consume: true });
  while (ready.length) yield ready.shift()!;
}

/**
 * A streamed completion. Resolves once the upstream has answered (so its status can still become our status);
 * the events then flow as the upstream sends them.
 */
export async function proxyChatStream(cfg: UpstreamConfig, body: Record<string, unknown>, signal?: AbortSignal): Promise<ChatStream> {
  let res: Awaited<ReturnType<typeof send>>;
  try {
    res = await send(cfg, { ...body, stream: true }, signal);
    const failed = await failOn(res, cfg.apiKey);
    if (failed) throw failed;
  } catch (err) {
    throw upstreamTransportError(err);
  }
  const type = String(res.headers['content-type'] ?? '');
  if (!type.includes('text/event-stream')) {
    // An upstream that ignored `stream: true` answered one JSON completion: relay it as one chunk.
    const chunk = completionAsChunk(await res.body.json().catch(() => null));
    if (!chunk) throw upstreamTransportError(new Error('not JSON'));
    return { kind: 'chat_stream', events: (async function* () { yield JSON.stringify(chunk); })() };
  }
  return { kind: 'chat_stream', events: relayEvents(res.body) };
}
