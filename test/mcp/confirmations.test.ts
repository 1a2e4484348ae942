// Confirmation before a destructive or costly call, in every way MCP can ask: the 2026-07-28 input_required
// round trip (raw HTTP and the v2 client's own driver), elicitation/create to 2025-era clients that declared
// it (v1 client), and no question at all for clients that can do neither (their explicit arguments decide).
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { MODERN, modernPost } from '../helpers/modern-mcp.js';

const ABOVE = 'io.github.agent-gateway/confirm-above-usd';
let gw: TestGateway;

beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

const register = async (handle: string): Promise<string> => (await api(gw.url, 'POST', '/agents/register', { body: { handle } })).body.secret;
const exists = async (handle: string): Promise<boolean> => (await api(gw.url, 'GET', `/agents/${handle}`)).status === 200;
const text = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text);

/** A raw 2026-07-28 tools/call, with or without the elicitation capability and input responses. */
async function modernCall(secret: string, name: string, args: Record<string, unknown>, opts: { elicit?: boolean; inputResponses?: unknown; meta?: Record<string, unknown>; headers?: Record<string, string> } = {}) {
  const res = await modernPost(gw.url, 'tools/call', { name, arguments: args, ...(opts.inputResponses ? { inputResponses: opts.inputResponses } : {}) }, {
    capabilities: opts.elicit ? { elicitation: { form: {} } } : {},
    meta: opts.meta,
    headers: { authorization: `Bearer ${secret}`, ...opts.headers },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: any }).result;
}

describe('the 2026-07-28 input_required round trip (raw HTTP)', () => {
  it('asks to type the handle before deleting an agent, and deletes only when it matches', async () => {
    const secret = await register('confirm-raw');
    const first = await modernCall(secret, 'agent_delete', { handle: 'confirm-raw' }, { elicit: true });
    expect(first.resultType).toBe('input_required');
    const ask = first.inputRequests.confirm;
    expect(ask.method).toBe('elicitation/create');
    expect(ask.params.message).toContain('@confirm-raw');
    expect(ask.params.requestedSchema.required).toEqual(['typed']);
    expect(await exists('confirm-raw')).toBe(true);

    const wrong = await modernCall(secret, 'agent_delete', { handle: 'confirm-raw' }, { elicit: true, inputResponses: { confirm: { action: 'accept', content: { typed: 'confirm-ra' } } } });
    expect(wrong.isError).toBe(true);
    expect(text(wrong).error.code).toBe('declined');
    expect(await exists('confirm-raw')).toBe(true);

    const declined = await modernCall(secret, 'agent_delete', { handle: 'confirm-raw' }, { elicit: true, inputResponses: { confirm: { action: 'decline' } } });
    expect(text(declined).error.code).toBe('declined');
    expect(await exists('confirm-raw')).toBe(true);

    const done = await modernCall(secret, 'agent_delete', { handle: 'confirm-raw' }, { elicit: true, inputResponses: { confirm: { action: 'accept', content: { typed: '@Confirm-Raw' } } } });
    expect(done.resultType).toBe('complete');
    expect(done.structuredContent).toMatchObject({ deleted: true, handle: 'confirm-raw' });
    expect(await exists('confirm-raw')).toBe(false);
  });

  it('asks a stranger nothing: authorization comes before the question', async () => {
    await register('confirm-victim');
    const stranger = await register('confirm-stranger');
    const r = await modernCall(stranger, 'agent_delete', { handle: 'confirm-victim' }, { elicit: true });
    expect(r.resultType).toBe('complete');
    expect(text(r).error.code).toBe('forbidden');
    expect(await exists('confirm-victim')).toBe(true);
  });

  it('keeps explicit arguments for a client that cannot elicit', async () => {
    const secret = await register('confirm-plain');
    const r = await modernCall(secret, 'agent_delete', { handle: 'confirm-plain' });
    expect(r.structuredContent).toMatchObject({ deleted: true });
    expect(await exists('confirm-plain')).toBe(false);
  });

  it('asks before a paid call above the threshold the caller set, and charges nothing when declined', async () => {
    const secret = await register('confirm-payer');
    const key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'confirm@example.com' } })).body.key;
    const call = (opts: Parameters<typeof modernCall>[3]) =>
      modernCall(secret, 'base_convert', { value: '9', from_base: 10, to_base: 2 }, { ...opts, headers: { 'x-api-key': key } });
    const asked = await call({ elicit: true, meta: { [ABOVE]: 0.0001 } });
    expect(asked.resultType).toBe('input_required');
    expect(asked.inputRequests.confirm.params.message).toContain('$0.001');
    const no = await call({ elicit: true, meta: { [ABOVE]: 0.0001 }, inputResponses: { confirm: { action: 'accept', content: { confirm: false } } } });
    expect(text(no).error.code).toBe('declined');
    expect((await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } })).body.used).toBe(0);
    const yes = await call({ elicit: true, meta: { [ABOVE]: 0.0001 }, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
    expect(yes.isError).toBeFalsy();
    const under = await call({ elicit: true, meta: { [ABOVE]: 0.01 } });
    expect(under.isError).toBeFalsy();
    expect((await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } })).body.used).toBe(2);
  });
});

