import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let a: { handle: string; secret: string };
beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_MEMORY_VERSIONS_KEPT: '5', GATEWAY_MEMORY_MAX_VALUE_BYTES: '2048', GATEWAY_MEMORY_MAX_ENTRIES: '30' } });
  a = await register(gw.url, 'mem-owner');
});
afterAll(async () => gw.cleanup());

const put = (path: string, body: unknown, secret = a.secret) => api(gw.url, 'PUT', `/memory/${path}`, { body, secret });
const get = (path: string, secret: string | undefined = a.secret) => api(gw.url, 'GET', `/memory/${path}`, { secret });

describe('entries', () => {
  it('stores any JSON value with versions and returns it', async () => {
    const w = await put('notes/first', { value: { a: [1, 2, { b: null }], s: 'x' }, tags: ['Todo', 'todo'] });
    expect(w.status).toBe(200);
    expect(w.body).toMatchObject({ namespace: 'notes', key: 'first', owner: 'mem-owner', version: 1 });
    expect(w.body.size).toBe(Buffer.byteLength(JSON.stringify({ a: [1, 2, { b: null }], s: 'x' })));
    const w2 = await put('notes/first', { value: 'second' });
    expect(w2.body.version).toBe(2);
    expect(w2.body.created_at).toBe(w.body.created_at);
    const r = await get('notes/first');
    expect(r.body).toMatchObject({ value: 'second', version: 2, visibility: 'private', tags: ['todo'] });
    for (const v of [0, false, null, '', [], {}]) {
      expect((await put('notes/falsy', { value: v })).status).toBe(200);
      expect((await get('notes/falsy')).body.value).toEqual(v);
    }
  });

  it('compare-and-set: if_version 0 creates only; a stale version is 409 with the current one', async () => {
    expect((await put('cas/k', { value: 1, if_version: 0 })).status).toBe(200);
    const again = await put('cas/k', { value: 2, if_version: 0 });
    expect(again.status).toBe(409);
    expect(again.body.error.current_version).toBe(1);
    expect((await put('cas/k', { value: 2, if_version: 1 })).body.version).toBe(2);
    const stale = await put('cas/k', { value: 3, if_version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.current_version).toBe(2);
    expect((await put('cas/missing', { value: 1, if_version: 3 })).status).toBe(409);
  });

  it('20 parallel writers with the same if_version: exactly one wins', async () => {
    await put('cas/race', { value: 'start' });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => put('cas/race', { value: i, if_version: 1 })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    const h = await get('cas/race/history');
    expect(h.body.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
  });

  it('keeps history newest first, one version by number, and prunes beyond the kept count', async () => {
    for (let i = 1; i <= 8; i++) await put('hist/k', { value: `v${i}` });
    const h = await get('hist/k/history?limit=10');
    expect(h.body.current_version).toBe(8);
    expect(h.body.versions.map((v: { version: number }) => v.version)).toEqual([8, 7, 6, 5, 4]);
    expect(h.body.versions[0]).toMatchObject({ value: 'v8', written_by: 'mem-owner' });
    expect((await get('hist/k/v/6')).body.value).toBe('v6');
    expect((await get('hist/k/v/2')).status).toBe(404);
    expect((await get('hist/k/history?limit=2')).body.versions).toHaveLength(2);
  });

  it('lists keys in order with a cursor, and deletes', async () => {
    for (const k of ['c', 'a', 'b', 'd']) await put(`list/${k}`, { value: k });
    const p1 = await get('list?limit=2');
    expect(p1.body.keys.map((k: { key: string }) => k.key)).toEqual(['a', 'b']);
    const p2 = await get(`list?limit=2&cursor=${p1.body.next_cursor}`);
    expect(p2.body.keys.map((k: { key: string }) => k.key)).toEqual(['c', 'd']);
    expect((await get(`list?limit=2&cursor=${p2.body.next_cursor}`)).body.keys).toEqual([]);
    const del = await api(gw.url, 'DELETE', '/memory/list/a', { secret: a.secret });
    expect(del.body).toMatchObject({ deleted: true, version: 1 });
    expect((await get('list/a')).status).toBe(404);
    expect((await api(gw.url, 'DELETE', '/memory/list/a', { secret: a.secret })).status).toBe(404);
    expect((await get('list/a/history')).status).toBe(404);
  });

  it('expires entries after ttl_seconds (moved clock) and treats them as absent', async () => {
    await put('ttl/k', { value: 'soon gone', ttl_seconds: 60 });
    expect((await get('ttl/k')).status).toBe(200);
    gw.clock.advance(61_000);
    expect((await get('ttl/k')).status).toBe(404);
    expect((await get('ttl')).body.keys).toEqual([]);
    const recreate = await put('ttl/k', { value: 'again', if_version: 0 });
    expect(recreate.status).toBe(200);
  });

  it('validates names and limits with clear 4xx errors', async () => {
    const cases: [string, unknown, number, (string | number)[]][] = [
      ['bad ns!/k', { value: 1 }, 422, ['path', 'namespace']],
      ['stats/k', { value: 1 }, 422, ['path', 'namespace']],
      [`${'n'.repeat(65)}/k`, { value: 1 }, 422, ['path', 'namespace']],
      [`ns/${'k'.repeat(257)}`, { value: 1 }, 422, ['path', 'key']],
      ['ns/shares', { value: 1 }, 422, ['path', 'key']],
      ['ns/k', {}, 422, ['body', 'value']],
      ['ns/k', { value: 1, visibility: 'secret' }, 422, ['body', 'visibility']],
      ['ns/k', { value: 1, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 422, ['body', 'tags']],
      ['ns/k', { value: 1, ttl_seconds: 0 }, 422, ['body', 'ttl_seconds']],
      ['ns/k', { value: 1, if_version: -1 }, 422, ['body', 'if_version']],
    ];
    for (const [path, body, status, loc] of cases) {
      const r = await put(encodeURI(path).replace('!', '%21'), body);
      if (status === 422) {
        expect(r.status, path).toBe(422);
        expect(r.body.detail[0].loc, path).toEqual(loc);
      }
    }
    // A "__proto__" key anywhere in a value is refused, naming where, and the entry is left as it was (zod had
    // dropped the key and stored the rest, answering 200).
    expect((await put('ns/proto', { value: { name: 'kept' } })).status).toBe(200);
    for (const [raw, loc] of [
      ['{"value":{"__proto__":{"admin":true},"name":"ann"}}', ['body', 'value']],
      ['{"value":{"list":[1,{"__proto__":1}]}}', ['body', 'value', 'list', 1]],
    ] as const) {
      const r = await api(gw.url, 'PUT', '/memory/ns/proto', { raw, secret: a.secret });
      expect(r.status, raw).toBe(422);
      expect(r.body.detail[0].loc).toEqual(loc);
      expect(r.body.detail[0].msg).toContain('__proto__');
    }
    expect((await get('ns/proto')).body).toMatchObject({ value: { name: 'kept' }, version: 1 });
    const handoff = await api(gw.url, 'POST', '/handoff', { raw: '{"task":"look","context":{"a":{"__proto__":{}}}}', secret: a.secret });
    expect(handoff.status).toBe(422);
    const big = await put('ns/big', { value: 'x'.repeat(3000) });
    expect(big.status).toBe(413);
    expect(big.body.error.limit).toBe(2048);
  });

  it('refuses new keys beyond the per-agent entry limit, but still updates existing ones', async () => {
    const b = await register(gw.url, 'mem-full');
    for (let i = 0; i < 30; i++) expect((await put(`full/k${i}`, { value: i }, b.secret)).status).toBe(200);
    expect((await put('full/k30', { value: 30 }, b.secret)).status).toBe(413);
    expect((await put('full/k0', { value: 'updated' }, b.secret)).status).toBe(200);
    await api(gw.url, 'DELETE', '/memory/full/k1', { secret: b.secret });
    expect((await put('full/k30', { value: 30 }, b.secret)).status).toBe(200);
    // At the limit, a bulk put with one new key writes nothing and names that item.
    const bulk = await api(gw.url, 'POST', '/memory/bulk/put', { secret: b.secret, body: { items: [{ namespace: 'full', key: 'k2', value: 'x' }, { namespace: 'full', key: 'new', value: 1 }] } });
    expect(bulk.status).toBe(413);
    expect(bulk.body.error.item).toBe(1);
    expect((await api(gw.url, 'GET', '/memory/full/k2', { secret: b.secret })).body.value).toBe(2);
  });

  it('concurrent new keys at the edge of the limit: exactly as many pass as there is room for', async () => {
    const c = await register(gw.url, 'mem-edge');
    for (let i = 0; i < 28; i++) expect((await put(`edge/k${i}`, { value: i }, c.secret)).status).toBe(200);
    const racing = await Promise.all(Array.from({ length: 6 }, (_, i) => put(`edge/new${i}`, { value: i }, c.secret)));
    expect(racing.filter((r) => r.status === 200)).toHaveLength(2);
    expect(racing.filter((r) => r.status === 413)).toHaveLength(4);
    expect((await api(gw.url, 'GET', '/memory/stats?handle=mem-edge', { secret: c.secret })).body.entries).toBe(30);
  });

  it('U+0000 in a value is kept, and an object’s keys come back in the order written, on either store', async () => {
    const c = await register(gw.url, 'mem-nul');
    expect((await put('nul/k', { value: { s: 'a\u0000b' } }, c.secret)).status).toBe(200);
    expect((await get('nul/k', c.secret)).body.value).toEqual({ s: 'a\u0000b' });
    expect((await put('order/k', { value: { zeta: 1, alpha: { y: 2, b: 3 }, mid: [3, 1] } }, c.secret)).status).toBe(200);
    expect(JSON.stringify((await get('order/k', c.secret)).body.value)).toBe('{"zeta":1,"alpha":{"y":2,"b":3},"mid":[3,1]}');
    // A backslash followed by "u0000" is text like any other.
    expect((await put('nul/text', { value: '\\u0000' }, c.secret)).status).toBe(200);
    expect((await get('nul/text', c.secret)).body.value).toBe('\\u0000');
  });

  it('the scratchpad: anyone writes without credentials, anyone reads, 24 h, size- and rate-limited', async () => {
    const w = await api(gw.url, 'PUT', '/memory/scratchpad/hello', { body: { value: 'hi', ttl_seconds: 999999, visibility: 'private' } });
    expect(w.status).toBe(200);
    expect(Date.parse(w.body.expires_at) - gw.clock.now()).toBe(24 * 3600 * 1000);
    const r = await api(gw.url, 'GET', '/memory/scratchpad/hello');
    expect(r.body).toMatchObject({ value: 'hi', visibility: 'public', owner: null });
    expect((await api(gw.url, 'GET', '/memory/scratchpad/hello', { secret: a.secret })).body.value).toBe('hi');
    expect((await api(gw.url, 'PUT', '/memory/scratchpad/big', { body: { value: 'x'.repeat(17 * 1024) } })).status).toBe(413);
    expect((await api(gw.url, 'DELETE', '/memory/scratchpad/hello')).status).toBe(403);
    let limited = 0;
    for (let i = 0; i < 60 && !limited; i++) {
      const x = await api(gw.url, 'PUT', `/memory/scratchpad/spam${i}`, { body: { value: i } });
      if (x.status === 429) limited = i;
    }
    expect(limited).toBeGreaterThan(0);
    gw.clock.advance(24 * 3600 * 1000 + 1);
    expect((await api(gw.url, 'GET', '/memory/scratchpad/hello')).status).toBe(404);
    expect((await api(gw.url, 'PUT', '/memory/other/k', { body: { value: 1 } })).status).toBe(401);
  });
});
