// The 2026-07-28 era on /mcp beside the 2025 era: the official v2 client pinned to the modern revision connects
// without a handshake or session, lists and calls tools as an agent, reads resources and gets prompts; the v2
// client in legacy mode and the v1 client keep their sessions on the same endpoint at the same time; and the
// revision's HTTP rules hold for raw requests.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';

const MODERN = '2026-07-28';
let gw: TestGateway;
let secret: string;

beforeAll(async () => {
  gw = await startGateway();
  secret = (await api(gw.url, 'POST', '/agents/register', { body: { handle: 'modern-agent' } })).body.secret;
});
afterAll(async () => gw.cleanup());

async function modernClient(headers: Record<string, string> = {}): Promise<ClientV2> {
  const client = new ClientV2({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new TransportV2(new URL(`${gw.url}/mcp`), { requestInit: { headers } }));
  return client;
}

const text = (r: unknown) => JSON.parse(((r as { content: { text: string }[] }).content[0]).text);

describe('the 2026-07-28 era (v2 client pinned)', () => {
  it('connects, lists tools in a stable order and calls one as the agent of its secret', async () => {
    const client = await modernClient({ authorization: `Bearer ${secret}` });
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(client.getServerVersion()?.name).toBe('agent-gateway');
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor);
    // The default surface: memory_put, called below, is one tools_find away and callable all the same.
    expect(names).toContain('tools_find');
    expect(names).not.toContain('memory_put');
    // The MCP-only verbs are listed here (and only here: REST answers 404 for them, tested with each verb).
    for (const verb of ['gen_image', 'research', 'browse', 'memory', 'coach', 'vault_login', 'vault_logout']) {
      expect(names).toContain(verb);
    }
    expect(new Set(names).size).toBe(names.length);
    const put = await client.callTool({ name: 'memory_put', arguments: { namespace: 'modern', key: 'k', value: { era: MODERN } } });
    expect(put.isError).toBeFalsy();
    const got = await api(gw.url, 'GET', '/memory/modern/k', { secret });
    expect(got.body.value).toEqual({ era: MODERN });
    await client.close();
  });

  it('refuses an owner tool to an anonymous caller, as a tool error', async () => {
    const client = await modernClient();
    const r = await client.callTool({ name: 'memory_put', arguments: { namespace: 'modern', key: 'x', value: 1 } });
    expect(r.isError).toBe(true);
    expect(text(r).error.code).toBe('unauthorized');
    await client.close();
  });

  it('reads resources and gets prompts, and answers a missing resource with -32602', async () => {
    const client = await modernClient();
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const read = await client.readResource({ uri: resources[0].uri });
    expect(read.contents[0].uri).toBe(resources[0].uri);
    const { prompts } = await client.listPrompts();
    expect(prompts.length).toBeGreaterThan(0);
    await expect(client.readResource({ uri: 'memory://nobody/none/none' })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it('serves both eras at once: a pinned modern client, the v2 client in legacy mode and the v1 client', async () => {
    const modern = await modernClient();
    expect(modern.getNegotiatedProtocolVersion()).toBe(MODERN);
    const legacyV2 = new ClientV2({ name: 'legacy-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    const legacyTransport = new TransportV2(new URL(`${gw.url}/mcp`));
    await legacyV2.connect(legacyTransport);
    expect(legacyV2.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(legacyTransport.sessionId).toBeTruthy();
    const v1 = new ClientV1({ name: 'v1', version: '1.0.0' });
    const v1Transport = new TransportV1(new URL(`${gw.url}/mcp`));
    await v1.connect(v1Transport);
    expect(v1Transport.sessionId).toBeTruthy();
    const calls = await Promise.all(
      [modern, legacyV2, v1].map((c) => (c as ClientV2).callTool({ name: 'base_convert', arguments: { value: '255', from_base: 10, to_base: 2 } })),
    );
    for (const r of calls) expect(r).toHaveProperty('content');
    await Promise.all([modern.close(), legacyV2.close(), v1.close()]);
  });
});

describe('the revision’s HTTP rules (raw requests)', () => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const post = (body: unknown, headers: Record<string, string>) =>
    fetch(`${gw.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
  const rpc = (method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: meta } });
  const modernHeaders = (method: string, name?: string) => ({ 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) });

  it('answers server/discover with the supported versions and the server identity', async () => {
    const r = await post(rpc('server/discover'), modernHeaders('server/discover'));
    expect(r.status).toBe(200);
    const body = (await r.json()) as any;
    // Modern first (clients pick theirs from it), then the 2025 revisions the same URL serves through initialize.
    expect(body.result.supportedVersions).toEqual([MODERN, '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']);
    expect(JSON.stringify(body.result)).toContain('agent-gateway');
  });

  it('refuses a header that does not match the body (-32020, HTTP 400)', async () => {
    const r = await post(rpc('tools/list'), modernHeaders('tools/call'));
    expect(r.status).toBe(400);
    expect(((await r.json()) as any).error.code).toBe(-32020);
  });

  it.each([
    ['a missing Mcp-Method header', rpc('tools/list'), { 'mcp-protocol-version': MODERN }],
    ['a missing Mcp-Name header', rpc('tools/call', { name: 'gateway_info', arguments: {} }), modernHeaders('tools/call')],
    ['an Mcp-Name naming another tool', rpc('tools/call', { name: 'gateway_info', arguments: {} }), modernHeaders('tools/call', 'whoami')],
    ['a missing MCP-Protocol-Version header', rpc('tools/list'), { 'mcp-method': 'tools/list' }],
    ['an MCP-Protocol-Version header naming another revision', rpc('tools/list'), { ...modernHeaders('tools/list'), 'mcp-protocol-version': '2025-11-25' }],
  ])('refuses %s with HeaderMismatch (-32020, HTTP 400)', async (_what, body, headers) => {
    const r = await post(body, headers);
    expect(r.status).toBe(400);
    expect(((await r.json()) as any).error.code).toBe(-32020);
  });

  it('refuses a request whose envelope lacks clientCapabilities (-32602, HTTP 400)', async () => {
    const body = rpc('tools/list');
    body.params._meta = { 'io.modelcontextprotocol/protocolVersion': MODERN } as typeof meta;
    const r = await post(body, modernHeaders('tools/list'));
    expect(r.status).toBe(400);
    const json = (await r.json()) as any;
    expect(json.error.code).toBe(-32602);
    expect(json.error.message).toContain('clientCapabilities');
  });

  it('answers an unsupported revision with -32022 and the supported list', async () => {
    const body = rpc('tools/list');
    body.params._meta = { ...meta, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' };
    const r = await post(body, { ...modernHeaders('tools/list'), 'mcp-protocol-version': '2099-01-01' });
    const json = (await r.json()) as any;
    expect(json.error.code).toBe(-32022);
    expect(JSON.stringify(json.error.data)).toContain(MODERN);
  });

  it('answers an unknown method with HTTP 404 and -32601', async () => {
    const r = await post(rpc('no/such'), modernHeaders('no/such'));
    expect(r.status).toBe(404);
    expect(((await r.json()) as any).error.code).toBe(-32601);
  });

  it('puts serverInfo and resultType on results, and cache hints on lists', async () => {
    const r = await post(rpc('tools/list'), modernHeaders('tools/list'));
    const json = (await r.json()) as any;
    expect(json.result.resultType).toBe('complete');
    expect(JSON.stringify(json.result._meta ?? json.result)).toContain('agent-gateway');
    expect(json.result.ttlMs).toBe(300000);
    expect(json.result.cacheScope).toBe('public');
  });

  it('keeps a 2025 handshake on the same endpoint a 2025 session', async () => {
    const r = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } } }, {});
    expect(r.status).toBe(200);
    expect(r.headers.get('mcp-session-id')).toBeTruthy();
  });
});
