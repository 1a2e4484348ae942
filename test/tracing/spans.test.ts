// Tracing end to end (docs/decisions/tracing.md): a real gateway exporting to an OTLP/HTTP receiver on loopback,
// requests carrying a known W3C traceparent over REST, MCP (the header, and `_meta` in both eras and over stdio),
// A2A, the chat endpoint and the commercial listener; the spans must continue that trace with the right parents
// and names, reach the store and egress, and link scheduled work back to the request that queued it.
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClientFactory, type Client as A2aClient } from '@a2a-js/sdk/client';
import type { Task } from '@a2a-js/sdk';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { MAIN } from '../helpers/paths.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

/** OTLP span kinds. */
const INTERNAL = 1;
const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;
const DB_SYSTEM = process.env.TEST_PG_URL ? 'postgresql' : 'sqlite';

let rx: OtlpReceiver;
let gw: TestGateway;
let site: http.Server;
let siteUrl: string;
const siteHeaders: http.IncomingHttpHeaders[] = [];

/** A fresh incoming context: its trace id, the caller's span id and the traceparent header carrying them. */
const incoming = () => {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
};

const inTrace = (traceId: string) => rx.spans.filter((s) => s.traceId === traceId);
/** Waits until the trace has a span matching `name` (spans are exported in batches, every 50 ms here). */
const spanNamed = (traceId: string, name: string | RegExp): Promise<ReceivedSpan> =>
  eventually(async () => {
    const s = inTrace(traceId).find((x) => (typeof name === 'string' ? x.name === name : name.test(x.name)));
    if (!s) throw new Error(`no span ${name} in trace ${traceId}: ${inTrace(traceId).map((x) => x.name).join(', ')}`);
    return s;
  });
const childrenOf = (span: ReceivedSpan) => rx.spans.filter((s) => s.parentSpanId === span.spanId && s.traceId === span.traceId);

beforeAll(async () => {
  rx = await startOtlpReceiver();
  site = http.createServer((req, res) => {
    siteHeaders.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":"trace"}');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  gw = await startGateway({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: rx.endpoint,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=k%3D1',
      OTEL_BSP_SCHEDULE_DELAY: '50',
      GATEWAY_EGRESS_ALLOW: '127.0.0.1/32',
    },
  });
});
afterAll(async () => {
  await gw?.cleanup();
  await rx?.close();
  await new Promise((r) => site?.close(r));
});

