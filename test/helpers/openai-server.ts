// A small OpenAI-compatible server on loopback for tests: /v1/embeddings (a deterministic bag-of-words
// embedding with a few synonym classes, so related words land close) and /v1/chat/completions.
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
  requests: { path: string; body: any }[];
  close(): Promise<void>;
}

export async function startOpenAiServer(): Promise<FakeUpstream> {
  const requests: { path: string; body: any }[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : {};
      requests.push({ path: req.url ?? '', body });
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/embeddings') {
        const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
        res.end(JSON.stringify({ object: 'list', model: body.model, data: inputs.map((t, index) => ({ object: 'embedding', index, embedding: embedText(t) })) }));
        return;
      }
      if (req.url === '/v1/chat/completions') {
        const last = body.messages[body.messages.length - 1].content as string;
        const content = `# Summary\n\n- ${last.split('\n').filter((l: string) => l.startsWith('## ')).length} notes reviewed`;
        res.end(JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
        return;
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { message: 'not found' } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