describe('clients answering with their own elicitation handler', () => {
  it('v2 client pinned to 2026-07-28: its input_required driver answers, and memory is forgotten only on yes', async () => {
    const secret = await register('confirm-v2');
    expect((await api(gw.url, 'PUT', '/memory/notes/a', { secret, body: { value: 1 } })).status).toBe(200);
    let answer = false;
    const asked: string[] = [];
    const client = new ClientV2({ name: 'confirm-v2', version: '1' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: MODERN } } });
    client.setRequestHandler('elicitation/create', async (req) => {
      asked.push((req.params as { message: string }).message);
      return { action: 'accept', content: { confirm: answer } };
    });
    await client.connect(new TransportV2(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
    const no = await client.callTool({ name: 'memory_forget', arguments: { namespace: 'notes', dry_run: false } });
    expect(text(no).error.code).toBe('declined');
    expect((await api(gw.url, 'GET', '/memory/notes/a', { secret })).status).toBe(200);
    answer = true;
    const yes = await client.callTool({ name: 'memory_forget', arguments: { namespace: 'notes', dry_run: false } });
    expect(yes.structuredContent).toMatchObject({ dry_run: false, count: 1 });
    expect((await api(gw.url, 'GET', '/memory/notes/a', { secret })).status).toBe(404);
    expect(asked[0]).toContain('namespace "notes"');
    // A dry run asks nothing.
    await client.callTool({ name: 'memory_forget', arguments: { namespace: 'notes' } });
    expect(asked).toHaveLength(2);
    await client.close();
  });

  it('v1 client (2025 session) that declared elicitation gets elicitation/create on the call', async () => {
    const secret = await register('confirm-v1');
    const client = new ClientV1({ name: 'confirm-v1', version: '1' }, { capabilities: { elicitation: {} } });
    const schemas: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      schemas.push((req.params as { requestedSchema?: unknown }).requestedSchema);
      return { action: 'accept', content: { typed: 'confirm-v1' } };
    });
    await client.connect(new TransportV1(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
    const r = await client.callTool({ name: 'agent_delete', arguments: { handle: 'confirm-v1' } });
    expect(r.structuredContent).toMatchObject({ deleted: true });
    expect(schemas).toHaveLength(1);
    expect(await exists('confirm-v1')).toBe(false);
    await client.close();
  });

  it('v1 client without elicitation keeps the explicit arguments', async () => {
    const secret = await register('confirm-v1-plain');
    expect((await api(gw.url, 'PUT', '/memory/n/a', { secret, body: { value: 1 } })).status).toBe(200);
    const client = new ClientV1({ name: 'plain', version: '1' });
    await client.connect(new TransportV1(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
    const r = await client.callTool({ name: 'memory_forget', arguments: { namespace: 'n', dry_run: false } });
    expect(r.structuredContent).toMatchObject({ count: 1 });
    await client.close();
  });
});