describe('REST', () => {
  it('a request continues the incoming traceparent: server span, then registry.call, never the input', async () => {
    const agent = await register(gw.url, 'traced-rest');
    const t = incoming();
    const r = await api(gw.url, 'GET', '/agents/traced-rest', { headers: { traceparent: t.traceparent, tracestate: 'vendor=1' } });
    expect(r.status).toBe(200);
    const server = await spanNamed(t.traceId, 'GET /agents/{handle}');
    expect(server).toMatchObject({
      kind: SERVER,
      parentSpanId: t.spanId,
      attributes: { 'http.request.method': 'GET', 'http.route': '/agents/{handle}', 'http.response.status_code': 200, 'gateway.request_id': r.headers.get('x-request-id') },
    });
    const call = await spanNamed(t.traceId, 'registry.call agent_get');
    expect(call).toMatchObject({ kind: INTERNAL, parentSpanId: server.spanId, attributes: { 'gateway.tool.name': 'agent_get', 'gateway.transport': 'rest', 'gateway.outcome': 'ok' } });
    // The route template names the span; the path (which may hold a capability token) is nowhere.
    expect(JSON.stringify(inTrace(t.traceId))).not.toContain('traced-rest');
    // The resource and the exporter's headers come from the standard variables.
    expect(server.resource).toMatchObject({ 'service.name': 'agent-gateway', 'service.version': expect.any(String) });
    expect(rx.requests[0]).toMatchObject({ 'x-collector-key': 'k=1', 'content-type': 'application/json' });
    expect(JSON.stringify(rx.spans)).not.toContain(agent.secret);
  });

  it('a write reaches the store: a db.transaction span under registry.call, in the same trace', async () => {
    const t = incoming();
    const r = await api(gw.url, 'POST', '/agents/register', { body: { handle: 'traced-writer' }, headers: { traceparent: t.traceparent } });
    expect(r.status).toBe(201);
    const server = await spanNamed(t.traceId, 'POST /agents/register');
    expect(server.parentSpanId).toBe(t.spanId);
    const call = await spanNamed(t.traceId, 'registry.call agent_register');
    expect(call.parentSpanId).toBe(server.spanId);
    const tx = await spanNamed(t.traceId, 'db.transaction');
    expect(tx).toMatchObject({ kind: CLIENT, parentSpanId: call.spanId, attributes: { 'db.system.name': DB_SYSTEM, 'db.system': DB_SYSTEM, 'db.operation.name': 'transaction' } });
    // The new agent's secret, returned once, is in no span.
    expect(JSON.stringify(rx.spans)).not.toContain(r.body.secret);
  });

  it('an error is an outcome on the span: the error code, never the message', async () => {
    const t = incoming();
    expect((await api(gw.url, 'GET', '/agents/nobody-here', { headers: { traceparent: t.traceparent } })).status).toBe(404);
    const call = await spanNamed(t.traceId, 'registry.call agent_get');
    expect(call.attributes).toMatchObject({ 'gateway.outcome': 'error', 'error.type': 'not_found' });
    // A client error is not a failure of the gateway: the span's status stays unset.
    expect(call.status?.code ?? 0).toBe(0);
    const server = await spanNamed(t.traceId, 'GET /agents/{handle}');
    expect(server.attributes['http.response.status_code']).toBe(404);
  });

  it('a request without traceparent starts a trace of its own', async () => {
    const before = new Set(rx.spans.map((s) => s.spanId));
    const r = await api(gw.url, 'GET', '/healthz');
    const id = r.headers.get('x-request-id');
    const server = await eventually(async () => {
      const s = rx.spans.find((x) => !before.has(x.spanId) && x.attributes['gateway.request_id'] === id);
      if (!s) throw new Error('not yet');
      return s;
    });
    expect(server).toMatchObject({ name: 'GET /healthz', parentSpanId: undefined });
  });
});

describe('scheduled work and egress', () => {
  it('a job queued by a traced request runs as a work span linked to it; its fetch is an egress span, sent without trace context', async () => {
    const agent = await register(gw.url, 'traced-jobs');
    const t = incoming();
    const r = await api(gw.url, 'POST', '/jobs', { body: { type: 'fetch_bundle', urls: [`${siteUrl}/data.json?token=hidden`] }, secret: agent.secret, headers: { traceparent: t.traceparent } });
    expect(r.status).toBe(202);
    // The job and its work item are written in one round trip (a statement, or a batch on SQLite) inside the call.
    const create = await spanNamed(t.traceId, 'registry.call job_create');
    await gw.gateway.registry.services.scheduler.runDue();
    await eventually(async () => expect((await api(gw.url, 'GET', `/jobs/${r.body.job_id}`)).body.status).toBe('succeeded'));

    // The run is a trace of its own (it may run long after, or retry), linked to the span that queued it: the call.
    const work = await eventually(async () => {
      const w = rx.spans.find((s) => s.name === 'work job' && s.links.some((l) => l.traceId === t.traceId));
      if (!w) throw new Error('no work span yet');
      return w;
    });
    expect(work).toMatchObject({ kind: CONSUMER, parentSpanId: undefined, attributes: { 'gateway.work.kind': 'job', 'gateway.work.attempt': 1, 'gateway.outcome': 'ok' } });
    expect(work.traceId).not.toBe(t.traceId);
    expect(work.links).toEqual([{ traceId: t.traceId, spanId: create.spanId, attributes: { 'gateway.link': 'enqueued_by' } }]);

    const egress = await spanNamed(work.traceId, 'egress GET 127.0.0.1');
    expect(egress).toMatchObject({
      kind: CLIENT,
      parentSpanId: work.spanId,
      attributes: { 'http.request.method': 'GET', 'server.address': '127.0.0.1', 'server.port': Number(new URL(siteUrl).port), 'url.scheme': 'http', 'http.response.status_code': 200, 'gateway.outcome': 'ok' },
    });
    // No path, query or token in any span; and the third party got no trace context.
    expect(JSON.stringify(rx.spans)).not.toContain('hidden');
    expect(JSON.stringify(rx.spans)).not.toContain('data.json');
    expect(siteHeaders.length).toBeGreaterThan(0);
    for (const h of siteHeaders) {
      expect(h.traceparent).toBeUndefined();
      expect(h.tracestate).toBeUndefined();
    }
    // The job's own store writes are children of its run.
    expect(childrenOf(work).some((s) => s.name.startsWith('db.'))).toBe(true);
  });

  it('a failed fetch is an egress span with its error code', async () => {
    const r = await api(gw.url, 'POST', '/jobs', { body: { type: 'fetch_bundle', urls: ['http://127.0.0.1:1/closed'] } });
    expect(r.status).toBe(202);
    await gw.gateway.registry.services.scheduler.runDue();
    const failed = await eventually(async () => {
      const s = rx.spans.find((x) => x.name === 'egress GET 127.0.0.1' && x.attributes['server.port'] === 1);
      if (!s) throw new Error('not yet');
      return s;
    });
    expect(failed.attributes).toMatchObject({ 'gateway.outcome': 'error', 'error.type': 'connect' });
  });
});

