// Every topic's first page is kept built (migration 020): a kept page must always be exactly the page a
// fresh build gives, whatever changed (posts, replies, quotes, reactions, deletions, agents leaving or
// renamed), a build overtaken by a change must not be stored, and reads must see their own writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations, type Migration } from '../../src/store/migrate.js';
import type { SqliteDb } from '../../src/store/sqlite.js';
import { indexPending } from '../../tools/wall/indexer.js';
import { insertPost, listPostsJson, type NewPost } from '../../tools/wall/store/posts.js';
import { buildTopicPage, KEPT_LIMIT, keptTopicPage, markOtherBases, staleCount, storeTopicPages } from '../../tools/wall/store/topic-pages.js';
import { pruneTopicCounts } from '../../tools/wall/store/topics.js';
import { buildStalePages } from '../../tools/wall/topic-pages.js';
import { api, register, startGateway, storeEnv, type TestGateway } from '../helpers/gateway.js';
import { migratedDb } from '../helpers/migrated-db.js';

const BASE = 'https://gw.example/wall/';
const TOPICS = ['alpha', 'beta', 'gamma'];
const HOUR = 3600_000;

/** A fresh build of the topic's first page, as the kept page must read. */
const fresh = async (db: SqliteDb, topic: string, base = BASE) => {
  const p = await listPostsJson(db, base, { since: 0, before: null, limit: KEPT_LIMIT, agentId: null, topic, followedBy: null });
  return { ...p, json: p.json.toString() };
};

/** Every current kept page (its topic not marked stale), compared with a fresh build of its topic; returns their counts. */
async function expectKeptPagesCurrent(db: SqliteDb): Promise<number[]> {
  const kept = await db.all<{ topic: string; count: number; newest: number | null; oldest: number | null; more: number; json: Buffer }>(
    'SELECT topic, count, newest, oldest, more, json FROM wall_topic_pages WHERE topic NOT IN (SELECT topic FROM wall_topic_stale)',
  );
  for (const k of kept) {
    expect({ topic: k.topic, json: k.json.toString(), count: k.count, newest: k.newest, oldest: k.oldest, more: k.more === 1 }).toEqual({ topic: k.topic, ...(await fresh(db, k.topic)) });
  }
  return kept.map((k) => k.count);
}

/** A migrated database with agents ann (ag_a), bo (ag_b) and cy (ag_c), removed after `fn`. */
async function withWall(fn: (db: SqliteDb) => Promise<void>, migrations?: Migration[]): Promise<void> {
  const { db, remove } = await migratedDb(migrations);
  try {
    await db.run("INSERT INTO agents (id, handle, secret_hash, created_at) VALUES ('ag_a', 'ann', 'h1', 0), ('ag_b', 'bo', 'h2', 0), ('ag_c', 'cy', 'h3', 0)");
    await fn(db);
  } finally {
    await remove();
  }
}

