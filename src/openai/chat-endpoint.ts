// POST /v1/chat/completions, the OpenAI-compatible adapter: reads the body, calls the registry's chat tool,
// and writes its answer as JSON or as an SSE stream ending with `data: [DONE]`; errors in OpenAI's format.
// A raw router handler because route tables cannot stream. No capability logic here.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { KEY_PREFIX } from '../billing/keys.js';
import { GatewayError, toGatewayError } from '../errors.js';
import { credentialsOf } from '../http/credentials.js';
import { readJsonBody } from '../http/mount.js';
import type { Router } from '../http/router.js';
import { sendJson } from '../http/send.js';
import type { Registry } from '../registry/registry.js';
import type { Caller } from '../registry/types.js';
import { isChatStream, type ChatStream } from '../llm/chat-stream.js';
import { toOpenAiError } from './openai-errors.js';

export const CHAT_TOOL = 'chat_completion';

export interface ChatEndpointOptions {
  trustProxy: number;
  maxBodyBytes: number;
  maxJsonDepth: number;
  /** The tool that answers (default the free tier's; the commercial listener's is metered to a revenue key). */
  tool?: string;
}

/**
 * OpenAI clients always send `Authorization: Bearer <api key>`. A gateway API key there counts as X-API-Key;
 * any other bearer that is no agent secret (a client's placeholder key) is ignored: the free tier needs none.
 */
async function callerOf(registry: Registry, req: IncomingMessage, trustProxy: number): Promise<Caller> {
  const c = credentialsOf(req, 'chat', trustProxy);
  if (c.bearer?.startsWith(KEY_PREFIX)) {
    c.apiKey ??= c.bearer;
    c.bearer = undefined;
  }
  const caller = await registry.resolve(c);
  return caller.badBearer ? registry.resolve({ ...c, bearer: undefined }) : caller;
}

function sendOpenAiError(res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const oe = toOpenAiError(toGatewayError(err));
  sendJson(res, oe.status, oe.body, oe.headers);
}

async function writeStream(res: ServerResponse, stream: ChatStream, headers: Record<string, string>, signal: AbortSignal): Promise<void> {
  res.writeHead(200, {
    ...headers,
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  try {
    for await (const data of stream.events) {
      if (signal.aborted) return;
      res.write(`data: ${data}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  } catch (err) {
    // Headers are gone: the failure travels as a last event carrying an OpenAI error object (no [DONE]).
    res.end(`data: ${JSON.stringify(toOpenAiError(toGatewayError(err)).body)}\n\n`);
  }
}

export function mountChat(router: Router, registry: Registry, opts: ChatEndpointOptions): void {
  router.add('POST', '/v1/chat/completions', async (req, res) => {
    const abort = new AbortController();
    // A client that hangs up stops the upstream request and the relay.
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    try {
      const body = await readJsonBody(req, opts.maxBodyBytes, opts.maxJsonDepth);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new GatewayError('bad_request', 'The body must be a JSON object: an OpenAI chat completion request with model and messages.');
      }
      const out = await registry.invoke(opts.tool ?? CHAT_TOOL, body, await callerOf(registry, req, opts.trustProxy), { signal: abort.signal });
      if (isChatStream(out.result)) await writeStream(res, out.result, out.meta.headers, abort.signal);
      else sendJson(res, 200, out.result, out.meta.headers);
    } catch (err) {
      sendOpenAiError(res, err);
    }
  });
}
