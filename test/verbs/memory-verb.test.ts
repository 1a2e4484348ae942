// The `memory` verb over MCP: every action, with each official v2 client mode over Streamable HTTP and once over
// stdio; its errors are the memory tools' own, and it is unknown to REST. SDK v1 checks the error results' shape.
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryVerb } from '../../tools/verbs/memory.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { errorOf, httpClient, MODES, stdioClient, type Mode, type VerbClient } from './clients.js';

let gw: TestGateway;
let alice: { handle: string; secret: string };
let bob: { handle: string; secret: string };
beforeAll(async () => {
  gw = await startGateway();
  alice = await register(gw.url, 'alice');
  bob = await register(gw.url, 'bob');
});
afterAll(async () => gw.cleanup());

describe.each(Object.keys(MODES) as Mode[])('memory verb, %s', (mode) => {
  const ns = mode.includes('pinned') ? 'pinned' : 'legacy';
  let a: VerbClient;
  let b: VerbClient;
  let anon: VerbClient;
  beforeAll(async () => {
    [a, b, anon] = await Promise.all([httpClient(gw.url, mode, alice.secret), httpClient(gw.url, mode, bob.secret), httpClient(gw.url, mode)]);
  });
  afterAll(async () => Promise.all([a, b, anon].map((c) => c.close())));

  it('is listed with an outputSchema', async () => {
    const tool = (await a.listTools()).find((t) => t.name === 'memory');
    expect(tool?.outputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['action', 'result']) });
  });

  it('put, get, list, search, context, delete', async () => {
    const put = await a.call('memory', { action: 'put', namespace: ns, key: 'plan', value: { step: 'write the zebra tests' }, tags: ['todo'] });
    expect(put.isError).toBeFalsy();
    expect(memoryVerb.output!.parse(put.structuredContent)).toMatchObject({ action: 'put', result: { key: 'plan', version: 1, owner: 'alice' } });

    const got = await a.call('memory', { action: 'get', namespace: ns, key: 'plan' });
    expect(got.structuredContent).toMatchObject({ action: 'get', result: { value: { step: 'write the zebra tests' }, version: 1 } });

    const list = await a.call('memory', { action: 'list', namespace: ns });
    expect(list.structuredContent.result.keys.map((k: { key: string }) => k.key)).toEqual(['plan']);

    const search = await a.call('memory', { action: 'search', q: 'zebra', ns });
    expect(search.structuredContent.result.results[0]).toMatchObject({ namespace: ns, key: 'plan' });

    const context = await a.call('memory', { action: 'context', q: 'zebra' });
    expect((memoryVerb.output!.parse(context.structuredContent) as { action: string }).action).toBe('context');
    expect(context.structuredContent.result).toMatchObject({ handle: 'alice', open_items: expect.arrayContaining([expect.objectContaining({ key: 'plan' })]) });
    expect(context.structuredContent.result.relevant[0]).toMatchObject({ key: 'plan' });

    const del = await a.call('memory', { action: 'delete', namespace: ns, key: 'plan' });
    expect(del.structuredContent).toMatchObject({ action: 'delete', result: { deleted: true } });
    expect(errorOf(await a.call('memory', { action: 'get', namespace: ns, key: 'plan' })).status).toBe(404);
  });

  it('an unknown action is a 422 listing the actions', async () => {
    const e = errorOf(await a.call('memory', { action: 'remember', namespace: ns }));
    expect(e.status).toBe(422);
    expect(e.detail![0]).toMatchObject({ loc: ['action'] });
    expect(e.detail![0].msg).toContain('get, put, search, list, delete, context');
  });

  it('a missing field is a 422 naming it', async () => {
    const e = errorOf(await a.call('memory', { action: 'put', namespace: ns, value: 1 }));
    expect(e.status).toBe(422);
    expect(e.detail).toEqual([expect.objectContaining({ loc: ['key'], type: 'missing' })]);
  });

  it("another agent's private entry answers as the memory tools do", async () => {
    await a.call('memory', { action: 'put', namespace: ns, key: 'secret-plan', value: 'mine' });
    for (const [action, tool] of [['get', 'memory_get'], ['delete', 'memory_delete']] as const) {
      const viaVerb = errorOf(await b.call('memory', { action, namespace: ns, key: 'secret-plan', handle: 'alice' }));
      const direct = errorOf(await b.call(tool, { namespace: ns, key: 'secret-plan', handle: 'alice' }));
      expect(viaVerb).toEqual(direct);
      expect([403, 404]).toContain(viaVerb.status);
    }
  });

  it('anonymous callers get the 401 of the memory tools', async () => {
    for (const args of [{ action: 'get', namespace: ns, key: 'plan' }, { action: 'context' }]) {
      const e = errorOf(await anon.call('memory', args));
      expect(e).toMatchObject({ status: 401, error: { code: 'unauthorized' } });
    }
  });
});

describe('memory verb elsewhere', () => {
  it.each(Object.keys(MODES) as Mode[])('answers over stdio (the built entry), %s', async (mode) => {
    const c = await stdioClient(gw.dataDir, alice.secret, mode);
    const ns = `stdio-${mode.includes('pinned') ? 'pinned' : 'legacy'}`;
    try {
      const put = await c.call('memory', { action: 'put', namespace: ns, key: 'k', value: 42 });
      expect(put.structuredContent).toMatchObject({ action: 'put', result: { owner: 'alice' } });
      expect((await c.call('memory', { action: 'get', namespace: ns, key: 'k' })).structuredContent.result.value).toBe(42);
      expect(errorOf(await c.call('memory', { action: 'nope' })).status).toBe(422);
    } finally {
      await c.close();
    }
  });

  it('is not at POST /tools/memory nor /tools/coach', async () => {
    for (const name of ['memory', 'coach']) {
      expect((await api(gw.url, 'POST', `/tools/${name}`, { secret: alice.secret, body: { action: 'list', namespace: 'x' } })).status).toBe(404);
    }
  });
});

describe('memory verb with the SDK v1 client', () => {
  it('answers errors without structuredContent, which v1 would check against the outputSchema', async () => {
    const c = new ClientV1({ name: 'v1', version: '1' });
    await c.connect(new HttpV1(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${alice.secret}` } } }));
    try {
      await c.listTools();
      const bad = await c.callTool({ name: 'memory', arguments: { action: 'nope' } });
      expect(bad.isError).toBe(true);
      expect(bad.structuredContent).toBeUndefined();
      const ok = await c.callTool({ name: 'memory', arguments: { action: 'list', namespace: 'v1' } });
      expect(ok.structuredContent).toMatchObject({ action: 'list', result: { keys: [] } });
    } finally {
      await c.close();
    }
  });
});
