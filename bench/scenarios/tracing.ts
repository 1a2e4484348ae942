// Tracing's cost (docs/decisions/tracing.md): REST GET /agents/{handle} with tracing off, and on exporting every
// span (OTLP/HTTP JSON) to a loopback sink in this process, with and without an incoming traceparent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { load, table } from '../lib/cannon.js';
import { startGateway } from '../lib/processes.js';

/** Accepts OTLP trace exports and counts them; decodes nothing, so it costs the load generator little. */
async function startSink(): Promise<{ url: string; posts: () => number; close(): Promise<void> }> {
  let posts = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      posts++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, posts: () => posts, close: () => new Promise((r) => server.close(() => r())) };
}

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';

async function measure(name: string, env: Record<string, string>, headers?: Record<string, string>) {
  const gw = await startGateway(env);
  try {
    await fetch(`${gw.url}/agents/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ handle: 'bench-agent' }) });
    return await load(name, { url: `${gw.url}/agents/bench-agent`, headers });
  } finally {
    await gw.stop();
  }
}

export async function tracing(): Promise<string> {
  const sink = await startSink();
  try {
    const off = await measure('tracing off', {});
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url };
    const onNew = await measure('tracing on, a new trace per request', on);
    const onContinued = await measure('tracing on, continuing a traceparent', on, { traceparent: TRACEPARENT });
    return [
      '## Tracing (issue 25): REST GET /agents/{handle}',
      table([off, onNew, onContinued], { off: off.rps }),
      '',
      `- tracing on costs ${((1 - onNew.rps / off.rps) * 100).toFixed(1)}% (new traces) and ${((1 - onContinued.rps / off.rps) * 100).toFixed(1)}% (continued) of the requests/s; ${sink.posts()} OTLP exports received`,
    ].join('\n');
  } finally {
    await sink.close();
  }
}
