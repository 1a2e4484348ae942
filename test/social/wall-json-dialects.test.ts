// The wall's JSON is built inside the database, by different SQL on SQLite (json_object, strftime) and on
// PostgreSQL (json_build_object, to_char): the same writes on both must read back as the same posts, with the
// same keys in the same order and the same timestamps (issue 25). Needs a PostgreSQL server: the global setup's
// under GATEWAY_TEST_STORE=postgres, else one started here; skipped when none is installed.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { migratePostgres } from '../../src/store/pg-migrate.js';
import { PgDb } from '../../src/store/postgres.js';
import { addFollow } from '../../tools/social/store/follows.js';
import { listNotifications, addNotification } from '../../tools/notifications/store.js';
import { addReaction } from '../../tools/wall/store/reactions.js';
import { standingOf } from '../../tools/wall/store/stats.js';
import { deletePost, indexBatch, insertPost, listPostsJson, postsJson, searchPosts, threadJson, type ListQuery, type NewPost } from '../../tools/wall/store/posts.js';
import { buildTopicPage } from '../../tools/wall/store/topic-pages.js';
import { topTopics } from '../../tools/wall/store/topics.js';
import { appendLedger, existingAwards } from '../../tools/xp/store.js';
import { storeEnv, tempDir } from '../helpers/gateway.js';
import { migratedDb, type MigratedDb } from '../helpers/migrated-db.js';
import { hasPostgres, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const BASE = 'http://127.0.0.1:1/wall/';
let lite: MigratedDb;
let pgdb: PgDb;
let server: TestPostgres | undefined;
const dir = tempDir();

/** The same history on a database: agents, posts with mentions, quotes (one of a long text, one of a deleted post), replies, reactions, a follow. */
async function history(db: Db): Promise<Record<string, number>> {
  await db.run(
    "INSERT INTO agents (id, handle, secret_hash, created_at) VALUES ('ag_a', 'alice', 'h1', 0), ('ag_b', 'bob', 'h2', 0), ('ag_c', 'carol-x', 'h3', 0), ('ag_d', 'carol_x', 'h4', 0)",
  );
  const post = (o: Partial<NewPost>, mentions: string[] = []) =>
    insertPost(db, { agentId: 'ag_a', kind: 'post', text: 'x', topics: [], replyTo: null, quoteOf: null, threadRoot: null, now: 0, ...o }, mentions);
  const long = `${'Zeppelin telemetry "quoted" \\ back\tslash\n'.repeat(8)}☕ é 日本語 🎈`;
  const root = await post({ text: long, topics: ['airships', 'telemetry'], now: 1_700_000_000_123 }, ['ag_b', 'ag_d', 'ag_c']);
  const reply = await post({ agentId: 'ag_b', kind: 'question', text: 'Does it arrive hourly? #airships', topics: ['airships'], replyTo: root, threadRoot: root, now: 1_700_000_060_999 });
  const quote = await post({ agentId: 'ag_c', kind: 'result', text: 'quoting the zeppelin', topics: ['airships'], quoteOf: root, now: 1_700_000_061_000 });
  const gone = await post({ text: 'soon gone', topics: ['telemetry'], now: 1_700_000_062_001 });
  const orphan = await post({ agentId: 'ag_b', text: 'quote of a deleted post, see example.com/zeppelin_log or ops@example.org', quoteOf: gone, now: 1_700_003_600_000 });
  const deep = await post({ text: 'deeper reply', replyTo: reply, threadRoot: root, now: 1_700_003_600_500 });
  while ((await indexBatch(db, 2)) > 0);
  await deletePost(db, gone, 'ag_a');
  for (const [agent, kind] of [['ag_b', 'like'], ['ag_b', 'verified'], ['ag_c', 'verified'], ['ag_c', 'thanks']] as const) await addReaction(db, root, agent, kind, 5);
  await addReaction(db, root, 'ag_b', 'like', 6);
  await addFollow(db, 'ag_b', 'ag_a', 7);
  return { root, reply, quote, orphan, deep };
}

/** The JSON as text again: equal only when the values, the keys and their order are. */
const canonical = (json: string | Buffer) => JSON.stringify(JSON.parse(json.toString()));

describe.skipIf(!hasPostgres)('wall JSON on SQLite and PostgreSQL', () => {
  let ids: Record<string, number>;
  beforeAll(async () => {
    lite = await migratedDb();
    let url = storeEnv(dir).GATEWAY_DATABASE_URL;
    if (!url) {
      server = await startPostgres();
      url = await server.createDatabase('wall_json');
    }
    pgdb = await PgDb.open(url, { max: 2 });
    await migratePostgres(pgdb);
    ids = await history(lite.db);
    expect(await history(pgdb)).toEqual(ids);
  });
  afterAll(async () => {
    await pgdb?.close();
    await lite?.remove();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const both = async <T>(f: (db: Db) => Promise<T>): Promise<[T, T]> => [await f(lite.db), await f(pgdb)];

  it('posts by id and threads', async () => {
    const [a, b] = await both((db) => postsJson(db, BASE, Object.values(ids)));
    expect(JSON.parse(a)).toHaveLength(5);
    expect(canonical(b)).toBe(canonical(a));
    const [posts] = [JSON.parse(a)];
    expect(posts[0].mentions).toEqual(['bob', 'carol-x', 'carol_x']);
    expect(posts[0].created_at).toBe('2023-11-14T22:13:20.123Z');
    expect(posts[2].quoted.text.endsWith('…')).toBe(true);
    const [ta, tb] = await both((db) => threadJson(db, BASE, ids.root, 50));
    expect(JSON.parse(ta)).toHaveLength(2);
    expect(canonical(tb)).toBe(canonical(ta));
  });

  it('pages, with every filter, limits and cursors', async () => {
    const queries: ListQuery[] = [];
    for (const limit of [1, 2, 50])
      for (const q of [
        {},
        { topic: 'airships' },
        { topic: 'telemetry' },
        { since: ids.root },
        { since: ids.reply, topic: 'airships' },
        { before: ids.deep },
        { before: ids.orphan, topic: 'airships' },
        { agentId: 'ag_b' },
        { followedBy: 'ag_b' },
        { followedBy: 'ag_b', since: ids.root, before: ids.deep },
        { topic: 'nothing' },
      ])
        queries.push({ since: 0, before: null, agentId: null, topic: null, followedBy: null, limit, ...q });
    for (const q of queries) {
      const [a, b] = await both((db) => listPostsJson(db, BASE, q));
      expect({ ...b, json: canonical(b.json) }, JSON.stringify(q)).toEqual({ ...a, json: canonical(a.json) });
    }
    const [a, b] = await both((db) => buildTopicPage(db, BASE, 'airships'));
    expect(canonical(b.json)).toBe(canonical(a.json));
    expect({ ...b, json: null, gen: null }).toEqual({ ...a, json: null, gen: null });
  });

  it('search, topics, standing, XP and notifications', async () => {
    const [sa, sb] = await both((db) => searchPosts(db, '"zeppelin"', 10));
    expect(sb.map((r) => r.id)).toEqual(sa.map((r) => r.id));
    expect(sb.map((r) => JSON.parse(r.topics))).toEqual(sa.map((r) => JSON.parse(r.topics)));
    for (const q of ['"zep"*', '"example"', '"ops" "org"', '"zeppelin_log"', '"log"', '"__"', '"missing"']) {
      const [pa, pb] = await both((db) => searchPosts(db, q, 10));
      expect(pb.map((r) => r.id).sort(), q).toEqual(pa.map((r) => r.id).sort());
    }
    expect((await searchPosts(lite.db, '"example"', 10)).map((r) => r.id)).toEqual([ids.orphan]);
    const hour = Math.floor(1_700_003_600_500 / 3_600_000);
    for (const o of [{}, { directMax: 0, chunk: 1 }]) {
      const [ta, tb] = await both((db) => topTopics(db, hour, 24, 10, o));
      expect(tb).toEqual(ta);
    }
    const [st, stb] = await both((db) => standingOf(db, 'ag_a'));
    expect(stb).toEqual(st);
    const items = [
      { rule: 'post', ref: 'p1', points: 2 },
      { rule: 'post', ref: 'p1', points: 2 },
      { rule: 'react', ref: 'r1', points: 1 },
    ];
    const [la, lb] = await both((db) => appendLedger(db.dialect, db, 'ag_a', items, 9));
    expect(lb).toEqual(la);
    const [ea, eb] = await both(async (db) => [...(await existingAwards(db, 'ag_a', items))].sort());
    expect(eb).toEqual(ea);
    const [na, nb] = await both(async (db) => {
      await addNotification(db, 'ag_a', { kind: 'mention', title: 't', data: { from: 'ag_b' } }, 10, true);
      await addNotification(db, 'ag_a', { kind: 'mention', title: 't', data: { from: 'ag_b' } }, 11, true);
      await addNotification(db, 'ag_a', { kind: 'follow', title: 'f', data: {} }, 12);
      return [
        await listNotifications(db, 'ag_a', { limit: 10, offset: 0, unreadOnly: false, kind: null }),
        await listNotifications(db, 'ag_a', { limit: 10, offset: 0, unreadOnly: true, kind: 'mention' }),
      ].map((rows) => rows.map((r) => ({ ...r, data: JSON.parse(r.data) })));
    });
    expect(nb).toEqual(na);
    expect(na[0]).toHaveLength(2);
  });
});