const MODES = { '2026-07-28 (stateless)': { pin: '2026-07-28' }, '2025 session': 'legacy' } as const;

describe.each(Object.keys(MODES) as (keyof typeof MODES)[])('MCP Streamable HTTP, %s', (mode) => {
  const header = incoming();
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'tracing-test', version: '1' }, { versionNegotiation: { mode: MODES[mode] } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { traceparent: header.traceparent } } }));
  });
  afterAll(async () => client?.close());

  it('the traceparent header: tools/call under the HTTP span, registry.call under it', async () => {
    const before = new Set(inTrace(header.traceId).map((s) => s.spanId));
    const r = await client.callTool({ name: 'uuid', arguments: { count: 1 } });
    expect(r.isError).toBeFalsy();
    const mcp = await eventually(async () => {
      const s = inTrace(header.traceId).find((x) => x.name === 'tools/call uuid' && !before.has(x.spanId));
      if (!s) throw new Error('no tools/call span yet');
      return s;
    });
    expect(mcp).toMatchObject({ kind: SERVER, attributes: { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'uuid', 'gateway.trace_parent_from': 'transport' } });
    const transport = rx.spans.find((s) => s.spanId === mcp.parentSpanId)!;
    expect(transport).toMatchObject({ name: 'POST /mcp', kind: SERVER, parentSpanId: header.spanId });
    const call = await eventually(async () => childrenOf(mcp).find((s) => s.name === 'registry.call uuid') ?? Promise.reject(new Error('not yet')));
    expect(call.attributes).toMatchObject({ 'gateway.transport': 'mcp', 'gateway.outcome': 'ok' });
  });

  it('a traceparent in params._meta wins over the header; the HTTP span is linked', async () => {
    const meta = incoming();
    const r = await client.callTool({ name: 'uuid', arguments: { count: 1 }, _meta: { traceparent: meta.traceparent } });
    expect(r.isError).toBeFalsy();
    const mcp = await spanNamed(meta.traceId, 'tools/call uuid');
    expect(mcp).toMatchObject({ parentSpanId: meta.spanId, attributes: { 'gateway.trace_parent_from': '_meta' } });
    expect(mcp.links).toHaveLength(1);
    expect(mcp.links[0]).toMatchObject({ traceId: header.traceId, attributes: { 'gateway.link': 'transport' } });
    expect(rx.spans.find((s) => s.spanId === mcp.links[0].spanId)?.name).toBe('POST /mcp');
    const call = await spanNamed(meta.traceId, 'registry.call uuid');
    expect(call.parentSpanId).toBe(mcp.spanId);
  });
});

