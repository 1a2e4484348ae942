import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';

let gw: TestGateway;
let a: { handle: string; secret: string };
beforeAll(async () => {
  gw = await startGateway();
  a = await register(gw.url, 'feat-owner');
});
afterAll(async () => gw.cleanup());

const call = (method: string, path: string, body?: unknown, secret: string | null = a.secret) => api(gw.url, method, path, { body, secret: secret ?? undefined });
const put = (path: string, body: Record<string, unknown>) => call('PUT', `/memory/${path}`, body);

describe('full-text search', () => {
  it('ranks by BM25 (key matches weigh more) with snippets, and filters by namespace', async () => {
    await put('kb/solar-panels', { value: 'How to clean solar panels safely' });
    await put('kb/garden', { value: 'Watering the garden; the solar lamp runs all night' });
    await put('kb/unrelated', { value: 'Nothing about it here' });
    await put('other/solar', { value: 'solar solar solar' });
    const r = await call('GET', '/memory/search?q=solar&ns=kb');
    const keys = r.body.results.map((x: { key: string }) => x.key);
    expect(keys[0]).toBe('solar-panels');
    expect(keys).toContain('garden');
    expect(keys).not.toContain('unrelated');
    expect(keys).not.toContain('solar');
    expect(r.body.results[0].snippet).toContain('«solar»');
    expect(r.body.results[0].score).toBeGreaterThan(r.body.results[1].score);
    expect((await call('GET', '/memory/search?q=sol')).body.results).toEqual([]);
    expect((await call('GET', '/memory/search?q=sol*')).body.results.length).toBeGreaterThan(0);
    expect((await call('GET', '/memory/search?q=')).body.results).toEqual([]);
    expect((await call('GET', '/memory/search?q=%22OR%20NEAR(*)')).status).toBe(200);
    expect((await call('GET', '/memory/search?q=x&limit=101')).status).toBe(422);
    expect((await call('GET', '/search?q=x&limit=51')).status).toBe(422);
  });

  it('the index follows every rewrite: the same text again, new text, new tags, a visibility change', async () => {
    const b = await register(gw.url, 'feat-reader');
    const found = async (q: string, as: string | null = a.secret) =>
      (await call('GET', `/memory/search?q=${q}`, undefined, as)).body.results.map((x: { namespace: string; key: string }) => `${x.namespace}/${x.key}`);
    await put('rw/note', { value: 'zephyr lantern' });
    await put('rw/note', { value: 'zephyr lantern' });
    expect(await found('zephyr')).toEqual(['rw/note']);
    await put('rw/note', { value: 'quokka harbor' });
    expect(await found('zephyr')).toEqual([]);
    expect(await found('quokka')).toEqual(['rw/note']);
    await put('rw/note', { value: 'quokka harbor', tags: ['kestrel'] });
    expect(await found('kestrel')).toEqual(['rw/note']);
    expect(await found('quokka', b.secret)).toEqual([]);
    await put('rw/note', { value: 'quokka harbor', visibility: 'public' });
    expect(await found('quokka', b.secret)).toEqual(['rw/note']);
    await put('rw/note', { value: 'quokka harbor', visibility: 'private' });
    expect(await found('quokka', b.secret)).toEqual([]);
    expect(await found('quokka')).toEqual(['rw/note']);
    // Public entries are indexed apart on SQLite (migration 033): the entry moves with its visibility, and is in one index only.
    if (gw.gateway.db.dialect === 'sqlite') {
      const where = async (table: string) => (await gw.gateway.db.all(`SELECT rowid FROM ${table} WHERE ${table} MATCH 'quokka'`)).length;
      expect([await where('memory_fts'), await where('memory_fts_pub')]).toEqual([1, 0]);
      await put('rw/note', { value: 'quokka harbor', visibility: 'public' });
      expect([await where('memory_fts'), await where('memory_fts_pub')]).toEqual([0, 1]);
      expect(await found('quokka')).toEqual(['rw/note']);
      expect(await found('quokka', b.secret)).toEqual(['rw/note']);
    }
    // FTS5 checks its index against the entries' current text (rank 1): an entry left stale would fail this. On
    // PostgreSQL a trigger computes the vector from the row on every write that changes what it is made of; the
    // searches above hold.
    if (gw.gateway.db.dialect === 'sqlite') {
      await expect(gw.gateway.db.run("INSERT INTO memory_fts (memory_fts, rank) VALUES ('integrity-check', 1)")).resolves.toBeDefined();
      await expect(gw.gateway.db.run("INSERT INTO memory_fts_pub (memory_fts_pub, rank) VALUES ('integrity-check', 1)")).resolves.toBeDefined();
    }
  });

  it('/search merges sources with reciprocal rank fusion and tags each item', async () => {
    const r = await call('GET', '/search?q=solar');
    expect(r.body.memory.length).toBeGreaterThan(0);
    expect(r.body.wall).toEqual([]);
    expect(r.body.merged[0]).toMatchObject({ source: 'memory', acl_status: 'own' });
    expect(r.body.merged[0].rrf_score).toBeCloseTo(1 / 61, 5);
    const anon = await call('GET', '/search?q=solar', undefined, null);
    expect(anon.body.merged).toEqual([]);
    const stats = await call('GET', '/search/stats', undefined, null);
    expect(stats.body.memory_rows.total).toBeGreaterThanOrEqual(4);
    expect(stats.body.embedded).toBe(0);
    expect(JSON.stringify(stats.body)).not.toMatch(/solar/);
  });
});

