// A body field the operation does not take answers 422 (FastAPI-style detail, loc ["body", field]) on every kind
// of route: body only, body merged with path and query, nested objects, batch items. Free-form values (memory
// values, tool inputs inside a batch) still take any keys, and unknown query parameters are ignored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let me: { handle: string; secret: string };
beforeAll(async () => {
  gw = await startGateway();
  me = await register(gw.url, 'strict-fields');
});
afterAll(async () => gw.cleanup());

const EXTRA = (loc: (string | number)[]) => ({ loc, msg: 'Extra inputs are not permitted', type: 'extra_forbidden' });

describe('unknown body fields', () => {
  it('are refused on a route merging path, query and body, and nothing is written', async () => {
    const r = await api(gw.url, 'PUT', '/memory/notes/plan', { body: { value: 'v1', visibilty: 'public' }, secret: me.secret });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([EXTRA(['body', 'visibilty'])]);
    expect((await api(gw.url, 'GET', '/memory/notes/plan', { secret: me.secret })).status).toBe(404);
  });

  it('are reported together with the other validation errors', async () => {
    const r = await api(gw.url, 'POST', '/agents/register', { body: { handle: 'x', auto_sufix: true } });
    expect(r.status).toBe(422);
    expect(r.body.detail.map((d: { loc: string[]; type: string }) => [d.loc.join('.'), d.type])).toEqual(
      expect.arrayContaining([
        ['body.auto_sufix', 'extra_forbidden'],
        ['body.handle', expect.any(String)],
      ]),
    );
  });

  it('are refused inside nested objects of the body', async () => {
    const r = await api(gw.url, 'POST', '/memory/bulk/put', { body: { items: [{ namespace: 'n', key: 'k', value: 1, ttl: 60 }] }, secret: me.secret });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([EXTRA(['body', 'items', 0, 'ttl'])]);
  });

  it('are refused on routes whose tool is named by the path', async () => {
    const r = await api(gw.url, 'POST', '/toolbelt/slugify', { body: { text: 'Hello World', seperator: '_' } });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([EXTRA(['body', 'seperator'])]);
  });

  it('are refused at the top of a batch, and inside one item of it as that item’s error', async () => {
    const top = await api(gw.url, 'POST', '/batch', { body: { calls: [{ tool: 'uuid', input: {} }], stop_on_eror: true } });
    expect(top.status).toBe(422);
    expect(top.body.detail).toEqual([EXTRA(['body', 'stop_on_eror'])]);
    const items = await api(gw.url, 'POST', '/batch', { body: { calls: [{ tool: 'slugify', input: { text: 'A B', seperator: '_' } }, { tool: 'slugify', input: { text: 'A B' } }] } });
    expect(items.status).toBe(200);
    expect(items.body.results[0]).toMatchObject({ result: null, error: { code: 'validation_error', status: 422, detail: [EXTRA(['seperator'])] } });
    expect(items.body.results[1]).toMatchObject({ result: { slug: 'a-b' }, error: null });
  });

  it('are still taken where the value is free-form (a memory value with any keys)', async () => {
    const value = { anything: { nested: [1, { deep: true }] }, visibilty: 'kept as data' };
    expect((await api(gw.url, 'PUT', '/memory/notes/free', { body: { value }, secret: me.secret })).status).toBe(200);
    expect((await api(gw.url, 'GET', '/memory/notes/free', { secret: me.secret })).body.value).toEqual(value);
  });
});

describe('unknown query parameters', () => {
  it('are ignored, on reads and beside a body', async () => {
    expect((await api(gw.url, 'GET', '/agents?limit=1&utm_source=newsletter')).status).toBe(200);
    const r = await api(gw.url, 'PUT', '/memory/notes/query?cache_buster=1', { body: { value: 'v' }, secret: me.secret });
    expect(r.status).toBe(200);
  });

  it('still count when the tool takes them (a wrong one answers 422 located in the query)', async () => {
    const r = await api(gw.url, 'GET', '/agents?limit=0');
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['query', 'limit']);
  });
});
