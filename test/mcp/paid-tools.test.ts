// Paid tools over MCP: without key or payment, an isError result in the x402 MCP transport shape; with a key
// in the HTTP headers, the tool runs and counts quota.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

async function connect(headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'paid', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers } }));
  return client;
}

describe('paid tools over MCP', () => {
  it('answers with PaymentRequired per the x402 MCP transport convention', async () => {
    const client = await connect();
    const r = (await client.callTool({ name: 'base_convert', arguments: { value: '9', from_base: 10, to_base: 2 } })) as any;
    expect(r.isError).toBe(true);
    const pr = r.structuredContent;
    expect(pr.x402Version).toBe(2);
    expect(pr.resource.url).toBe('mcp://tool/base_convert');
    expect(pr.accepts[0]).toMatchObject({ scheme: 'exact', amount: '1000', network: 'eip155:84532' });
    expect(r._meta['x402/payment-required']).toEqual(pr);
    const wrapped = JSON.parse(r.content[0].text)['x402/error'];
    expect(wrapped.code).toBe(402);
    expect(wrapped.data).toEqual(pr);
    await client.close();
  });

  it('runs with X-API-Key on the MCP HTTP request and counts the call', async () => {
    const key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'mcp@example.com' } })).body.key;
    const client = await connect({ 'x-api-key': key });
    const r = (await client.callTool({ name: 'base_convert', arguments: { value: '9', from_base: 10, to_base: 2 } })) as any;
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.value).toBe('1001');
    expect((await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } })).body.used).toBe(1);
    await client.close();
  });
});