describe('facts and graph', () => {
  it('extracts entities, topics and key paths; supersedes facts an update no longer states', async () => {
    await put('people/ana', { value: { profile: { city: 'Lisbon', name: 'Ana' }, note: 'Ana met Carlos Silva at Acme Corp. #hiring' }, tags: ['contact'] });
    await eventually(async () => {
      const f = await call('GET', '/memory/facts?q=lisbon');
      expect(f.body.facts.map((x: { subject: string; object: string }) => `${x.subject}=${x.object}`)).toContain('profile.city=Lisbon');
    });
    const ent = await call('GET', '/memory/facts?q=carlos');
    expect(ent.body.facts).toContainEqual(expect.objectContaining({ kind: 'entity', subject: 'Carlos Silva', object: 'person' }));
    expect((await call('GET', '/memory/facts?q=hiring')).body.facts).toContainEqual(expect.objectContaining({ kind: 'topic', subject: 'hiring' }));
    // A plain question finds the facts by its words, the fact holding most of them first.
    expect((await call('GET', `/memory/facts?q=${encodeURIComponent('In which city does she live?')}`)).body.facts[0]).toMatchObject({ subject: 'profile.city', object: 'Lisbon' });
    await put('people/ana', { value: { profile: { city: 'Porto', name: 'Ana' } }, tags: ['contact'] });
    await eventually(async () => {
      const f = await call('GET', '/memory/facts?q=profile.city&match=all');
      expect(f.body.facts.map((x: { object: string }) => x.object)).toEqual(['Porto']);
    });
    // Any word (the default): profile.name holds one of the two words and comes after the path that holds both.
    const ranked = (await call('GET', '/memory/facts?q=profile.city')).body.facts.map((x: { subject: string }) => x.subject);
    expect(ranked[0]).toBe('profile.city');
    expect(ranked).toContain('profile.name');
    const all = await call('GET', '/memory/facts?q=profile.city&match=all&include_superseded=true');
    expect(all.body.facts.map((x: { object: string; superseded: boolean }) => `${x.object}:${x.superseded}`).sort()).toEqual(['Lisbon:true', 'Porto:false']);
    expect((await call('GET', '/memory/facts?q=carlos')).body.facts).toEqual([]);
    // No search word (no q, an empty one, punctuation alone): every fact, the current ones first.
    for (const q of ['', '?q=', '?q=---', `?q=${encodeURIComponent('🙂')}`]) {
      const every = await call('GET', `/memory/facts${q}`);
      expect(every.status, q).toBe(200);
      expect(every.body.facts.map((x: { subject: string }) => x.subject)).toEqual(expect.arrayContaining(['profile.city', 'profile.name']));
    }
    const everyOne = (await call('GET', '/memory/facts?include_superseded=true')).body.facts as { superseded: boolean }[];
    expect(everyOne.findIndex((f) => f.superseded)).toBeGreaterThan(everyOne.findLastIndex((f) => !f.superseded));
  });

  it('builds a graph of entries, entities and topics from own memory only', async () => {
    await put('people/ben', { value: 'Ben works with Carlos Silva on the Lisbon office.', tags: ['contact'] });
    await put('people/cat', { value: 'Cat also knows Carlos Silva.' });
    await eventually(async () => {
      const g = await call('GET', '/memory/graph?limit=200');
      const edges = g.body.edges.map((e: { type: string }) => e.type);
      expect(edges).toContain('mentions');
      expect(edges).toContain('tagged');
      expect(edges).toContain('shares-entity');
    });
    const g = await call('GET', '/memory/graph?limit=3');
    expect(g.body.nodes.length).toBeLessThanOrEqual(3);
    expect((await call('GET', '/memory/graph?limit=1001')).status).toBe(422);
  });

  it('/search/stats counts facts and edges among the memory rows, as the spec lists them', async () => {
    await eventually(async () => {
      const rows = (await call('GET', '/search/stats', undefined, null)).body.memory_rows;
      expect(rows.facts).toBeGreaterThan(0);
      expect(rows.edges).toBeGreaterThan(0);
    });
    const stats = (await call('GET', '/search/stats', undefined, null)).body;
    expect(Object.keys(stats.memory_rows).sort()).toEqual(['edges', 'facts', 'owned', 'public', 'total']);
    expect(stats.memory_rows.edges).toBeLessThanOrEqual(stats.memory_rows.facts);
    expect(stats).not.toHaveProperty('facts');
    expect(stats).not.toHaveProperty('edges');
    // /intelligence reads the same counts.
    const intel = (await call('GET', '/intelligence', undefined, null)).body;
    expect(intel.memory).toMatchObject({ facts: stats.memory_rows.facts, graph_edges: stats.memory_rows.edges });
  });
});

