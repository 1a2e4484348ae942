// A minimal OpenAI-compatible chat server for benchmarks (its own process, so it takes no time from the gateway or
// the load generator's loop): POST /v1/chat/completions answers at once, non-streaming, with five ad variations in
// the Markdown format the copy.ad parser reads (test/commerce/content-fixtures.ts adsReply()) and a usage object;
// GET /v1/models lists the model. Control: POST /__pause makes replies wait (the orders' work then sits idle in
// its lanes: placement alone is measured), POST /__resume answers every waiting reply, GET /__stats counts.
import http from 'node:http';

const MODEL = 'bench-model';
const CONTENT = Array.from(
  { length: 5 },
  (_, i) => `### Variation ${i + 1}\nHeadline: Same-Day Courier ${i + 1}\nBody: Parcels across town before dinner. Track every step live.\nCall to action: Book a pickup`,
).join('\n\n');
const MODELS = JSON.stringify({ object: 'list', data: [{ id: MODEL, object: 'model', created: 1_700_000_000, owned_by: 'bench' }] });

let served = 0;
let paused = false;
/** Replies waiting for /__resume. */
let waiting = [];

function completion(model) {
  served++;
  return JSON.stringify({
    id: `chatcmpl-bench-${served}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: 'fp_bench',
    choices: [{ index: 0, message: { role: 'assistant', content: CONTENT, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 420, completion_tokens: 160, total_tokens: 580 },
  });
}

const json = (res, status, body) => res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/v1/models') return json(res, 200, MODELS);
    if (req.method === 'GET' && path === '/__stats') return json(res, 200, JSON.stringify({ served, waiting: waiting.length, paused }));
    if (req.method === 'POST' && path === '/__pause') {
      paused = true;
      return json(res, 200, '{"paused":true}');
    }
    if (req.method === 'POST' && path === '/__resume') {
      paused = false;
      const w = waiting;
      waiting = [];
      for (const answer of w) answer();
      return json(res, 200, JSON.stringify({ resumed: w.length }));
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') return json(res, 404, JSON.stringify({ error: { message: `Unknown request ${req.method} ${path}`, type: 'invalid_request_error', param: null, code: 'unknown_url' } }));
    let model = MODEL;
    try {
      model = JSON.parse(Buffer.concat(chunks).toString()).model ?? MODEL;
    } catch {
      return json(res, 400, JSON.stringify({ error: { message: 'The body is not JSON.', type: 'invalid_request_error', param: null, code: null } }));
    }
    const answer = () => {
      if (!res.destroyed) json(res, 200, completion(model));
    };
    if (paused) waiting.push(answer);
    else answer();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`READY ${server.address().port}\n`));