describe('MCP legacy SSE', () => {
  it('a POST /mcp/messages is a server span continuing its header; _meta parents the call', async () => {
    const { Client: ClientV1 } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
    const header = incoming();
    const client = new ClientV1({ name: 'sse-trace', version: '1' });
    await client.connect(new SSEClientTransport(new URL(`${gw.url}/mcp/sse`), { requestInit: { headers: { traceparent: header.traceparent } } }));
    try {
      const meta = incoming();
      const r = await client.callTool({ name: 'uuid', arguments: { count: 1 }, _meta: { traceparent: meta.traceparent } });
      expect(r.isError).toBeFalsy();
      const post = await spanNamed(header.traceId, 'POST /mcp/messages');
      expect(post).toMatchObject({ kind: SERVER, parentSpanId: header.spanId });
      const mcp = await spanNamed(meta.traceId, 'tools/call uuid');
      expect(mcp.parentSpanId).toBe(meta.spanId);
      expect((await spanNamed(meta.traceId, 'registry.call uuid')).parentSpanId).toBe(mcp.spanId);
    } finally {
      await client.close();
    }
  });
});

describe('A2A', () => {
  let client: A2aClient;
  beforeAll(async () => {
    client = await new ClientFactory().createFromUrl(gw.url);
  });

  it('message/send continues the traceparent header into the tool call', async () => {
    const t = incoming();
    const task = (await client.sendMessage(
      { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'data', data: { tool: 'uuid', arguments: { count: 1 } } }] } },
      { serviceParameters: { traceparent: t.traceparent } },
    )) as Task;
    expect(task.status.state).toBe('completed');
    const server = await spanNamed(t.traceId, 'POST /a2a');
    expect(server).toMatchObject({ kind: SERVER, parentSpanId: t.spanId });
    const call = await spanNamed(t.traceId, 'registry.call uuid');
    expect(call.attributes).toMatchObject({ 'gateway.transport': 'a2a', 'gateway.outcome': 'ok' });
    // Under the request's span (through the A2A task's own store writes, if any).
    const ancestors = new Set<string>();
    for (let s: ReceivedSpan | undefined = call; s?.parentSpanId; s = rx.spans.find((x) => x.spanId === s!.parentSpanId)) ancestors.add(s.parentSpanId);
    expect(ancestors.has(server.spanId)).toBe(true);
  });
});

describe('the other listeners and adapters', () => {
  it('the OpenAI-compatible chat endpoint and the commercial listener continue the header too', async () => {
    const chat = incoming();
    const r = await api(gw.url, 'POST', '/v1/chat/completions', { body: { model: 'gateway-local', messages: [{ role: 'user', content: 'convert 255 to base 2' }] }, headers: { traceparent: chat.traceparent } });
    expect(r.status).toBeLessThan(500);
    expect((await spanNamed(chat.traceId, 'POST /v1/chat/completions')).parentSpanId).toBe(chat.spanId);

    const commercial = incoming();
    expect((await api(gw.apiUrl, 'GET', '/healthz', { headers: { traceparent: commercial.traceparent } })).status).toBe(200);
    expect((await spanNamed(commercial.traceId, 'GET /healthz')).parentSpanId).toBe(commercial.spanId);
  });
});

describe('MCP over stdio', () => {
  it('with no headers, _meta is the only source: the child process exports a tools/call span under it', async () => {
    const dataDir = tempDir();
    const meta = incoming();
    const client = new Client({ name: 'stdio-trace', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, 'mcp'],
        env: { PATH: process.env.PATH ?? '', GATEWAY_DATA_DIR: dataDir, LOG_LEVEL: 'warn', OTEL_EXPORTER_OTLP_ENDPOINT: rx.endpoint, OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_SERVICE_NAME: 'gateway-stdio' },
        stderr: 'pipe',
      }),
    );
    try {
      const r = await client.callTool({ name: 'uuid', arguments: { count: 1 }, _meta: { traceparent: meta.traceparent } });
      expect(r.isError).toBeFalsy();
      const mcp = await spanNamed(meta.traceId, 'tools/call uuid');
      expect(mcp).toMatchObject({ kind: SERVER, parentSpanId: meta.spanId, links: [], attributes: { 'gateway.trace_parent_from': '_meta' }, resource: { 'service.name': 'gateway-stdio' } });
      const call = await spanNamed(meta.traceId, 'registry.call uuid');
      expect(call).toMatchObject({ parentSpanId: mcp.spanId, attributes: { 'gateway.transport': 'mcp' } });
    } finally {
      await client.close();
    }
  });
});
