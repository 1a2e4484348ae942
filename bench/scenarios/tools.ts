// Issue 3 targets: POST /tools/base_convert with a valid key (quota counted) vs the minimal express app (≥ 0.7×,
// p99 < 15 ms at 50 connections), and /batch of 20 calculator calls (< 3 ms p50 server time).
import { performance } from 'node:perf_hooks';
import { baseline } from '../lib/baseline.js';
import { load, table } from '../lib/cannon.js';
import { startGateway } from '../lib/processes.js';

const json = { 'content-type': 'application/json' };
const convert = JSON.stringify({ value: '255', from_base: 10, to_base: 2 });
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

export async function tools(): Promise<string> {
  const bareRes = await baseline('bare.mjs', 'bare node:http POST', '/tools/base_convert', { method: 'POST', headers: json, body: convert });
  const expressRes = await baseline('express.mjs', 'minimal express POST (json body)', '/tools/base_convert', { method: 'POST', headers: json, body: convert });

  const gw = await startGateway({ GATEWAY_OPERATOR_TOKEN: 'bench-operator-token-0123456789' });
  // An enterprise key: quota is still counted per call (one conditional upsert), and never runs out mid-bench.
  const issued = await fetch(`${gw.url}/keys/issue`, {
    method: 'POST',
    headers: { ...json, 'x-operator-token': 'bench-operator-token-0123456789' },
    body: JSON.stringify({ email: 'bench@example.com', tier: 'enterprise' }),
  });
  const key = ((await issued.json()) as { key: string }).key;
  const headers = { ...json, 'x-api-key': key };
  const gwRes = await load('gateway POST /tools/base_convert (key, quota counted)', { url: `${gw.url}/tools/base_convert`, method: 'POST', headers, body: convert });

  const calls = Array.from({ length: 20 }, (_, i) => ({ tool: 'base_convert', input: { value: String(1000 + i), from_base: 10, to_base: 16 } }));
  const batchBody = JSON.stringify({ calls });
  const server: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t0 = performance.now();
    const r = await fetch(`${gw.url}/batch`, { method: 'POST', headers, body: batchBody });
    const body = (await r.json()) as { server_ms: number; succeeded: number };
    wall.push(performance.now() - t0);
    if (body.succeeded !== 20) throw new Error(`batch failed: ${JSON.stringify(body).slice(0, 200)}`);
    server.push(body.server_ms);
  }
  const batchRes = await load('gateway POST /batch (20 calls)', { url: `${gw.url}/batch`, method: 'POST', headers, body: batchBody, connections: 10 });
  await gw.stop();
  return [
    '## Tool surface (issue 3)',
    table([bareRes, expressRes, gwRes, batchRes], { express: expressRes.rps, bare: bareRes.rps }),
    '',
    `- POST /tools/base_convert with a key: ${(gwRes.rps / expressRes.rps).toFixed(2)}× minimal express (target ≥ 0.7), ${(gwRes.rps / bareRes.rps).toFixed(2)}× bare node:http, p99 ${gwRes.p99} ms at 50 connections (target < 15 ms)`,
    `- /batch of 20 base_convert calls, sequential requests: server time p50 ${pct(server, 50).toFixed(2)} ms, p99 ${pct(server, 99).toFixed(2)} ms (target p50 < 3 ms); round trip p50 ${pct(wall, 50).toFixed(2)} ms`,
  ].join('\n');
}
