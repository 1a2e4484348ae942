// Argument completion in both eras: the caller's own handle first, its own memory namespaces and keys (never
// another agent's), catalogue slugs, filtered by what was typed; the v1 client on a 2025 session and the v2
// client pinned to 2026-07-28 get the same answers.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let secret: string;
let otherSecret: string;

beforeAll(async () => {
  gw = await startGateway();
  secret = (await api(gw.url, 'POST', '/agents/register', { body: { handle: 'zeta-owner' } })).body.secret;
  otherSecret = (await api(gw.url, 'POST', '/agents/register', { body: { handle: 'zeta-other' } })).body.secret;
  for (const [ns, key] of [['projects', 'alpha'], ['projects', 'beta'], ['personal', 'diary']]) {
    await api(gw.url, 'PUT', `/memory/${ns}/${key}`, { secret, body: { value: key } });
  }
  await api(gw.url, 'PUT', '/memory/private-plans/secret-key', { secret: otherSecret, body: { value: 'not yours' } });
});
afterAll(async () => gw.cleanup());

type Completer = { complete(p: unknown): Promise<{ completion: { values: string[] } }>; close(): Promise<void> };

const clients: Record<string, (headers: Record<string, string>) => Promise<Completer>> = {
  '2025 session (v1 client)': async (headers) => {
    const c = new ClientV1({ name: 'c1', version: '1' });
    await c.connect(new TransportV1(new URL(`${gw.url}/mcp`), { requestInit: { headers } }));
    return c as unknown as Completer;
  },
  '2026-07-28 (v2 client pinned)': async (headers) => {
    const c = new ClientV2({ name: 'c2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await c.connect(new TransportV2(new URL(`${gw.url}/mcp`), { requestInit: { headers } }));
    return c as unknown as Completer;
  },
};

const MEMORY = { type: 'ref/resource', uri: 'memory://{handle}/{namespace}/{key}' };

for (const [era, open] of Object.entries(clients)) {
  describe(`completion/complete, ${era}`, () => {
    it('offers the caller’s own handle first, then others matching the prefix', async () => {
      const c = await open({ authorization: `Bearer ${secret}` });
      const r = await c.complete({ ref: { type: 'ref/prompt', name: 'resume_work' }, argument: { name: 'handle', value: 'zeta' } });
      expect(r.completion.values[0]).toBe('zeta-owner');
      expect(r.completion.values).toContain('zeta-other');
      await c.close();
    });

    it('offers its own namespaces and the keys of the namespace chosen, never another agent’s', async () => {
      const c = await open({ authorization: `Bearer ${secret}` });
      const ns = await c.complete({ ref: MEMORY, argument: { name: 'namespace', value: '' } });
      expect(ns.completion.values.sort()).toEqual(['personal', 'projects']);
      const keys = await c.complete({ ref: MEMORY, argument: { name: 'key', value: '' }, context: { arguments: { namespace: 'projects' } } });
      expect(keys.completion.values.sort()).toEqual(['alpha', 'beta']);
      const typed = await c.complete({ ref: MEMORY, argument: { name: 'key', value: 'B' }, context: { arguments: { namespace: 'projects' } } });
      expect(typed.completion.values).toEqual(['beta']);
      await c.close();
    });

    it('offers an anonymous caller no memory at all', async () => {
      const c = await open({});
      const ns = await c.complete({ ref: MEMORY, argument: { name: 'namespace', value: '' } });
      expect(ns.completion.values).toEqual([]);
      await c.close();
    });

    it('offers catalogue slugs', async () => {
      const c = await open({});
      const all = (await api(gw.url, 'GET', '/collections')).body;
      const first = JSON.stringify(all).match(/"slug":"([^"]+)"/)![1];
      const r = await c.complete({ ref: { type: 'ref/resource', uri: 'catalog://collections/{slug}' }, argument: { name: 'slug', value: first.slice(0, 2) } });
      expect(r.completion.values).toContain(first);
      await c.close();
    });
  });
}
