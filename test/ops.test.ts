import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../rest/index.js';
import { api, register, startGateway, type TestGateway } from './helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

describe('operations', () => {
  it('healthz and readyz', async () => {
    expect((await api(gw.url, 'GET', '/healthz')).body.status).toBe('ok');
    expect((await api(gw.url, 'GET', '/readyz')).body.status).toBe('ready');
  });

  it('exposes per-tool call counts, errors and latency in Prometheus format', async () => {
    await register(gw.url, 'metric-agent');
    await api(gw.url, 'POST', '/agents/register', { body: { handle: 'metric-agent' } });
    const r = await fetch(`${gw.url}/metrics`);
    const text = await r.text();
    expect(r.headers.get('content-type')).toContain('text/plain');
    expect(text).toMatch(/gateway_tool_calls_total\{tool="agent_register",transport="rest",outcome="ok"\} 1/);
    expect(text).toMatch(/gateway_tool_errors_total\{tool="agent_register",code="handle_taken"\} 1/);
    expect(text).toMatch(/gateway_tool_duration_seconds_bucket\{le="[^"]+",tool="agent_register"\}/);
    expect(text).toMatch(/gateway_tool_calls_total\{tool="agent_register",transport="rest",outcome="error"\} 1/);
    // The histogram is cumulative: every call is in the +Inf bucket and the count, and no bucket holds more.
    expect(text).toMatch(/gateway_tool_duration_seconds_bucket\{le="\+Inf",tool="agent_register"\} 2\n/);
    expect(text).toMatch(/gateway_tool_duration_seconds_count\{tool="agent_register"\} 2\n/);
    const buckets = [...text.matchAll(/gateway_tool_duration_seconds_bucket\{le="([^"]+)",tool="agent_register"\} (\d+)/g)].map((m) => Number(m[2]));
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    // Counts only grow between reads.
    await api(gw.url, 'GET', '/agents/metric-agent');
    await api(gw.url, 'GET', '/agents/metric-agent');
    const again = await (await fetch(`${gw.url}/metrics`)).text();
    expect(again).toMatch(/gateway_tool_calls_total\{tool="agent_register",transport="rest",outcome="ok"\} 1\n/);
    expect(again).toMatch(/gateway_tool_calls_total\{tool="agent_get",transport="rest",outcome="ok"\} 2\n/);
    expect(again).toMatch(/gateway_tool_duration_seconds_count\{tool="agent_get"\} 2\n/);
  });
});

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1.0, version 1.6.0, and lists every REST route with its schemas', async () => {
    const doc = (await api(gw.url, 'GET', '/openapi.json')).body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.6.0');
    expect(doc.servers[0].url).toBe(gw.url);
    for (const r of routes.filter((x) => !x.hidden && typeof x.tool === 'string')) {
      const op = doc.paths[r.path]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      expect(op.responses['422']).toBeDefined();
    }
    // Every reference resolves within the document (a tool's $defs, such as a JSON value's, are components).
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]);
    expect(refs.filter((r) => r.startsWith('#/components/schemas/') && r.includes('memory_put'))).not.toEqual([]);
    for (const ref of new Set(refs)) {
      const target = ref.slice(2).split('/').reduce((at: any, part) => at?.[part], doc);
      expect(target, ref).toBeDefined();
    }
    const reg = doc.paths['/agents/register'].post;
    expect(reg.requestBody.content['application/json'].schema.properties.handle.type).toBe('string');
    expect(reg.requestBody.content['application/json'].schema.required).toContain('handle');
    expect(reg.requestBody.content['*/*']).toBeUndefined();
    // Unknown body fields answer 422, and the schema says so.
    expect(reg.requestBody.content['application/json'].schema.additionalProperties).toBe(false);
    // POST /artifacts also takes the raw bytes as its body.
    expect(doc.paths['/artifacts'].post.requestBody.content['*/*'].schema).toEqual({ type: 'string', format: 'binary' });
    const del = doc.paths['/agents/{handle}'].delete;
    expect(del.security).toEqual([{ bearerAuth: [] }]);
    expect(del.parameters[0]).toMatchObject({ name: 'handle', in: 'path', required: true });
    const list = doc.paths['/agents'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(['limit', 'offset']);
    expect(doc.paths['/mcp'].post).toBeDefined();
    expect(doc.paths['/a2a'].post).toBeDefined();
    expect(doc.paths['/a2a/message:send'].post).toBeDefined();
    expect(doc.paths['/a2a/tasks/{id}'].get.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true });
    expect(doc.paths['/v1/chat/completions'].post).toBeDefined();
    // Routes that name their tool in the path are documented once per tool.
    const bc = doc.paths['/tools/base_convert'].post;
    expect(bc.requestBody.content['application/json'].schema.properties.from_base).toBeDefined();
    expect(bc['x-price']).toEqual({ usd: '0.001' });
    expect(bc.responses['402']).toBeDefined();
    expect(doc.paths['/toolbelt/uuid'].get).toBeDefined();
    expect(doc.paths['/tools/agent_register']).toBeUndefined();
  });
});
