// Deep JSON on every transport (issue 42, docs/decisions/json-depth.md): a body nested past GATEWAY_MAX_JSON_DEPTH
// gets the transport's own client error (REST and chat 422/400, JSON-RPC -32602 with the request's id on MCP in
// both eras, legacy SSE, stdio and A2A), never a 500 and never a stack overflow; a value within the bound is stored
// and read back whole, and the memory size limit still holds for it.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { api, register, startGateway, storeEnv, tempDir, type TestGateway } from '../helpers/gateway.js';
import { MAIN } from '../helpers/paths.js';
import { modernPost } from '../helpers/modern-mcp.js';
import { rpc, rpcRaw, userText } from '../a2a/rpc.js';

const MAX = 40;
const OPERATOR = 'operator-token-for-depth-tests';
/** `{"a":{"a":…1…}}`, `levels` objects deep. */
const nested = (levels: number): unknown => JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);
const DEEP = nested(1500);
const DEEP_MSG = `nests deeper than ${MAX} levels`;

let gw: TestGateway;
let secret: string;
beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_MAX_JSON_DEPTH: String(MAX), GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_MEMORY_MAX_VALUE_BYTES: '4096' } });
  secret = (await register(gw.url, 'deep-json')).secret;
});
afterAll(async () => gw?.cleanup());

describe('REST', () => {
  it('PUT /memory answers 422 json_too_deep past the bound, and stores a value at the bound whole', async () => {
    const deep = await api(gw.url, 'PUT', '/memory/ns/deep', { body: { value: DEEP }, secret });
    expect(deep.status).toBe(422);
    expect(deep.body.detail).toEqual([expect.objectContaining({ loc: ['body'], type: 'json_too_deep' })]);
    expect(deep.body.detail[0].msg).toContain(DEEP_MSG);
    expect((await api(gw.url, 'GET', '/memory/ns/deep', { secret })).status).toBe(404);

    // The body is one level, so the value may nest MAX - 1 deep.
    const within = nested(MAX - 1);
    expect((await api(gw.url, 'PUT', '/memory/ns/within', { body: { value: within }, secret })).status).toBe(200);
    expect((await api(gw.url, 'GET', '/memory/ns/within', { secret })).body.value).toEqual(within);
    expect((await api(gw.url, 'PUT', '/memory/ns/one-more', { body: { value: nested(MAX) }, secret })).status).toBe(422);

    // The size limit still holds within the depth.
    const big = await api(gw.url, 'PUT', '/memory/ns/big', { body: { value: { a: { b: 'x'.repeat(5000) } } }, secret });
    expect(big.status).toBe(413);
  });

  it('an operator completing a handoff with a deep result gets 422, and the handoff stays open', async () => {
    const h = await api(gw.url, 'POST', '/handoff', { body: { task: 'Check the invoice' }, secret });
    const op = { 'x-operator-token': OPERATOR };
    const deep = await api(gw.url, 'POST', `/operator/handoffs/${h.body.handoff_id}/complete`, { body: { result: DEEP }, headers: op });
    expect(deep.status).toBe(422);
    expect(deep.body.detail[0].type).toBe('json_too_deep');
    expect((await api(gw.url, 'POST', `/operator/handoffs/${h.body.handoff_id}/complete`, { body: { result: { ok: true } }, headers: op })).status).toBe(200);
  });

  it('the chat endpoint answers 400 invalid_request_error', async () => {
    const r = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gateway-local', messages: [{ role: 'user', content: 'hi' }], metadata: DEEP }),
    });
    expect(r.status).toBe(400);
    const body = (await r.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain(DEEP_MSG);
  });

  it('tools that parse JSON text from their input apply the bound: a memory import line, a JWT payload', async () => {
    const line = JSON.stringify({ namespace: 'imp', key: 'k', value: DEEP });
    const imp = await api(gw.url, 'POST', '/memory/import', { body: { jsonl: line }, secret });
    expect(imp.status).toBe(422);
    expect(imp.body.detail[0]).toMatchObject({ loc: ['body', 'jsonl', 0], type: 'json_too_deep' });
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const jwt = await api(gw.url, 'POST', '/toolbelt/jwt_decode', { body: { token: `${b64({ alg: 'none' })}.${b64(nested(200))}.` } });
    expect(jwt.status).toBe(422);
    expect(JSON.stringify(jwt.body)).toContain(DEEP_MSG);
  });
});

