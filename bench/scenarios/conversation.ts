// Issue 9 targets: A2A message/send for a calculator question against the minimal express app (ratio to bare
// node:http too); gateway-local chat completion p99; proxy overhead over a direct call to a loopback
// OpenAI-compatible upstream (p50); time to the first streamed byte through the gateway vs the upstream's.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { baseline } from '../lib/baseline.js';
import { load, table, type LoadResult } from '../lib/cannon.js';
import { ROOT, startGateway } from '../lib/processes.js';

const OPERATOR = 'bench-operator-token-0123456789';
const SAMPLES = 2000;

/** The test suite's OpenAI-compatible server, in its own process so it does not share the load generator's core. */
async function startUpstream(): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const code =
    "import { startOpenAiServer } from './test/helpers/openai-server.ts';" +
    "const s = await startOpenAiServer(); process.stdout.write('READY ' + s.url + '\\n');";
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString();
      const m = /READY (\S+)/.exec(buf);
      if (m) resolve(m[1]);
    });
    child.once('exit', (c) => reject(new Error(`upstream exited (${c})`)));
  });
  return { url, child, stop: () => new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', () => r()), child.kill('SIGTERM')))) };
}

const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (n: number) => `${n.toFixed(3)} ms`;

const chatBody = (model: string, content: string, stream = false) => JSON.stringify({ model, messages: [{ role: 'user', content }], ...(stream ? { stream: true } : {}) });

/**
 * Sequential requests alternating between targets (so drift hits both alike): full response time and time to
 * the first body byte, per target.
 */
async function sample(targets: { name: string; url: string; body: string }[], n: number) {
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 1 });
  const out = targets.map((t) => ({ name: t.name, total: [] as number[], first: [] as number[] }));
  for (let i = 0; i < n + 50; i++) {
    for (let k = 0; k < targets.length; k++) {
      const t = targets[k];
      const t0 = performance.now();
      const res = await request(t.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: t.body, dispatcher });
      let first = 0;
      for await (const chunk of res.body) if (!first && chunk.length) first = performance.now() - t0;
      const total = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${t.name}: ${res.statusCode}`);
      // The first 50 rounds warm up connections and JIT.
      if (i >= 50) {
        out[k].total.push(total);
        out[k].first.push(first);
      }
    }
  }
  await dispatcher.close();
  return out;
}

export async function conversation(): Promise<string> {
  const out: string[] = ['## Conversational surfaces (issue 9)'];

  const bareRes = await baseline('bare.mjs', 'bare node:http GET', '/agents/bench-agent');
  const expressRes = await baseline('express.mjs', 'minimal express GET', '/agents/bench-agent');

  const upstream = await startUpstream();
  const gw = await startGateway({ GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_CHAT_RATE_PER_MINUTE: '1000000000', LLM_BASE_URL: upstream.url, LLM_MODEL: 'test-model' });
  const issued = await fetch(`${gw.url}/keys/issue`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-operator-token': OPERATOR },
    body: JSON.stringify({ email: 'bench@example.com', tier: 'enterprise' }),
  });
  const key = ((await issued.json()) as { key: string }).key;

  // A2A message/send: a calculator question, paid with an (unlimited) enterprise key; one persisted task each.
  let id = 0;
  const a2aBody = () =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: ++id,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'convert 255 to base 2' }] } },
    });
  const check = (await (await fetch(`${gw.url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: a2aBody() })).json()) as any;
  if (check.result?.status?.state !== 'completed') throw new Error(`a2a check failed: ${JSON.stringify(check).slice(0, 300)}`);
  const a2a = await load('gateway A2A message/send (calculator)', { url: `${gw.url}/a2a`, method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, makeBody: a2aBody });

  // gateway-local chat: a question about the gateway, and a calculator question (paid with the key).
  const chatHeaders = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const chatQ = await load('chat gateway-local: question (10 conns)', { url: `${gw.url}/v1/chat/completions`, method: 'POST', headers: chatHeaders, body: chatBody('gateway-local', 'how do I store a secret?'), connections: 10 });
  const chatCalc = await load('chat gateway-local: calculator (10 conns)', { url: `${gw.url}/v1/chat/completions`, method: 'POST', headers: chatHeaders, body: chatBody('gateway-local', 'convert 255 to base 2'), connections: 10 });
  const chat50 = await load('chat gateway-local: question (50 conns)', { url: `${gw.url}/v1/chat/completions`, method: 'POST', headers: chatHeaders, body: chatBody('gateway-local', 'how do I store a secret?') });

  // Proxy overhead and time to first byte: one connection each, requests alternating direct / through the gateway.
  const direct = `${upstream.url}/chat/completions`;
  const viaGw = `${gw.url}/v1/chat/completions`;
  const [dJson, gJson] = await sample(
    [
      { name: 'direct', url: direct, body: chatBody('test-model', '## a') },
      { name: 'gateway', url: viaGw, body: chatBody('test-model', '## a') },
    ],
    SAMPLES,
  );
  const [dStream, gStream] = await sample(
    [
      { name: 'direct', url: direct, body: chatBody('test-model', '## a', true) },
      { name: 'gateway', url: viaGw, body: chatBody('test-model', '## a', true) },
    ],
    SAMPLES,
  );
  await gw.stop();
  await upstream.stop();

  const rows: LoadResult[] = [bareRes, expressRes, a2a, chatQ, chatCalc, chat50];
  out.push(table(rows, { bare: bareRes.rps, express: expressRes.rps }));
  out.push('');
  out.push('| sequential, 1 connection | direct p50 | gateway p50 | overhead p50 | direct p99 | gateway p99 |');
  out.push('|---|---:|---:|---:|---:|---:|');
  const line = (what: string, d: number[], g: number[]) =>
    `| ${what} | ${ms(pct(d, 50))} | ${ms(pct(g, 50))} | ${ms(pct(g, 50) - pct(d, 50))} | ${ms(pct(d, 99))} | ${ms(pct(g, 99))} |`;
  out.push(line('proxied completion (full response)', dJson.total, gJson.total));
  out.push(line('relayed stream: first byte', dStream.first, gStream.first));
  out.push(line('relayed stream: whole stream', dStream.total, gStream.total));
  out.push('');
  out.push(`- A2A message/send (calculator): ${(a2a.rps / expressRes.rps).toFixed(2)}× minimal express (target ≥ 0.5), ${(a2a.rps / bareRes.rps).toFixed(2)}× bare node:http`);
  out.push(`- chat gateway-local p99: ${chatQ.p99} ms question / ${chatCalc.p99} ms calculator at 10 connections, ${chat50.p99} ms at 50 (target ≤ 10 ms)`);
  out.push(`- proxy overhead p50: ${ms(pct(gJson.total, 50) - pct(dJson.total, 50))} (target ≤ 2 ms)`);
  out.push(`- relayed stream first byte: ${ms(pct(gStream.first, 50) - pct(dStream.first, 50))} above the upstream's at p50 (target ≤ 1 ms)`);
  return out.join('\n');
}
