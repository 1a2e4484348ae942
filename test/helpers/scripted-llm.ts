// An OpenAI-compatible chat server on loopback whose replies a test scripts: a queue of replies, or a function
// of the request. It answers /v1/chat/completions as OpenAI does (a chat.completion object with usage, or an
// SSE stream ending with data: [DONE]; errors as {error: {message, type, param, code}}) and /v1/models, and
// records every request. A reply may be a status with an error, a delay (for timeouts) or a raw body.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ScriptedReply {
  /** The assistant's text. */
  content?: string;
  /** Usage to report; default: a quarter of the characters, prompt and completion; null: none at all. */
  usage?: ScriptedUsage | null;
  finish_reason?: string;
  /** An error answer: this status with an OpenAI error object. */
  status?: number;
  error?: { message: string; type?: string; code?: string | null; param?: string | null };
  /** Wait this long before answering. */
  delayMs?: number;
  /** Send this body as it is (status 200 unless `status`), e.g. something that is not JSON. */
  raw?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export type Scripted = string | ScriptedReply;
export type ScriptFn = (req: RecordedRequest, index: number) => Scripted | Promise<Scripted>;

export interface ScriptedLlmOptions {
  /** Answer 400 to any request with response_format json_schema, as a server without structured output. */
  refuseStructured?: boolean;
  /** The model id listed at /v1/models. */
  model?: string;
}

export interface ScriptedLlm {
  /** Base URL, ending in /v1 (config.llm.baseUrl). */
  url: string;
  model: string;
  /** Chat completion requests, in order (refused structured-output requests included). */
  requests: RecordedRequest[];
  /** config.llm for this server. */
  llm(overrides?: { timeoutMs?: number; apiKey?: string; model?: string }): { baseUrl: string; apiKey?: string; model?: string; timeoutMs: number };
  /** Appends replies to the queue. */
  push(...replies: Scripted[]): void;
  close(): Promise<void>;
}

const estimate = (chars: number) => Math.max(1, Math.ceil(chars / 4));

function promptChars(body: any): number {
  return (Array.isArray(body?.messages) ? body.messages : []).reduce((n: number, m: any) => n + String(m?.content ?? '').length, 0);
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function sendError(res: http.ServerResponse, status: number, err: ScriptedReply['error']): void {
  const e = err ?? { message: `scripted error ${status}` };
  sendJson(res, status, { error: { message: e.message, type: e.type ?? (status >= 500 ? 'server_error' : 'invalid_request_error'), param: e.param ?? null, code: e.code ?? null } });
}

function sendCompletion(res: http.ServerResponse, body: any, id: string, reply: ScriptedReply): void {
  const content = reply.content ?? '';
  const usage =
    reply.usage === null
      ? undefined
      : (reply.usage ?? (() => {
          const p = estimate(promptChars(body));
          const c = estimate(content.length);
          return { prompt_tokens: p, completion_tokens: c, total_tokens: p + c };
        })());
  const finish = reply.finish_reason ?? 'stop';
  const base = { id, created: Math.floor(Date.now() / 1000), model: body.model, system_fingerprint: 'fp_scripted' };
  if (!body.stream) {
    sendJson(res, 200, {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: finish }],
      ...(usage ? { usage } : {}),
    });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (o: unknown) => res.write(`data: ${JSON.stringify(o)}\n\n`);
  const chunk = { ...base, object: 'chat.completion.chunk' };
  send({ ...chunk, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  for (const piece of content.split(/(?<=\s)/)) send({ ...chunk, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
  send({ ...chunk, choices: [{ index: 0, delta: {}, finish_reason: finish }] });
  if (usage && body.stream_options?.include_usage) send({ ...chunk, choices: [], usage });
  res.end('data: [DONE]\n\n');
}

export async function startScriptedLlm(script: Scripted[] | ScriptFn = [], opts: ScriptedLlmOptions = {}): Promise<ScriptedLlm> {
  const model = opts.model ?? 'scripted-model';
  const queue: Scripted[] = Array.isArray(script) ? [...script] : [];
  const fn = Array.isArray(script) ? undefined : script;
  const requests: RecordedRequest[] = [];
  let served = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'GET' && path === '/v1/models') {
        sendJson(res, 200, { object: 'list', data: [{ id: model, object: 'model', created: 1_700_000_000, owned_by: 'scripted' }] });
        return;
      }
      if (req.method !== 'POST' || path !== '/v1/chat/completions') return sendError(res, 404, { message: `Unknown request ${req.method} ${path}`, code: 'unknown_url' });
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        return sendError(res, 400, { message: 'The body is not JSON.' });
      }
      const recorded: RecordedRequest = { method: req.method, path, headers: req.headers, body };
      requests.push(recorded);
      if (!Array.isArray(body?.messages)) return sendError(res, 400, { message: "'messages' is required", param: 'messages' });
      if (opts.refuseStructured && body.response_format?.type === 'json_schema') {
        return sendError(res, 400, { message: "response_format 'json_schema' is not supported", param: 'response_format' });
      }
      const index = served++;
      const next = fn ? await fn(recorded, index) : queue.shift();
      if (next === undefined) return sendError(res, 500, { message: `scripted-llm: no reply scripted for request ${index + 1}` });
      const reply: ScriptedReply = typeof next === 'string' ? { content: next } : next;
      const answer = () => {
        if (res.destroyed) return;
        if (reply.raw !== undefined) return void res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain' }).end(reply.raw);
        if (reply.status && reply.status !== 200) return sendError(res, reply.status, reply.error);
        sendCompletion(res, body, `chatcmpl-scripted-${index + 1}`, reply);
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    model,
    requests,
    llm: (o = {}) => ({ baseUrl: url, model: o.model ?? model, timeoutMs: o.timeoutMs ?? 5000, ...(o.apiKey ? { apiKey: o.apiKey } : {}) }),
    push: (...replies) => void queue.push(...replies),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