describe('changes feed', () => {
  it('replaying the feed from the start rebuilds exactly the current state, including deletions and expiries', async () => {
    const b = await register(gw.url, 'feed-agent');
    const w = (path: string, body: unknown) => api(gw.url, 'PUT', `/memory/${path}`, { body, secret: b.secret });
    await w('s/one', { value: 1 });
    await w('s/two', { value: 2 });
    await w('s/one', { value: 11 });
    await w('t/temp', { value: 'short', ttl_seconds: 30 });
    await w('t/gone', { value: 'x' });
    await api(gw.url, 'DELETE', '/memory/t/gone', { secret: b.secret });
    const replay = async () => {
      const state = new Map<string, unknown>();
      let since = '';
      for (;;) {
        const page = await api(gw.url, 'GET', `/memory/changes?limit=2&since=${since}`, { secret: b.secret });
        for (const c of page.body.changes) {
          const id = `${c.namespace}/${c.key}`;
          if (c.op === 'put') state.set(id, c.value);
          else state.delete(id);
        }
        since = page.body.next_cursor;
        if (!page.body.has_more) return { state, since };
      }
    };
    const first = await replay();
    expect(Object.fromEntries(first.state)).toEqual({ 's/one': 11, 's/two': 2, 't/temp': 'short' });
    gw.clock.advance(31_000);
    const incremental = await api(gw.url, 'GET', `/memory/changes?since=${first.since}`, { secret: b.secret });
    expect(incremental.body.changes.map((c: { op: string; key: string }) => `${c.op}:${c.key}`)).toEqual(['expire:temp']);
    const second = await replay();
    expect(Object.fromEntries(second.state)).toEqual({ 's/one': 11, 's/two': 2 });
    const listed = new Map<string, unknown>();
    for (const ns of ['s', 't']) {
      for (const k of (await api(gw.url, 'GET', `/memory/${ns}`, { secret: b.secret })).body.keys) {
        listed.set(`${ns}/${k.key}`, (await api(gw.url, 'GET', `/memory/${ns}/${k.key}`, { secret: b.secret })).body.value);
      }
    }
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(second.state));
    expect((await api(gw.url, 'GET', '/memory/changes?since=notacursor!', { secret: b.secret })).status).toBe(422);
  });
});