describe('MCP', () => {
  it('2025 era over Streamable HTTP: HTTP 400, -32602 with the id; the SDK client gets the error and goes on', async () => {
    const client = new Client({ name: 'depth', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
    const err = await client.callTool({ name: 'memory_put', arguments: { namespace: 'mcp', key: 'k', value: DEEP } }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toContain(DEEP_MSG);
    const ok = await client.callTool({ name: 'memory_put', arguments: { namespace: 'mcp', key: 'k', value: nested(5) } });
    expect(ok.isError).toBeFalsy();
    await client.close();

    const raw = await fetch(`${gw.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'deep-1', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: DEEP, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ jsonrpc: '2.0', id: 'deep-1', error: { code: -32602 } });
  });

  it('2026-07-28: a deep _meta answers HTTP 400, -32602 with the id', async () => {
    const res = await modernPost(gw.url, 'tools/list', {}, { id: 'modern-deep', meta: { 'x.example/deep': DEEP } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { id: unknown; error: { code: number; message: string } };
    expect(body).toMatchObject({ id: 'modern-deep', error: { code: -32602 } });
    expect(body.error.message).toContain(DEEP_MSG);
    expect((await modernPost(gw.url, 'tools/list', {}, { meta: { 'x.example/shallow': nested(3) } })).status).toBe(200);
  });

  it('legacy HTTP+SSE: the SDK client gets -32602 for its call, and the stream goes on', async () => {
    const client = new Client({ name: 'depth-sse', version: '1' });
    const headers = { authorization: `Bearer ${secret}` };
    await client.connect(
      new SSEClientTransport(new URL(`${gw.url}/mcp/sse`), {
        requestInit: { headers },
        eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as object), ...headers } }) },
      }),
    );
    const err = await client.callTool({ name: 'memory_put', arguments: { namespace: 'sse', key: 'k', value: DEEP } }).catch((e: { code?: number; message: string }) => e);
    expect(err).toMatchObject({ code: -32602 });
    expect((err as Error).message).toContain(DEEP_MSG);
    expect((await client.callTool({ name: 'memory_put', arguments: { namespace: 'sse', key: 'k', value: 1 } })).isError).toBeFalsy();
    await client.close();
  });

  it('stdio: the SDK client gets -32602 for its call, and the process goes on', async () => {
    const dataDir = tempDir();
    try {
      const client = new Client({ name: 'depth-stdio', version: '1' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [MAIN, 'mcp'],
          env: { PATH: process.env.PATH ?? '', GATEWAY_DATA_DIR: dataDir, ...storeEnv(dataDir), LOG_LEVEL: 'warn', GATEWAY_MAX_JSON_DEPTH: String(MAX) },
          stderr: 'pipe',
        }),
      );
      const err = await client.callTool({ name: 'json_format', arguments: { json: '1', extra: DEEP } }).catch((e: { code?: number; message: string }) => e);
      expect(err).toMatchObject({ code: -32602 });
      expect((err as Error).message).toContain(DEEP_MSG);
      const ok = await client.callTool({ name: 'gateway_info', arguments: {} });
      expect(ok.isError).toBeFalsy();
      await client.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('A2A', () => {
  it('JSON-RPC: -32602 with the id; HTTP+JSON: 400 INVALID_ARGUMENT', async () => {
    const deep = await rpc(gw.url, 'message/send', userText('hello', { metadata: DEEP }), { authorization: `Bearer ${secret}` });
    expect(deep.status).toBe(200);
    expect(deep.body).toMatchObject({ jsonrpc: '2.0', id: expect.any(Number), error: { code: -32602 } });
    expect(deep.body.error.message).toContain(DEEP_MSG);
    const id = await rpcRaw(gw.url, `{"jsonrpc":"2.0","id":"a2a-deep","method":"tasks/get","params":${JSON.stringify({ id: 'x', metadata: DEEP })}}`);
    expect(id.body).toMatchObject({ id: 'a2a-deep', error: { code: -32602 } });

    const rest = await fetch(`${gw.url}/a2a/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/a2a+json', 'a2a-version': '1.0' },
      body: JSON.stringify({ message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }], metadata: DEEP } }),
    });
    expect(rest.status).toBe(400);
    expect(await rest.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
  });
});
