// Wall pages are served from a cache keyed by the wall version: every change a page can show (a post, a
// reply, a reaction, a deletion, an agent leaving) must show on the very next read, also through a second
// gateway process sharing the database.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { indexPending } from '../../tools/wall/indexer.js';
import { cachedPage, MAX_BYTES } from '../../tools/wall/page-cache.js';
import { insertPost, listPostsJson, wallState, type WallState } from '../../tools/wall/store/posts.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { migratedDb, type MigratedDb } from '../helpers/migrated-db.js';

let gw: TestGateway;
let other: TestGateway;
let alice: { handle: string; secret: string };
let bob: { handle: string; secret: string };
let carol: { handle: string; secret: string };

/** A wall page's posts; any other answer fails here with its status and body (CI once saw a page without posts). */
const wall = async (g: TestGateway, query = '') => {
  const r = await api(g.url, 'GET', `/wall?limit=10${query}`);
  const seen = `GET /wall?limit=10${query}: ${r.status} ${JSON.stringify(r.body).slice(0, 2000)}`;
  expect(r.status, seen).toBe(200);
  expect(Array.isArray(r.body?.posts), seen).toBe(true);
  return r.body.posts as any[];
};
const post = (who: { secret: string }, body: Record<string, unknown>) => api(gw.url, 'POST', '/wall', { body, secret: who.secret });
/** A minute later (one clock for both processes), so the per-minute posting limit never trips. */
const later = () => gw.clock.advance(61_000);

beforeAll(async () => {
  gw = await startGateway();
  other = await startGateway({ dataDir: gw.dataDir, clock: gw.clock });
  alice = await register(gw.url, 'cache-alice');
  bob = await register(gw.url, 'cache-bob');
  carol = await register(gw.url, 'cache-carol');
});
afterAll(async () => {
  await other.stop();
  await gw.cleanup();
});

describe('cached wall pages', () => {
  it('show every change on the next read, in this process and in another one', async () => {
    const p = (await post(alice, { text: 'first #cachetopic', kind: 'result' })).body;
    for (const g of [gw, other]) {
      expect((await wall(g))[0].post_id).toBe(p.post_id);
      expect((await wall(g, '&topic=cachetopic')).map((x) => x.post_id)).toEqual([p.post_id]);
    }

    // A reaction is an update of the post row.
    await api(gw.url, 'POST', `/wall/${p.post_id}/react`, { body: { reaction: 'like' }, secret: bob.secret });
    for (const g of [gw, other]) expect((await wall(g, '&topic=cachetopic'))[0].reactions.like).toBe(1);

    // A reply is a new post and bumps its parent's reply count.
    later();
    const reply = (await post(bob, { text: `agreed @${alice.handle}`, reply_to: p.post_id })).body;
    for (const g of [gw, other]) {
      const page = await wall(g);
      expect(page[0]).toMatchObject({ post_id: reply.post_id, mentions: [alice.handle] });
      expect(page.find((x) => x.post_id === p.post_id).replies).toBe(1);
    }

    // Posting through the other process is seen here at once.
    later();
    const fromOther = (await api(other.url, 'POST', '/wall', { body: { text: 'via the other gateway #cachetopic' }, secret: alice.secret })).body;
    expect((await wall(gw, '&topic=cachetopic'))[0].post_id).toBe(fromOther.post_id);

    // Deleting a post removes it and its reply count from the parent.
    await api(gw.url, 'DELETE', `/wall/${reply.post_id}`, { secret: bob.secret });
    for (const g of [gw, other]) {
      const page = await wall(g);
      expect(page.map((x) => x.post_id)).not.toContain(reply.post_id);
      expect(page.find((x) => x.post_id === p.post_id).replies).toBe(0);
    }

    // An agent leaving takes its mentions with it (carol never posted, so no post row changes)...
    later();
    const mention = (await post(bob, { text: `hello @${carol.handle}` })).body;
    expect((await wall(other))[0].mentions).toEqual([carol.handle]);
    expect((await api(gw.url, 'DELETE', `/agents/${carol.handle}`, { secret: carol.secret })).status).toBeLessThan(300);
    for (const g of [gw, other]) expect((await wall(g)).find((x) => x.post_id === mention.post_id).mentions).toEqual([]);
    // ...and its posts.
    expect((await api(gw.url, 'DELETE', `/agents/${alice.handle}`, { secret: alice.secret })).status).toBeLessThan(300);
    for (const g of [gw, other]) {
      expect((await wall(g)).some((x) => x.handle === alice.handle)).toBe(false);
      expect(await wall(g, '&topic=cachetopic')).toEqual([]);
    }
  });

  it('drops a topic page built before the indexer added the topic rows it lacked', async () => {
    // The race a reader can lose: a post lands after its catch-up but before its version read, so the page
    // it caches lacks the post; the indexer's batch must make that page stale. (Its own database: no
    // background indexer to win the race first.)
    const { db, remove } = await migratedDb();
    try {
      await db.run("INSERT INTO agents (id, handle, secret_hash, created_at) VALUES ('ag_r', 'racer', 'h', 0)");
      const id = await insertPost(db, { agentId: 'ag_r', kind: 'post', text: 'late #racetopic', topics: ['racetopic'], replyTo: null, quoteOf: null, threadRoot: null, now: 0 });
      const build = async () => JSON.parse((await listPostsJson(db, 'x/', { since: 0, before: null, limit: 10, agentId: null, topic: 'racetopic', followedBy: null })).json.toString()) as { post_id: number }[];
      expect(await cachedPage(db, 'race', build, () => 1)).toEqual([]);
      await indexPending(db);
      expect((await cachedPage(db, 'race', build, () => 1)).map((p) => p.post_id)).toEqual([id]);
    } finally {
      await remove();
    }
  });

  it('keeps since_id polling exact while pages are cached', async () => {
    const first = await wall(gw);
    const newest = first.length ? first[0].post_id : 0;
    expect(await wall(gw, `&since_id=${newest}`)).toEqual([]);
    later();
    const p = (await post(bob, { text: 'new for pollers' })).body;
    expect((await wall(gw, `&since_id=${newest}`)).map((x) => x.post_id)).toEqual([p.post_id]);
  });
});

