// Memory at rest keeps a value about once (migration 032, docs/decisions/storage.md): SQLite stores large values
// deflated, the history holds only replaced versions, the change feed and the full-text index copy no value. Every
// way of reading a value must still give it back whole: get, history, one version, the change feed, export/import,
// search (words and snippets), the context card; and a second agent still sees none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { flattenText } from '../../src/store/value-codec.js';

let gw: TestGateway;
let a: { handle: string; secret: string };
let stranger: { handle: string; secret: string };
beforeAll(async () => {
  gw = await startGateway();
  a = await register(gw.url, 'store-owner');
  stranger = await register(gw.url, 'store-stranger');
});
afterAll(async () => gw.cleanup());

const call = (method: string, path: string, body?: unknown, secret = a.secret) => api(gw.url, method, path, { body, secret });

// A value large enough to be stored deflated, with a rare word to search for.
const big = (n: number) => ({
  title: `report ${n}`,
  body: Array.from({ length: 400 }, (_, i) => `line ${i} of the quarterly ledger for version ${n}`).join('\n'),
  tags: ['ünïcode', 'emoji 🚀', n],
  flags: { done: n % 2 === 0, score: n + 0.5, none: null },
  marker: `zanzibar${n}`,
});

describe('memory values at rest', () => {
  it('a large value reads back whole through get, history, one version, the feed and the context card', async () => {
    for (let n = 1; n <= 3; n++) expect((await call('PUT', '/memory/big/doc', { value: big(n) })).status).toBe(200);
    expect((await call('GET', '/memory/big/doc')).body).toMatchObject({ value: big(3), version: 3 });
    const h = await call('GET', '/memory/big/doc/history?limit=10');
    expect(h.body.versions.map((v: { version: number; value: unknown }) => [v.version, v.value])).toEqual([
      [3, big(3)],
      [2, big(2)],
      [1, big(1)],
    ]);
    expect((await call('GET', '/memory/big/doc/v/2')).body.value).toEqual(big(2));
    const feed = await call('GET', '/memory/changes?namespace=big');
    expect(feed.body.changes).toMatchObject([{ op: 'put', key: 'doc', version: 3, value: big(3) }]);
    const stats = await call('GET', '/memory/stats');
    expect(stats.body.versions).toBe(3);
    expect((await call('GET', `/memory/context/${a.handle}`)).status).toBe(200);
  });

  it('stores one copy: the current version only in the entry, no value in the feed, large values deflated on SQLite', async () => {
    const db = gw.gateway.db;
    const entry = await db.get<{ id: number; kind: string }>(
      db.dialect === 'sqlite' ? "SELECT id, typeof(value) AS kind FROM memory_entries WHERE namespace = 'big' AND key = 'doc'" : "SELECT id, 'json' AS kind FROM memory_entries WHERE namespace = 'big' AND key = 'doc'",
    );
    if (db.dialect === 'sqlite') expect(entry!.kind).toBe('blob');
    const versions = await db.all<{ version: number }>('SELECT version FROM memory_versions WHERE entry_id = ? ORDER BY version', [entry!.id]);
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    const change = await db.get<{ value: unknown }>("SELECT value FROM memory_changes WHERE namespace = 'big' AND key = 'doc'");
    expect(change!.value).toBeNull();
  });

  it('search finds the words of a deflated value, old words leave the index, and snippets show the text', async () => {
    const r = await call('GET', '/memory/search?q=zanzibar3');
    expect(r.body.results.map((x: { key: string }) => x.key)).toEqual(['doc']);
    expect(r.body.results[0].snippet).toContain('zanzibar3');
    expect((await call('GET', '/memory/search?q=zanzibar2')).body.results).toEqual([]);
    expect((await call('GET', '/memory/search?q=quarterly')).body.results.map((x: { key: string }) => x.key)).toContain('doc');
    // Object keys are words too, as flattenText made them.
    expect((await call('GET', '/memory/search?q=marker&ns=big')).body.results.map((x: { key: string }) => x.key)).toEqual(['doc']);
    // Another agent finds nothing of it, and cannot read it.
    expect((await call('GET', '/memory/search?q=zanzibar3', undefined, stranger.secret)).body.results).toEqual([]);
    expect((await api(gw.url, 'GET', `/memory/big/doc`, { secret: stranger.secret })).status).toBe(404);
  });

  it('deleting the entry takes it out of the index and leaves a tombstone without a value', async () => {
    await call('PUT', '/memory/big/gone', { value: big(9) });
    expect((await call('GET', '/memory/search?q=zanzibar9')).body.results).toHaveLength(1);
    expect((await call('DELETE', '/memory/big/gone')).status).toBe(200);
    expect((await call('GET', '/memory/search?q=zanzibar9')).body.results).toEqual([]);
    const feed = await call('GET', '/memory/changes?namespace=big');
    const tombstone = feed.body.changes.find((c: { key: string }) => c.key === 'gone');
    expect(tombstone).toMatchObject({ op: 'delete' });
    expect(tombstone.value ?? null).toBeNull();
    if (gw.gateway.db.dialect === 'sqlite') {
      await expect(gw.gateway.db.run("INSERT INTO memory_fts (memory_fts, rank) VALUES ('integrity-check', 0)")).resolves.toBeDefined();
      await expect(gw.gateway.db.run("INSERT INTO memory_fts_pub (memory_fts_pub, rank) VALUES ('integrity-check', 0)")).resolves.toBeDefined();
    }
  });

  it('export → import keeps every version of a deflated value', async () => {
    const exp = await fetch(`${gw.url}/memory/export?namespace=big`, { headers: { authorization: `Bearer ${a.secret}` } });
    const jsonl = await exp.text();
    const line = JSON.parse(jsonl.trim().split('\n')[0]);
    expect(line.versions.map((v: { version: number; value: unknown }) => [v.version, v.value])).toEqual([
      [1, big(1)],
      [2, big(2)],
      [3, big(3)],
    ]);
    const b = await register(gw.url, 'store-importer');
    expect((await api(gw.url, 'POST', '/memory/import', { body: { jsonl }, secret: b.secret })).status).toBe(200);
    const back = await api(gw.url, 'GET', '/memory/big/doc/history', { secret: b.secret });
    expect(back.body.versions.map((v: { version: number; value: unknown }) => [v.version, v.value])).toEqual([
      [3, big(3)],
      [2, big(2)],
      [1, big(1)],
    ]);
    expect((await api(gw.url, 'GET', '/memory/search?q=zanzibar3', { secret: b.secret })).body.results).toHaveLength(1);
  });

  it("the database's words of a value are flattenText's (keys, strings, numbers, booleans)", async () => {
    const db = gw.gateway.db;
    const value = { a: 'Hello, wörld', n: [1, 2.5, { deep: true, off: false, nothing: null }], 'key with space': 'x\u0000y' };
    const row = await db.get<{ words: string }>(`SELECT memory_words(v.value) AS words FROM (SELECT CAST(? AS ${db.dialect === 'sqlite' ? 'TEXT' : 'JSON'}) AS value) v`, [
      JSON.stringify(value),
    ]);
    // PostgreSQL's jsonb orders keys its own way: the same words, perhaps in another order.
    const sorted = (s: string) => s.split(/\s+/).filter(Boolean).sort();
    expect(sorted(row!.words)).toEqual(sorted(flattenText(value)));
  });

  it('a value holding a NUL is stored, indexed and read back whole', async () => {
    const value = { text: `before\u0000after ${'padding '.repeat(40)}`, n: 1 };
    expect((await call('PUT', '/memory/nul/k', { value })).status).toBe(200);
    expect((await call('GET', '/memory/nul/k')).body.value).toEqual(value);
    expect((await call('GET', '/memory/search?q=before&ns=nul')).body.results.map((x: { key: string }) => x.key)).toEqual(['k']);
  });
});