/** A post carrying `topics`, by ann unless `o` says otherwise. */
const postIn = (db: SqliteDb, topics: string[], o: Partial<NewPost> = {}, mentionIds: string[] = []) =>
  insertPost(db, { agentId: 'ag_a', kind: 'post', text: 'a post', topics, replyTo: null, quoteOf: null, threadRoot: null, now: 0, ...o }, mentionIds);

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('kept topic pages', () => {
  it('always equal a fresh build, through a random history of every kind of change', () =>
    withWall(async (db) => {
      const rand = rng(20);
      const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];
      // Quiet agents only write posts without topics and give no reactions: what a topic page shows of them
      // (a mention, a quoted post's author) changes only through their own handle or leaving.
      let agents: string[] = [];
      let nextAgent = 0;
      const addAgent = async (quiet: boolean) => {
        const id = `ag_${quiet ? 'q' : ''}${nextAgent}`;
        await db.run('INSERT INTO agents (id, handle, secret_hash, created_at) VALUES (?, ?, ?, 0)', [id, `agent-${nextAgent}`, `hash-${nextAgent++}`]);
        agents.push(id);
      };
      for (let i = 0; i < 10; i++) await addAgent(i % 2 === 0);
      const loud = () => agents.filter((a) => !a.startsWith('ag_q'));
      const posts = () => db.all<{ id: number; thread_root: number | null }>('SELECT id, thread_root FROM wall_posts');
      let fullest = 0;
      for (let step = 0; step < 800; step++) {
        const r = rand();
        const all = await posts();
        if (r < 0.45 || all.length < 5) {
          const parent = all.length && rand() < 0.2 ? pick(all) : null;
          const quoted = all.length && rand() < 0.15 ? pick(all) : null;
          const topics = [...new Set(Array.from({ length: Math.floor(rand() * 3) }, () => pick(TOPICS)))];
          const mentions = rand() < 0.3 ? [pick(agents)] : [];
          const links = { replyTo: parent?.id ?? null, quoteOf: quoted?.id ?? null, threadRoot: parent ? (parent.thread_root ?? parent.id) : null };
          await postIn(db, topics, { agentId: pick(topics.length ? loud() : agents), text: `post ${step}`, now: step * 60_000, ...links }, mentions);
        } else if (r < 0.6) await indexPending(db);
        else if (r < 0.72) await buildStalePages(db, BASE);
        else if (r < 0.84) {
          await db.run('INSERT OR IGNORE INTO wall_reactions (post_id, agent_id, kind, created_at) VALUES (?, ?, ?, 0)', [pick(all).id, pick(loud()), pick(['like', 'verified', 'thanks'])]);
        } else if (r < 0.9) {
          const given = await db.all<{ post_id: number; agent_id: string; kind: string }>('SELECT post_id, agent_id, kind FROM wall_reactions');
          if (given.length) {
            const x = pick(given);
            await db.run('DELETE FROM wall_reactions WHERE post_id = ? AND agent_id = ? AND kind = ?', [x.post_id, x.agent_id, x.kind]);
          }
        } else if (r < 0.96) await db.run('DELETE FROM wall_posts WHERE id = ?', [pick(all).id]);
        else if (r < 0.995) await db.run("UPDATE agents SET handle = handle || 'x' WHERE id = ?", [pick(agents)]);
        else {
          const gone = pick(agents);
          await db.run('DELETE FROM agents WHERE id = ?', [gone]);
          agents = agents.filter((a) => a !== gone);
          await addAgent(gone.startsWith('ag_q'));
        }
        fullest = Math.max(fullest, ...(await expectKeptPagesCurrent(db)));
      }
      // Pages were kept along the way, some of them full (more posts than a page).
      expect(fullest).toBe(KEPT_LIMIT);
      // Once indexed and built, every counted topic has its page and none is stale.
      await indexPending(db);
      await buildStalePages(db, BASE);
      expect(await staleCount(db)).toBe(0);
      const topics = (await db.all<{ topic: string }>('SELECT topic FROM wall_topics ORDER BY topic')).map((t) => t.topic);
      expect((await db.all<{ topic: string }>('SELECT topic FROM wall_topic_pages ORDER BY topic')).map((t) => t.topic)).toEqual(topics);
      expect((await expectKeptPagesCurrent(db)).length).toBe(topics.length);
    }));

  it('store no page whose topic changed while it was being built', () =>
    withWall(async (db) => {
      const id = await postIn(db, ['alpha']);
      await indexPending(db);
      const built = await buildTopicPage(db, BASE, 'alpha');
      // A reaction lands between the build and its store: the built page lacks it.
      await db.run("INSERT INTO wall_reactions (post_id, agent_id, kind, created_at) VALUES (?, 'ag_a', 'like', 0)", [id]);
      expect(await storeTopicPages(db, BASE, [built])).toBe(0);
      expect((await keptTopicPage(db, BASE, 'alpha')).page).toBeUndefined();
      expect(await staleCount(db)).toBe(1);
      // The next build has it, and is stored.
      expect(await buildStalePages(db, BASE)).toBe(1);
      const kept = (await keptTopicPage(db, BASE, 'alpha')).page!;
      expect(JSON.parse(kept.json.toString())[0].reactions.like).toBe(1);
      // A reaction on a post not on the page (older than its oldest) leaves the page alone.
      for (let i = 0; i < KEPT_LIMIT; i++) {
        await postIn(db, ['alpha']);
      }
      await indexPending(db);
      await buildStalePages(db, BASE);
      await db.run("INSERT INTO wall_reactions (post_id, agent_id, kind, created_at) VALUES (?, 'ag_a', 'thanks', 0)", [id]);
      expect(await staleCount(db)).toBe(0);
      expect((await keptTopicPage(db, BASE, 'alpha')).page!.more).toBe(true);
    }));

  it('follow an agent renamed or leaving that the page names only in a mention or a quoted post', () =>
    withWall(async (db) => {
      const quoted = await postIn(db, []);
      await postIn(db, ['alpha'], { agentId: 'ag_b', text: 'see @cy', quoteOf: quoted }, ['ag_c']);
      await indexPending(db);
      await buildStalePages(db, BASE);
      const shown = async () => {
        const [p] = JSON.parse((await keptTopicPage(db, BASE, 'alpha')).page?.json.toString() ?? '[{}]');
        return { quoted: p.quoted?.handle, mentions: p.mentions };
      };
      expect(await shown()).toEqual({ quoted: 'ann', mentions: ['cy'] });
      // By hand: no route renames an agent.
      await db.run("UPDATE agents SET handle = 'ann-2' WHERE id = 'ag_a'");
      expect(await shown()).toEqual({ quoted: undefined, mentions: undefined });
      await buildStalePages(db, BASE);
      expect(await shown()).toEqual({ quoted: 'ann-2', mentions: ['cy'] });
      await db.run("UPDATE agents SET handle = 'cy-2' WHERE id = 'ag_c'");
      expect(await staleCount(db)).toBe(1);
      await buildStalePages(db, BASE);
      expect(await shown()).toEqual({ quoted: 'ann-2', mentions: ['cy-2'] });
      await db.run("DELETE FROM agents WHERE id = 'ag_c'");
      expect(await staleCount(db)).toBe(1);
      await buildStalePages(db, BASE);
      expect(await shown()).toEqual({ quoted: 'ann-2', mentions: [] });
      await db.run("DELETE FROM agents WHERE id = 'ag_a'");
      await buildStalePages(db, BASE);
      expect(await shown()).toEqual({ quoted: undefined, mentions: [] });
    }));

  it('build the topics reads asked for first, only those while the wall is busy, and stop between rounds when told to', () =>
    withWall(async (db) => {
      for (let i = 0; i < 40; i++) {
        await postIn(db, [`t${i}`]);
      }
      await indexPending(db);
      // While the wall is busy, only the wanted topics, without a pause once they are done.
      const pauses: number[] = [];
      const busy = { wanted: new Set(['t39']), busy: () => true, pause: async (ms: number) => void pauses.push(ms) };
      expect(await buildStalePages(db, BASE, busy)).toBe(1);
      expect({ pauses, stale: await staleCount(db) }).toEqual({ pauses: [], stale: 39 });
      // Quiet, stopped after its first round of sixteen: the two wanted, then the fourteen longest stale (one
      // batch marks its topics in name order).
      const stop = new AbortController();
      stop.abort();
      expect(await buildStalePages(db, BASE, { wanted: new Set(['t37', 't38']), signal: stop.signal })).toBe(16);
      const longest = Array.from({ length: 37 }, (_, i) => `t${i}`).sort().slice(0, 14);
      const built = (await db.all<{ topic: string }>('SELECT topic FROM wall_topic_pages ORDER BY topic')).map((t) => t.topic);
      expect(built).toEqual(['t37', 't38', 't39', ...longest].sort());
      expect(await staleCount(db)).toBe(23);
    }));

  it('are read only for the base URL they were built for, and rebuilt for a new one', () =>
    withWall(async (db) => {
      await postIn(db, ['alpha', 'beta']);
      await indexPending(db);
      expect(await buildStalePages(db, BASE)).toBe(2);
      const other = 'http://127.0.0.1:4000/wall/';
      expect((await keptTopicPage(db, other, 'alpha')).page).toBeUndefined();
      await markOtherBases(db, other);
      expect(await staleCount(db)).toBe(2);
      expect(await buildStalePages(db, other)).toBe(2);
      const page = (await keptTopicPage(db, other, 'alpha')).page!;
      expect(JSON.parse(page.json.toString())[0].url).toMatch(/^http:\/\/127\.0\.0\.1:4000\/wall\/\d+$/);
      expect({ ...page, json: page.json.toString() }).toEqual(await fresh(db, 'alpha', other));
    }));

  it('say when posts wait for the indexer, so a read builds the page with them', () =>
    withWall(async (db) => {
      await postIn(db, ['alpha']);
      await indexPending(db);
      await buildStalePages(db, BASE);
      expect(await keptTopicPage(db, BASE, 'alpha')).toMatchObject({ lags: false, page: { count: 1 } });
      await postIn(db, ['alpha']);
      expect(await keptTopicPage(db, BASE, 'alpha')).toMatchObject({ lags: true, page: { count: 1 } });
    }));

  it('are dropped with topics the hourly prune drops, and marked for every topic at migration', () =>
    withWall(async (db) => {
      await postIn(db, ['old']);
      await postIn(db, ['new'], { now: 800 * HOUR });
      await indexPending(db);
      await migrate(db);
      expect(await staleCount(db)).toBe(2);
      expect(await buildStalePages(db, BASE)).toBe(2);
      await pruneTopicCounts(db, 801);
      expect((await db.all<{ topic: string }>('SELECT topic FROM wall_topic_pages')).map((t) => t.topic)).toEqual(['new']);
    }, readMigrations().filter((m) => m.version < 20)));
});

