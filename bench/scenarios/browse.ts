// Issue 22 target: browse of a cached page p50 ≤ 5 ms: a 2026-07-28 tools/call of `browse` on a loopback page
// that the gateway holds and the site confirms unchanged (304 to If-None-Match), sequential, after a warm-up.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { checkToolCall, modernHeaders, modernToolCallBodies } from '../lib/mcp-session.js';
import { BENCH_OPERATOR_TOKEN, enterpriseKey, startGateway } from '../lib/processes.js';

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const para = (s: string) => `<p>${s.repeat(8)}</p>`;
const PAGE = `<!doctype html><html lang="en"><head><title>Bench article</title></head><body><nav><a href="/">Home</a></nav><article>
<h1>Bench article</h1><p class="byline">By Bench</p>${['One', 'Two', 'Three', 'Four', 'Five'].map((h) => `<h2>${h}</h2>${para(`Section ${h} text with a <a href="/l/${h}">link</a> and words. `)}`).join('')}
</article></body></html>`;

async function site(): Promise<{ url: string; close(): void }> {
  const s = http.createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    if (req.headers['if-none-match'] === '"b1"') return void res.writeHead(304, { etag: '"b1"' }).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag: '"b1"' }).end(PAGE);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, close: () => s.close() };
}

export async function browse(): Promise<string> {
  const page = await site();
  const gw = await startGateway({ GATEWAY_EGRESS_ALLOW: '127.0.0.1/32', GATEWAY_OPERATOR_TOKEN: BENCH_OPERATOR_TOKEN });
  // browse is paid beyond a free key's allowance: the call carries a key, as a user's would.
  const headers = { ...modernHeaders('browse'), 'x-api-key': await enterpriseKey(gw.url) };
  const body = modernToolCallBodies('browse', { url: `${page.url}/article` });
  await checkToolCall(`${gw.url}/mcp`, headers, body());
  const call = async () => void (await (await fetch(`${gw.url}/mcp`, { method: 'POST', headers, body: body() })).text());
  for (let i = 0; i < 100; i++) await call(); // warm-up: JIT, connection pools
  const times: number[] = [];
  for (let i = 0; i < 500; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  // The same sequential round trip for the lightest tool: what the MCP call costs before browse does anything.
  const b64Headers = modernHeaders('base64');
  const b64 = modernToolCallBodies('base64', { action: 'encode', text: 'hello' });
  const light = async () => void (await (await fetch(`${gw.url}/mcp`, { method: 'POST', headers: b64Headers, body: b64() })).text());
  for (let i = 0; i < 100; i++) await light();
  const base: number[] = [];
  for (let i = 0; i < 500; i++) {
    const t0 = performance.now();
    await light();
    base.push(performance.now() - t0);
  }
  await gw.stop();
  page.close();
  return [
    '## Browse (issue 22)',
    `- browse of a cached page (revalidated with a 304, MCP 2026-07-28 tools/call, sequential): p50 ${pct(times, 50).toFixed(2)} ms, p99 ${pct(times, 99).toFixed(2)} ms (target p50 ≤ 5 ms); the same call of the lightest tool (base64): p50 ${pct(base, 50).toFixed(2)} ms`,
  ].join('\n');
}
