// An MCP-only tool (the spec's MCP-only verbs) answers over MCP and nowhere else: the registry answers it 404 to
// REST, A2A, the chat endpoint and a batch, and the A2A card does not list it. The tool is the test's own.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import type { Transport } from '../../src/registry/types.js';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';

const verb = defineTool({
  name: 'test_mcp_only_verb',
  toolset: 'test',
  description: 'Echoes its text (test fixture, MCP only).',
  input: z.object({ text: z.string() }),
  auth: 'public',
  expose: { mcpOnly: true },
  handler: (input) => ({ echoed: input.text }),
});

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ additions: { tools: [verb] } });
});
afterAll(async () => gw.cleanup());

describe('MCP-only tools', () => {
  it('answer over MCP', async () => {
    const client = new Client({ name: 'mcp-only', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`)));
    const r = await client.callTool({ name: 'test_mcp_only_verb', arguments: { text: 'hi' } });
    expect(r.structuredContent).toEqual({ echoed: 'hi' });
    await client.close();
  });

  it.each<Transport>(['rest', 'a2a', 'chat', 'batch'])('are unknown to the %s transport', async (transport) => {
    await expect(gw.gateway.registry.call('test_mcp_only_verb', { text: 'hi' }, { ip: '127.0.0.1', transport })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('are not at POST /tools/{name} nor on the A2A card', async () => {
    expect((await api(gw.url, 'POST', '/tools/test_mcp_only_verb', { body: { text: 'hi' } })).status).toBe(404);
    const card = await api(gw.url, 'GET', '/.well-known/agent-card.json');
    expect(card.status).toBe(200);
    // The card names the tools it offers (the test toolset's skill would carry this one).
    expect(JSON.stringify(card.body)).toContain('gateway_info');
    expect(JSON.stringify(card.body)).not.toContain('test_mcp_only_verb');
  });
});