describe('bulk and forget', () => {
  it('bulk put is all or nothing: one bad item writes nothing and is named', async () => {
    const ok = await call('POST', '/memory/bulk/put', { items: [{ namespace: 'batch', key: 'a', value: 1 }, { namespace: 'batch', key: 'b', value: 2 }] });
    expect(ok.body.written).toBe(2);
    const bad = await call('POST', '/memory/bulk/put', { items: [{ namespace: 'batch', key: 'c', value: 3 }, { namespace: 'batch', key: 'a', value: 9, if_version: 7 }] });
    expect(bad.status).toBe(409);
    expect(bad.body.error.item).toBe(1);
    expect((await call('GET', '/memory/batch/c')).status).toBe(404);
    const invalid = await call('POST', '/memory/bulk/put', { items: [{ namespace: 'batch', key: 'd', value: 1 }, { namespace: 'batch', key: '', value: 1 }] });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail[0].loc).toEqual(['body', 'items', 1, 'key']);
    const tooMany = await call('POST', '/memory/bulk/put', { items: Array.from({ length: 101 }, (_, i) => ({ namespace: 'batch', key: `k${i}`, value: i })) });
    expect(tooMany.status).toBe(422);
    const del = await call('POST', '/memory/bulk/delete', { items: [{ namespace: 'batch', key: 'a' }, { namespace: 'batch', key: 'nope' }] });
    expect(del.status).toBe(404);
    expect(del.body.error.item).toBe(1);
    expect((await call('GET', '/memory/batch/a')).status).toBe(200);
    expect((await call('POST', '/memory/bulk/delete', { items: [{ namespace: 'batch', key: 'a' }, { namespace: 'batch', key: 'b' }] })).body.deleted).toBe(2);
  });

  it('forget: the dry run (default) lists exactly what the real run removes', async () => {
    for (const [k, tags] of [
      ['log-1', ['log']],
      ['log-2', ['log', 'old']],
      ['keep', ['log']],
      ['log-3', []],
    ] as const)
      await put(`fg/${k}`, { value: k, tags: [...tags] });
    const filter = { namespace: 'fg', key_prefix: 'log-', tags: ['log'] };
    const dry = await call('POST', '/memory/forget', filter);
    expect(dry.body.dry_run).toBe(true);
    expect(dry.body.entries.map((e: { key: string }) => e.key)).toEqual(['log-1', 'log-2']);
    expect((await call('GET', '/memory/fg/log-1')).status).toBe(200);
    const real = await call('POST', '/memory/forget', { ...filter, dry_run: false });
    expect(real.body.entries).toEqual(dry.body.entries);
    expect((await call('GET', '/memory/fg')).body.keys.map((k: { key: string }) => k.key)).toEqual(['keep', 'log-3']);
    const changes = await call('GET', '/memory/changes?namespace=fg&limit=200');
    expect(changes.body.changes.filter((c: { op: string }) => c.op === 'forget').map((c: { key: string }) => c.key).sort()).toEqual(['log-1', 'log-2']);
    expect((await call('POST', '/memory/forget', {})).status).toBe(422);
    gw.clock.advance(1000);
    const older = await call('POST', '/memory/forget', { older_than: new Date(gw.clock.now()).toISOString(), namespace: 'fg' });
    expect(older.body.count).toBe(2);
  });

  it('forget by query finds private and public entries alike (indexed apart on SQLite)', async () => {
    await put('fq/private', { value: 'wombat burrow' });
    await put('fq/public', { value: 'wombat meadow', visibility: 'public' });
    await put('fq/other', { value: 'badger sett', visibility: 'public' });
    const dry = await call('POST', '/memory/forget', { query: 'wombat' });
    expect(dry.body.entries.map((e: { key: string }) => e.key)).toEqual(['private', 'public']);
    expect((await call('POST', '/memory/forget', { query: 'wombat', dry_run: false })).body.count).toBe(2);
    expect((await call('GET', '/memory/fq')).body.keys.map((k: { key: string }) => k.key)).toEqual(['other']);
  });
});