describe('the page cache', () => {
  // Each test its own database: the cache is per database, so no page carries over.
  let fresh: MigratedDb;
  beforeEach(async () => {
    fresh = await migratedDb();
  });
  afterEach(() => fresh.remove());

  /** A build that counts its runs and answers `value`, or fails while `fail` is set. */
  const counted = (value: string) => {
    const b = { runs: 0, fail: false, build: async () => (b.runs++, b.fail ? Promise.reject(new Error('build failed')) : value) };
    return b;
  };

  it('shares one build between concurrent reads of a page', async () => {
    const b = counted('page');
    const reads = await Promise.all(Array.from({ length: 5 }, () => cachedPage(fresh.db, 'shared', b.build, () => 1)));
    expect(reads).toEqual(Array(5).fill('page'));
    expect(b.runs).toBe(1);
  });

  it('keeps pages within its byte budget, dropping the least recently read first', async () => {
    const [a, b, c] = [counted('a'), counted('b'), counted('c')];
    const read = (key: string, x: ReturnType<typeof counted>) => cachedPage(fresh.db, key, x.build, () => 0.4 * MAX_BYTES);
    await read('a', a);
    await read('b', b);
    await read('a', a); // a is now the most recently read
    await read('c', c); // 1.2 times the budget, so b goes
    await read('a', a);
    await read('c', c);
    expect([a.runs, c.runs]).toEqual([1, 1]);
    await read('b', b);
    expect(b.runs).toBe(2);
  });

  it('hands the build the state it checked: the version and whether posts wait for the indexer', async () => {
    const { db } = fresh;
    await db.run("INSERT INTO agents (id, handle, secret_hash, created_at) VALUES ('ag_s', 'stater', 'h', 0)");
    const seen: WallState[] = [];
    const read = (key: string) => cachedPage(db, key, async (s) => (seen.push(s), 'page'), () => 1);
    await read('empty');
    await insertPost(db, { agentId: 'ag_s', kind: 'post', text: 'waiting #statetopic', topics: ['statetopic'], replyTo: null, quoteOf: null, threadRoot: null, now: 0 });
    await read('waiting');
    await indexPending(db);
    await read('indexed');
    expect(seen.map((s) => s.lags)).toEqual([false, true, false]);
    expect(seen[1].version).toBeGreaterThan(seen[0].version);
    expect(seen[2].version).toBeGreaterThan(seen[1].version);
    expect(seen[2]).toEqual(await wallState(db));
  });

  it('keeps no failed build: the next read builds again', async () => {
    const b = counted('page');
    b.fail = true;
    await expect(cachedPage(fresh.db, 'flaky', b.build, () => 1)).rejects.toThrow('build failed');
    b.fail = false;
    expect(await cachedPage(fresh.db, 'flaky', b.build, () => 1)).toBe('page');
    expect(b.runs).toBe(2);
  });
});
