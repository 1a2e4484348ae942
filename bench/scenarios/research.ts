// Issue 22 target: research over 5 loopback sources ≤ 1 s end to end without a language model. One 2026-07-28
// tools/call of `research` through the gateway's MCP endpoint: the question goes to a SearXNG-compatible search on
// loopback, the five result pages (about 5 KB of HTML each, no ETag, so every run fetches and extracts them again)
// are read through browse, passages ranked, the extractive answer written and the report stored as an artifact.
// Sequential calls after a warm-up; p50 over the runs.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { checkToolCall, modernHeaders, modernToolCallBodies } from '../lib/mcp-session.js';
import { BENCH_OPERATOR_TOKEN, enterpriseKey, startGateway } from '../lib/processes.js';

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const TOPICS = ['lighthouse', 'harbour', 'tides', 'market', 'weather'];
const QUESTION = 'When was the lighthouse on the headland built?';

function page(topic: string): string {
  const para = (i: number) =>
    `<p>Paragraph ${i} about the ${topic}: ${`the ${topic} of the bay is described here with plain words about boats, stone, water and light. `.repeat(3)}` +
    (topic === 'lighthouse' && i === 2 ? 'The lighthouse on the headland was built in 1852 by the harbour board.' : `Nothing else is said in paragraph ${i}.`) +
    '</p>';
  const body = Array.from({ length: 10 }, (_, i) => (i % 4 === 3 ? `<h2>Part ${i}</h2>` : '') + para(i)).join('');
  return `<!doctype html><html lang="en"><head><title>The ${topic}</title></head><body><nav><a href="/">Home</a></nav><article><h1>The ${topic}</h1>${body}</article><footer>Footer</footer></body></html>`;
}

async function stack(): Promise<{ url: string; close(): void }> {
  let base = '';
  const pages = Object.fromEntries(TOPICS.map((t) => [`/${t}`, page(t)]));
  const s = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/robots.txt') return void res.writeHead(404).end();
    if (url.pathname === '/search') {
      const results = TOPICS.map((t) => ({ url: `${base}/${t}`, title: `The ${t}`, content: `About the ${t}` }));
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query: url.searchParams.get('q'), results }));
    }
    const html = pages[url.pathname];
    if (!html) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return { url: base, close: () => s.close() };
}

export async function research(): Promise<string> {
  const site = await stack();
  const gw = await startGateway({ GATEWAY_EGRESS_ALLOW: '127.0.0.1/32', GATEWAY_OPERATOR_TOKEN: BENCH_OPERATOR_TOKEN, SEARCH_PROVIDER: 'searxng', SEARCH_BASE_URL: site.url });
  const headers = { ...modernHeaders('research'), 'x-api-key': await enterpriseKey(gw.url) };
  const body = modernToolCallBodies('research', { question: QUESTION });
  await checkToolCall(`${gw.url}/mcp`, headers, body());
  const call = async () => {
    const text = await (await fetch(`${gw.url}/mcp`, { method: 'POST', headers, body: body() })).text();
    if (!text.includes('"status":"succeeded"') || !text.includes('1852')) throw new Error(`research failed: ${text.slice(0, 300)}`);
    return text;
  };
  // The answer is JSON, or the last message of an SSE stream.
  const text = await call();
  const json = text.trimStart().startsWith('{') ? text : text.split('\n').filter((l) => l.startsWith('data:')).at(-1)!.slice(5);
  const first = JSON.parse(json) as { result: { structuredContent: { sources: { status: string }[]; citations: unknown[] } } };
  const read = first.result.structuredContent.sources.filter((s) => s.status === 'read').length;
  if (read !== TOPICS.length) throw new Error(`expected ${TOPICS.length} sources read, got ${read}`);
  for (let i = 0; i < 3; i++) await call(); // warm-up: JIT, the extraction thread, robots.txt in its cache
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  await gw.stop();
  site.close();
  return [
    '## Research (issue 22)',
    `- research over ${read} loopback sources found through a SearXNG-compatible search, no language model (MCP 2026-07-28 tools/call, sequential, ${times.length} runs after a warm-up): p50 ${pct(times, 50).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms (target ≤ 1000 ms); ${first.result.structuredContent.citations.length} citations`,
  ].join('\n');
}