describe('templates, summaries, stats, context, export and import', () => {
  it('applies a template after validating its fields', async () => {
    const list = await call('GET', '/memory/templates', undefined, null);
    expect(list.body.templates.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['task-list', 'decision-record', 'contact-card']));
    const r = await call('POST', '/memory/template/task-list/work/todo', { fields: { title: 'Ship it', items: [{ text: 'tests' }] } });
    expect(r.status).toBe(201);
    expect(r.body.value).toEqual({ template: 'task-list', title: 'Ship it', status: 'open', items: [{ text: 'tests', done: false }] });
    const bad = await call('POST', '/memory/template/task-list/work/todo2', { fields: { items: [{ text: 1 }] } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: unknown[] }) => d.loc.join('.'))).toEqual(expect.arrayContaining(['body.fields.title', 'body.fields.items.0.text']));
    expect((await call('POST', '/memory/template/nope/work/x', { fields: {} })).status).toBe(404);
    const card = await call('GET', `/memory/context/${a.handle}`);
    expect(card.body.open_items.map((i: { key: string }) => i.key)).toContain('todo');
  });

  it('summarizes a namespace extractively without a model, saying so', async () => {
    const r = await call('POST', '/memory/summarize', { namespace: 'kb' });
    expect(r.body.engine).toBe('extractive');
    expect(r.body.markdown).toContain(`# ${a.handle}/kb`);
    expect(r.body.markdown).toContain('**solar-panels**: How to clean solar panels safely');
  });

  it('reports stats and a context card that refreshes on write', async () => {
    const s = await call('GET', '/memory/stats');
    expect(s.body.entries).toBeGreaterThan(5);
    expect(s.body.namespaces).toBeGreaterThan(2);
    const c1 = await call('GET', `/memory/context/${a.handle}`);
    const c2 = await call('GET', `/memory/context/${a.handle}`);
    expect(c2.body.cached).toBe(true);
    await put('kb/pinned', { value: 'remember this first', pinned: true });
    const c3 = await call('GET', `/memory/context/${a.handle}`);
    expect(c3.body.cached).toBe(false);
    expect(c3.body.pinned[0].key).toBe('pinned');
    expect(c3.body.recent[0].key).toBe('pinned');
    expect(c1.body.handle).toBe(a.handle);
  });

  it('export → import round-trips entries with their history', async () => {
    const exp = await fetch(`${gw.url}/memory/export?namespace=kb`, { headers: { authorization: `Bearer ${a.secret}` } });
    expect(exp.headers.get('content-type')).toBe('application/x-ndjson');
    const jsonl = await exp.text();
    const lines = jsonl.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.key)).toContain('solar-panels');
    const b = await register(gw.url, 'importer');
    const imp = await api(gw.url, 'POST', '/memory/import', { body: { jsonl }, secret: b.secret });
    expect(imp.body).toMatchObject({ lines: lines.length, created: lines.length });
    const back = await (await fetch(`${gw.url}/memory/export?namespace=kb`, { headers: { authorization: `Bearer ${b.secret}` } })).text();
    expect(back).toBe(jsonl);
    expect((await api(gw.url, 'POST', '/memory/import', { body: { jsonl }, secret: b.secret })).status).toBe(409);
    expect((await api(gw.url, 'POST', '/memory/import', { body: { jsonl, on_conflict: 'skip' }, secret: b.secret })).body.skipped).toBe(lines.length);
    expect((await api(gw.url, 'POST', '/memory/import', { body: { jsonl: '{"nope":1}' }, secret: b.secret })).status).toBe(422);
  });
});
