// A plain 2026-07-28 tools/call is answered without the SDK's per-request server (src/mcp/modern-direct.ts). The
// answer must be the one the SDK gives: each request here is sent twice, once plain and once with its Mcp-Name
// header Base64-encoded (the same request to the SDK, which decodes it; the direct path leaves encoded names to
// the SDK), and the two answers must match in status, content type and JSON-RPC message. Which requests are
// plain is checked on its own, and a second agent's secret reaches nothing of the first's on the direct path.
import type { IncomingMessage } from 'node:http';
import { classifyInboundRequest } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainToolCall } from '../../src/mcp/modern-direct.js';
import { expectErrorsAsTheSdk, textOf, type Answer } from '../helpers/direct-answers.js';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { MODERN, modernEnvelope, modernPost, type ModernOptions } from '../helpers/modern-mcp.js';

let gw: TestGateway;
let alice: string;
let bob: string;

beforeAll(async () => {
  gw = await startGateway();
  alice = (await api(gw.url, 'POST', '/agents/register', { body: { handle: 'direct-alice' } })).body.secret;
  bob = (await api(gw.url, 'POST', '/agents/register', { body: { handle: 'direct-bob' } })).body.secret;
  await api(gw.url, 'PUT', '/memory/notes/plan', { secret: alice, body: { value: { step: 1, text: 'private plan' } } });
});
afterAll(async () => gw.cleanup());

const encoded = (name: string) => `=?base64?${Buffer.from(name).toString('base64')}?=`;

async function answer(r: Response): Promise<Answer> {
  return { status: r.status, type: r.headers.get('content-type'), message: (await r.json()) as Record<string, unknown> };
}

/** The direct answer and the SDK's to the same tools/call (same JSON-RPC id). */
async function both(name: string, args: unknown, opts: ModernOptions = {}): Promise<[Answer, Answer]> {
  const direct = await answer(await modernPost(gw.url, 'tools/call', { name, arguments: args }, { ...opts, id: 7 }));
  const sdk = await answer(await modernPost(gw.url, 'tools/call', { name, arguments: args }, { ...opts, id: 7, name: encoded(name) }));
  return [direct, sdk];
}

describe('a plain 2026-07-28 tools/call, answered directly', () => {
  it('answers a calculator call as the SDK does: resultType, the server identity, structured content', async () => {
    const [direct, sdk] = await both('base64', { action: 'encode', text: 'hello' });
    expect(direct).toEqual(sdk);
    expect(direct.status).toBe(200);
    expect(direct.type).toBe('application/json');
    expect(direct.message).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      result: { resultType: 'complete', structuredContent: { result: 'aGVsbG8=' }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'agent-gateway' } } },
    });
  });

  it('reads an owner tool as the agent of the Bearer secret, the same as the SDK', async () => {
    const [direct, sdk] = await both('memory_get', { namespace: 'notes', key: 'plan' }, { headers: { authorization: `Bearer ${alice}` } });
    expect(direct).toEqual(sdk);
    expect(textOf(direct).value).toEqual({ step: 1, text: 'private plan' });
  });

  it('writes through the registry: a put made directly is read back over REST', async () => {
    const r = await answer(await modernPost(gw.url, 'tools/call', { name: 'memory_put', arguments: { namespace: 'notes', key: 'direct', value: 'written' } }, { headers: { authorization: `Bearer ${alice}` } }));
    expect(r.status).toBe(200);
    expect((r.message.result as { isError?: boolean }).isError).toBeFalsy();
    expect((await api(gw.url, 'GET', '/memory/notes/direct', { secret: alice })).body.value).toBe('written');
  });

  it("gives a second agent nothing of the first's: its own empty namespace, as the SDK does", async () => {
    const [direct, sdk] = await both('memory_get', { namespace: 'notes', key: 'plan' }, { headers: { authorization: `Bearer ${bob}` } });
    expect(direct).toEqual(sdk);
    expect((direct.message.result as { isError?: boolean }).isError).toBe(true);
    expect(JSON.stringify(direct.message)).not.toContain('private plan');
    expect(textOf(direct).error.code).toBe('not_found');
  });

  it('answers an anonymous owner call, invalid arguments and an unknown tool as the SDK does', async () => {
    await expectErrorsAsTheSdk(both);
  });

  it('keeps to the toolsets the URL names, as the SDK does', async () => {
    const [hidden, hiddenSdk] = await both('base64', { action: 'encode', text: 'x' }, { query: 'toolsets=memory' });
    expect(hidden).toEqual(hiddenSdk);
    expect(hidden.message.error).toMatchObject({ code: -32602, message: 'Tool base64 not found' });
    const [shown, shownSdk] = await both('memory_get', { namespace: 'notes', key: 'plan' }, { query: 'toolsets=memory,nonsense', headers: { authorization: `Bearer ${alice}` } });
    expect(shown).toEqual(shownSdk);
    expect(textOf(shown).value).toEqual({ step: 1, text: 'private plan' });
  });
});

describe('which requests are plain', () => {
  const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
  const standard = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'base64' };
  const body = (params: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'base64', arguments: { action: 'encode', text: 'a' }, ...params, _meta: { ...modernEnvelope(), ...meta } },
  });
  const plain = (b: ReturnType<typeof body>, headers: Record<string, string> = standard) =>
    plainToolCall(
      req(headers),
      classifyInboundRequest({ httpMethod: 'POST', body: b, protocolVersionHeader: headers['mcp-protocol-version'], mcpMethodHeader: headers['mcp-method'], mcpNameHeader: headers['mcp-name'] }),
    );

  it('takes a tools/call with name, arguments and the envelope, and its standard headers', () => {
    expect(plain(body({}))).toMatchObject({ id: 1, name: 'base64', args: { action: 'encode', text: 'a' } });
    expect(plain(body({ arguments: undefined }))).toMatchObject({ name: 'base64', args: undefined });
  });

  it('leaves to the SDK what needs its rules: progress, elicitation, tasks, input rounds, odd headers or arguments', () => {
    expect(plain(body({}, { progressToken: 'p1' }))).toBeUndefined();
    expect(plain(body({}, { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } }))).toBeUndefined();
    expect(plain(body({}, { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } }))).toBeUndefined();
    expect(plain(body({ inputResponses: {} }))).toBeUndefined();
    expect(plain(body({ arguments: [1] }))).toBeUndefined();
    expect(plain(body({}), { ...standard, 'mcp-name': encoded('base64') })).toBeUndefined();
    const { 'mcp-name': _name, ...noName } = standard;
    expect(plain(body({}), noName)).toBeUndefined();
    const { 'mcp-method': _method, ...noMethod } = standard;
    expect(plain(body({}), noMethod)).toBeUndefined();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: modernEnvelope() } };
    expect(plain(list as never, { ...standard, 'mcp-method': 'tools/list' })).toBeUndefined();
  });
});