describe('kept topic pages through the API', () => {
  let gw: TestGateway;
  let other: TestGateway;
  let ann: { handle: string; secret: string };
  let bo: { handle: string; secret: string };
  beforeAll(async () => {
    gw = await startGateway();
    other = await startGateway({ dataDir: gw.dataDir, clock: gw.clock });
    ann = await register(gw.url, 'kept-ann');
    bo = await register(gw.url, 'kept-bo');
  });
  afterAll(async () => {
    await other.stop();
    await gw.cleanup();
  });

  const topicPage = async (g: TestGateway) => (await api(g.url, 'GET', '/wall?topic=kept&limit=50')).body;
  /**
   * Waits until a builder has kept the page (they run in the background), and returns it with the gateway
   * whose base URL it was built for (two processes on one database, on two ports: either may build it).
   */
  async function keptPage() {
    // A connection of its own to the gateways' database (their SQLite file, or their PostgreSQL database).
    const { openDatabase } = await import('../../src/store/open.js');
    const db = await openDatabase({ dataDir: gw.dataDir, database: { url: storeEnv(gw.dataDir).GATEWAY_DATABASE_URL, poolSize: 2, preparedStatements: 0 } });
    try {
      for (let i = 0; i < 200; i++) {
        for (const g of [gw, other]) {
          const { page } = await keptTopicPage(db, `${g.url}/wall/`, 'kept');
          if (page) return { g, posts: JSON.parse(page.json.toString()) };
        }
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('the page was never built');
    } finally {
      await db.close();
    }
  }

  it('serve the built page, and every write on the very next read, in this process and another', async () => {
    const p = (await api(gw.url, 'POST', '/wall', { body: { text: 'kept #kept' }, secret: ann.secret })).body;
    expect((await topicPage(gw)).posts.map((x: { post_id: number }) => x.post_id)).toEqual([p.post_id]);
    const kept = await keptPage();
    expect((await topicPage(kept.g)).posts).toEqual(kept.posts);

    await api(gw.url, 'POST', `/wall/${p.post_id}/react`, { body: { reaction: 'verified' }, secret: bo.secret });
    for (const g of [gw, other]) expect((await topicPage(g)).posts[0].reactions.verified).toBe(1);
    expect((await keptPage()).posts[0].reactions.verified).toBe(1);

    gw.clock.advance(61_000);
    const q = (await api(other.url, 'POST', '/wall', { body: { text: `quoting #kept`, quote_of: p.post_id }, secret: bo.secret })).body;
    for (const g of [gw, other]) {
      const page = await topicPage(g);
      expect(page.posts.map((x: { post_id: number }) => x.post_id)).toEqual([q.post_id, p.post_id]);
      expect(page).toMatchObject({ count: 2, newest_id: q.post_id, oldest_id: p.post_id, more: false, topic: 'kept' });
    }
    await keptPage();
    await api(gw.url, 'DELETE', `/wall/${p.post_id}`, { secret: ann.secret });
    for (const g of [gw, other]) {
      const [quote, ...rest] = (await topicPage(g)).posts;
      expect(rest).toEqual([]);
      expect(quote).toMatchObject({ post_id: q.post_id, quoted: null });
    }
  });
});
