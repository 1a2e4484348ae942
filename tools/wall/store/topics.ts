// SQL for topics: counts in a window from the per-topic prefix sums kept on write, ranked either by reading
// every topic used in the window or, when there are many, busiest first (by an upper bound) until no other
// topic can reach the top; and the hourly pruning and rebasing of those bounds.
import type { Db } from '../../../src/store/db.js';

// Posts of topic t from hour ?1 on: its running total minus its count at the last hour before the window.
const IN_WINDOW = 't.total - coalesce((SELECT c.cum FROM wall_topic_cum c WHERE c.topic = t.topic AND c.hour < ?1 ORDER BY c.hour DESC LIMIT 1), 0)';

/** Bound horizons (hours) and the column holding each one's base; a window uses the smallest that covers it. */
export const HORIZONS = [
  { hours: 24, base: 'base_day' },
  { hours: 168, base: 'base_week' },
  { hours: 744, base: 'base_month' },
] as const;

/** Prefix-sum rows older than this many hours are dropped (one baseline per topic is kept). */
export const KEEP_HOURS = 744;

/** Above this many topics used in the window, ranking reads busiest first and stops early. */
export const DIRECT_MAX = 1000;
/** Busiest-first reads start with a few times the limit and double while the ranking is still open. */
const FIRST_CHUNK_PER_RESULT = 4;

type Ranked = { topic: string; posts: number };
const byRank = (a: Ranked, b: Ranked) => b.posts - a.posts || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0);

/**
 * Topics ranked by posts in the `windowHours` (≤ 720) ending with hour `nowHour` (UTC hours since the epoch);
 * ties by name.
 */
export async function topTopics(db: Db, nowHour: number, windowHours: number, limit: number, o: { directMax?: number; chunk?: number } = {}): Promise<Ranked[]> {
  const fromHour = nowHour - windowHours + 1;
  const directMax = o.directMax ?? DIRECT_MAX;
  let chunk = o.chunk ?? Math.max(50, limit * FIRST_CHUNK_PER_RESULT);
  // Counting stops past directMax: only whether there are more matters.
  const live = (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM (SELECT 1 AS one FROM wall_topics WHERE last_hour >= ? LIMIT ?) AS live', [fromHour, directMax + 1]))?.n ?? 0;
  if (live <= directMax) {
    return db.all<Ranked>(
      `SELECT topic, posts FROM (SELECT t.topic, ${IN_WINDOW} AS posts FROM wall_topics t WHERE t.last_hour >= ?1) AS counted
       WHERE posts > 0 ORDER BY posts DESC, topic LIMIT ?2`,
      [fromHour, limit],
      { heavy: true },
    );
  }
  // total - base counts the posts since the horizon began, which covers the window: once that bound falls
  // below the current limit-th count, no later topic can enter the ranking.
  const bound = `t.total - t.${HORIZONS.find((h) => windowHours <= h.hours)!.base}`;
  const best: Ranked[] = [];
  let after: { bound: number; topic: string } | null = null;
  for (;;) {
    const rows: (Ranked & { bound: number })[] = after
      ? await db.all(
          `SELECT t.topic, ${bound} AS bound, ${IN_WINDOW} AS posts FROM wall_topics t
           WHERE ${bound} <= ?3 AND (${bound} < ?3 OR t.topic > ?4) AND t.last_hour >= ?1
           ORDER BY ${bound} DESC, t.topic LIMIT ?2`,
          [fromHour, chunk, after.bound, after.topic],
          { heavy: true },
        )
      : await db.all(
          `SELECT t.topic, ${bound} AS bound, ${IN_WINDOW} AS posts FROM wall_topics t
           WHERE t.last_hour >= ?1 ORDER BY ${bound} DESC, t.topic LIMIT ?2`,
          [fromHour, chunk],
          { heavy: true },
        );
    for (const r of rows) if (r.posts > 0) best.push({ topic: r.topic, posts: r.posts });
    best.sort(byRank);
    best.length = Math.min(best.length, limit);
    if (rows.length < chunk) break;
    const last = rows[rows.length - 1];
    after = { bound: last.bound, topic: last.topic };
    if (best.length === limit && last.bound < best[limit - 1].posts) break;
    if (!o.chunk) chunk *= 2;
  }
  return best;
}

/** Posts of one topic from `fromHour` on. */
export const topicPosts = async (db: Db, topic: string, fromHour: number): Promise<number> =>
  (await db.get<{ n: number }>(`SELECT ${IN_WINDOW} AS n FROM wall_topics t WHERE t.topic = ?2 AND t.last_hour >= ?1`, [fromHour, topic]))?.n ?? 0;

const baseAt = (hours: number) =>
  `coalesce((SELECT c.cum FROM wall_topic_cum c WHERE c.topic = wall_topics.topic AND c.hour < ?1 - ${hours} ORDER BY c.hour DESC LIMIT 1), 0)`;

/**
 * Hourly upkeep at hour `nowHour`: drops what no window can reach (topics unused for KEEP_HOURS entirely, with
 * their kept pages; for the others every prefix-sum row older than that but the newest, the baseline of the
 * widest window), then rebases each topic's bounds on its counts at the start of each horizon.
 */
export async function pruneTopicCounts(db: Db, nowHour: number): Promise<void> {
  const cutoff = nowHour - KEEP_HOURS;
  await db.transaction(async (tx) => {
    await tx.run('DELETE FROM wall_topic_cum WHERE topic IN (SELECT topic FROM wall_topics WHERE last_hour < ?)', [cutoff]);
    await tx.run('DELETE FROM wall_topics WHERE last_hour < ?', [cutoff]);
    // Pages are kept for the topics still counted; a read of another topic builds its page live.
    await tx.run('DELETE FROM wall_topic_pages WHERE topic NOT IN (SELECT topic FROM wall_topics)');
    await tx.run('DELETE FROM wall_topic_stale WHERE topic NOT IN (SELECT topic FROM wall_topics)');
    await tx.run(
      `DELETE FROM wall_topic_cum WHERE hour < ?1
         AND hour < (SELECT MAX(c.hour) FROM wall_topic_cum c WHERE c.topic = wall_topic_cum.topic AND c.hour < ?1)`,
      [cutoff],
    );
    await tx.run(`UPDATE wall_topics SET rebased_hour = ?1, ${HORIZONS.map((h) => `${h.base} = ${baseAt(h.hours)}`).join(', ')}`, [nowHour]);
  });
}
