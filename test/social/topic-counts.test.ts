// The prefix-sum topic counts (kept by triggers as the wall indexer adds topic rows in batches) agree with
// counting the posts themselves, for any window, after out-of-order writes, deletions of indexed and
// not-yet-indexed posts, and pruning.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteDb } from '../../src/store/sqlite.js';
import { catchUp, indexPending } from '../../tools/wall/indexer.js';
import { insertPost } from '../../tools/wall/store/posts.js';
import { pruneTopicCounts, topicPosts, topTopics } from '../../tools/wall/store/topics.js';
import { migratedDb, type MigratedDb } from '../helpers/migrated-db.js';

const HOUR = 3600_000;
let store: MigratedDb;
let db: SqliteDb;

beforeAll(async () => {
  store = await migratedDb();
  db = store.db;
  await db.run("INSERT INTO agents (id, handle, secret_hash, created_at) VALUES ('ag_t', 'topic-tester', 'h', 0)");
});
afterAll(async () => store.remove());

/** The truth: posts per topic from `fromHour`, counted from the posts' own topic lists. */
async function brute(fromHour: number, limit = 1000) {
  return db.all<{ topic: string; posts: number }>(
    `SELECT j.value AS topic, COUNT(*) AS posts FROM wall_posts p, json_each(p.topics) j WHERE p.created_at / 3600000 >= ?
     GROUP BY j.value ORDER BY posts DESC, topic LIMIT ?`,
    [fromHour, limit],
  );
}

/** Both ranking strategies (read every live topic; busiest first with early stop) against the truth, after the catch-up every reader does. */
async function agree(now: number, what: string) {
  await catchUp(db);
  for (const window of [1, 5, 24, 25, 100, 168, 169, 300, 720]) {
    for (const limit of [1, 3, 10, 1000]) {
      const truth = await brute(now - window + 1, limit);
      const where = `${what}: now ${now}, window ${window}, limit ${limit}`;
      expect(await topTopics(db, now, window, limit), `${where}, direct`).toEqual(truth);
      expect(await topTopics(db, now, window, limit, { directMax: 0 }), `${where}, busiest first, growing chunks`).toEqual(truth);
      for (const chunk of [2, 7, 250]) expect(await topTopics(db, now, window, limit, { directMax: 0, chunk }), `${where}, busiest first by ${chunk}`).toEqual(truth);
    }
  }
}

describe('topic counts', () => {
  it('match a direct count for every window, with out-of-order writes, deletions and pruning', async () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    // A skewed spread over 40 topics, so the busiest-first search has something to skip.
    const topics = Array.from({ length: 40 }, (_, i) => `t${i}`);
    const ids: number[] = [];
    for (let i = 0; i < 400; i++) {
      // Mostly in time order, one in ten written into an earlier hour.
      const hour = rand() < 0.1 ? Math.floor(rand() * i * 0.5) : Math.floor(i * 0.5);
      const picked = [...new Set(Array.from({ length: 3 }, () => topics[Math.floor(rand() * rand() * topics.length)]))];
      ids.push(await insertPost(db, { agentId: 'ag_t', kind: 'post', text: 'x', topics: picked, replyTo: null, quoteOf: null, threadRoot: null, now: hour * HOUR + 1 }));
      // The first half is indexed before the deletions below, the second half after them.
      if (i === 199) await indexPending(db);
    }
    expect((await brute(0)).length).toBeGreaterThan(10);
    for (const id of ids.filter(() => rand() < 0.15)) await db.run('DELETE FROM wall_posts WHERE id = ?', [id]);
    for (const now of [150, 199, 230, 500]) await agree(now, 'written');
    for (const from of [0, 50, 120, 199]) {
      for (const t of topics.slice(0, 5)) expect(await topicPosts(db, t, from)).toBe((await brute(from)).find((r) => r.topic === t)?.posts ?? 0);
    }
    // Hourly upkeep at hour 210 rebases the bounds on real history (day from 186, week from 42); then posts
    // deleted from before and after the bases and new ones written (some out of order): still exact.
    await pruneTopicCounts(db, 210);
    for (const now of [210, 215]) await agree(now, 'rebased');
    const old = await db.all<{ id: number }>('SELECT id FROM wall_posts WHERE created_at < ? ORDER BY id LIMIT 20', [20 * HOUR]);
    const recent = await db.all<{ id: number }>('SELECT id FROM wall_posts WHERE created_at > ? ORDER BY id LIMIT 20', [190 * HOUR]);
    for (const { id } of [...old, ...recent]) await db.run('DELETE FROM wall_posts WHERE id = ?', [id]);
    for (const hour of [212, 213, 100, 30, 195]) {
      await insertPost(db, { agentId: 'ag_t', kind: 'post', text: 'x', topics: ['t0', 'z'], replyTo: null, quoteOf: null, threadRoot: null, now: hour * HOUR });
    }
    for (const now of [213, 220]) await agree(now, 'after more writes');
    // At hour 900 the upkeep drops rows before hour 156 (one baseline per topic stays): windows from there on
    // stay exact, and a topic unused for 744 hours goes entirely.
    await insertPost(db, { agentId: 'ag_t', kind: 'post', text: 'x', topics: ['t1', 'late'], replyTo: null, quoteOf: null, threadRoot: null, now: 899 * HOUR });
    await pruneTopicCounts(db, 900);
    for (const now of [900, 905]) await agree(now, 'pruned');
    expect((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM wall_topics WHERE last_hour < 156'))!.n).toBe(0);
    expect(await db.all('SELECT topic FROM wall_topic_cum WHERE hour < 156 GROUP BY topic HAVING COUNT(*) > 1')).toEqual([]);
  });
});
