// The agent card: at both well-known paths, generated from the registry's toolsets, with security schemes;
// agent/getCard returns it; the extended card adds the caller's owner-only skills.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { rpc } from './rpc.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

describe('agent card', () => {
  it('is served at /.well-known/agent-card.json and (for older clients) /.well-known/agent.json', async () => {
    const a = await api(gw.url, 'GET', '/.well-known/agent-card.json');
    const b = await api(gw.url, 'GET', '/.well-known/agent.json');
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(a.body).toMatchObject({
      protocolVersion: '0.3.0',
      name: 'Agent Gateway',
      url: `${gw.url}/a2a`,
      preferredTransport: 'JSONRPC',
      version: '1.6.0',
      capabilities: { streaming: true, pushNotifications: false },
      // Offered to callers that send a credential only (protocol-edges.test.ts).
      supportsAuthenticatedExtendedCard: false,
      defaultInputModes: expect.arrayContaining(['text/plain', 'application/json']),
    });
    expect(new URL(a.body.url).pathname).toBe('/a2a');
    expect(a.body.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    });
    expect(a.body.supportedInterfaces).toContainEqual({ url: `${gw.url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
  });

  it('has one skill per toolset of the registry, the assistant first', async () => {
    const card = (await api(gw.url, 'GET', '/.well-known/agent-card.json')).body;
    const ids = card.skills.map((s: { id: string }) => s.id);
    expect(ids[0]).toBe('assistant');
    const registry = gw.gateway.registry;
    const expected = new Set(registry.list().filter((t) => (t.expose.mcp || t.expose.catalog) && !t.expose.mcpOnly && t.auth !== 'owner' && !['chat', 'operator'].includes(t.toolset)).map((t) => t.toolset));
    expect(new Set(ids)).toEqual(expected);
    const calc = card.skills.find((s: { id: string }) => s.id === 'calculators');
    expect(calc.tags).toEqual(expect.arrayContaining(['base_convert', 'business_days', 'checksum_validate']));
    expect(calc.security).toEqual([{ apiKey: [] }]);
    expect(JSON.parse(calc.examples[0])).toMatchObject({ tool: expect.any(String), arguments: expect.any(Object) });
    for (const s of card.skills) expect(s).toMatchObject({ id: expect.any(String), name: expect.any(String), description: expect.any(String), tags: expect.any(Array) });
    // Owner-only toolsets are not on the public card; no chat or operator tools anywhere.
    expect(ids).not.toContain('vault');
    expect(ids).not.toContain('operator');
    expect(ids).not.toContain('chat');
  });

  it('agent/getCard returns the public card; the extended card adds owner-only skills for the caller', async () => {
    const pub = (await rpc(gw.url, 'agent/getCard')).body.result;
    expect(pub).toEqual((await api(gw.url, 'GET', '/.well-known/agent-card.json')).body);
    const a = await register(gw.url, 'card-owner');
    const ext = (await rpc(gw.url, 'agent/getAuthenticatedExtendedCard', undefined, { authorization: `Bearer ${a.secret}` })).body.result;
    expect(ext.description).toContain('@card-owner');
    const extIds = ext.skills.map((s: { id: string }) => s.id);
    expect(extIds).toEqual(expect.arrayContaining([...pub.skills.map((s: { id: string }) => s.id), 'vault', 'notifications']));
    const memory = ext.skills.find((s: { id: string }) => s.id === 'memory');
    expect(memory.tags).toContain('memory_share');
    expect(pub.skills.find((s: { id: string }) => s.id === 'memory').tags).not.toContain('memory_share');
    expect(ext.skills.find((s: { id: string }) => s.id === 'vault').security).toEqual([{ bearer: [] }]);
  });
});
