// A small OpenAI-compatible server on loopback for tests: /v1/embeddings (a deterministic bag-of-words
// embedding with a few synonym classes, so related words land close), /v1/models and /v1/chat/completions
// (JSON or an SSE stream ending with data: [DONE]). Some model ids misbehave on purpose:
//   missing-model → 404 model_not_found · error-500 → 500 · error-429 → 429 with Retry-After: 7
//   error-401 → 401 · slow → answers after `slowMs` · stall-stream → one chunk, then silence
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const DIMS = 64;
const SYNONYMS: Record<string, string> = { automobile: 'car', vehicle: 'car', cars: 'car', repair: 'fix', mend: 'fix' };

function hash(w: string): number {
  let h = 2166136261;
  for (const c of w) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return Math.abs(h) % DIMS;
}

export function embedText(text: string): number[] {
  const v = new Array<number>(DIMS).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) v[hash(SYNONYMS[raw] ?? raw)] += 1;
  return v;
}

export interface FakeUpstream {
  url: string;
  requests: { path: string; body: any; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export interface FakeUpstreamOptions {
  /** Model ids listed at /v1/models. */
  models?: string[];
  /** How long the `slow` model waits before answering. */
  slowMs?: number;
}

export const UPSTREAM_MODELS = ['test-model', 'test-model-mini'];

/** The answer of a well-behaved model: the memory summary format the memory tests read. */
function contentFor(body: any): string {
  const last = String(body.messages?.[body.messages.length - 1]?.content ?? '');
  return `# Summary\n\n- ${last.split('\n').filter((l: string) => l.startsWith('## ')).length} notes reviewed`;
}

function error(res: http.ServerResponse, status: number, err: Record<string, unknown>, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ error: err }));
}

function streamAnswer(res: http.ServerResponse, body: any, content: string, stall: boolean): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = { id: 'chatcmpl-up', object: 'chat.completion.chunk', created: 0, model: body.model };
  const send = (o: unknown) => res.write(`data: ${JSON.stringify(o)}\n\n`);
  send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  if (stall) return; // never ends: the gateway's idle timeout has to act
  for (const word of content.split(/(?<= )/)) send({ ...base, choices: [{ index: 0, delta: { content: word }, finish_reason: null }] });
  send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  if (body.stream_options?.include_usage) send({ ...base, choices: [], usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } });
  res.end('data: [DONE]\n\n');
}

export async function startOpenAiServer(opts: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const requests: FakeUpstream['requests'] = [];
  const models = opts.models ?? UPSTREAM_MODELS;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : {};
      requests.push({ path: req.url ?? '', body, headers: req.headers });
      if (req.url === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'test-upstream' })) }));
        return;
      }
      if (req.url === '/v1/embeddings') {
        const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', model: body.model, data: inputs.map((t, index) => ({ object: 'embedding', index, embedding: embedText(t) })) }));
        return;
      }
      if (req.url === '/v1/chat/completions') {
        switch (body.model) {
          case 'missing-model':
            return error(res, 404, { message: `The model \`${body.model}\` does not exist.`, type: 'invalid_request_error', param: 'model', code: 'model_not_found' });
          case 'error-500':
            return error(res, 500, { message: 'upstream exploded', type: 'server_error', param: null, code: null });
          case 'error-429':
            return error(res, 429, { message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' }, { 'retry-after': '7' });
          // Some upstreams quote the credential they were sent in what they refuse.
          case 'echo-key-400':
            return error(res, 400, { message: `Refused for ${req.headers.authorization}.`, type: 'invalid_request_error', param: String(req.headers.authorization), code: 'refused' });
          case 'echo-key-429':
            return error(res, 429, { message: `Too many requests for ${req.headers.authorization}.`, type: 'requests', param: null, code: 'rate_limit_exceeded' });
          case 'error-401':
            return error(res, 401, { message: 'bad key', type: 'invalid_request_error', param: null, code: 'invalid_api_key' });
        }
        const answer = () => {
          const content = contentFor(body);
          if (body.stream) return streamAnswer(res, body, content, body.model === 'stall-stream');
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
        };
        if (body.model === 'slow') setTimeout(answer, opts.slowMs ?? 2000).unref();
        else answer();
        return;
      }
      error(res, 404, { message: 'not found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
