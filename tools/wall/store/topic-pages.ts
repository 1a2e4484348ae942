// SQL for the kept first pages of topics (migration 020): read one, list the stale topics, build a stale
// topic's page with the mark it was built for, store pages whose topic was not marked again meanwhile, and
// mark pages built for another base URL.
import type { Db } from '../../../src/store/db.js';
import { LAGS, pageQuery, type PostsPage } from './posts.js';

/** The page size kept: the default (and the usual) page of GET /wall?topic=. */
export const KEPT_LIMIT = 50;

/**
 * The topic's kept first page for this base URL (undefined: none current), whether the topic waits for its
 * page to be built, and whether posts wait for the indexer (one of them may carry the topic, so the page may
 * lack it). One statement, read on the event loop: a single row.
 */
export async function keptTopicPage(db: Db, baseUrl: string, topic: string): Promise<{ page?: PostsPage; stale: boolean; lags: boolean }> {
  const row = await db.get<Omit<PostsPage, 'more'> & { more: number; stale: number; lags: number }>(
    `SELECT json, count, newest, oldest, more, CASE WHEN EXISTS (SELECT 1 FROM wall_topic_stale WHERE topic = ?1) THEN 1 ELSE 0 END AS stale, ${LAGS} AS lags
     FROM (SELECT 1 AS one) AS one_ LEFT JOIN wall_topic_pages ON topic = ?1 AND base = ?2`,
    [topic, baseUrl],
  );
  const { stale, lags, more, ...page } = row!;
  return { page: page.json === null || stale === 1 ? undefined : { ...page, more: more === 1 }, stale: stale === 1, lags: lags === 1 };
}

/** Stale topics, longest stale first, with the mark each carries. */
export const staleTopics = (db: Db, limit: number) =>
  db.all<{ topic: string; gen: number }>('SELECT topic, gen FROM wall_topic_stale ORDER BY gen LIMIT ?', [limit]);

/** A built page with the topic's mark read in the same snapshot (null: no longer stale). */
export type BuiltPage = Omit<PostsPage, 'more'> & { more: number; topic: string; gen: number | null };

const build = (dialect: Db['dialect']) => `SELECT (SELECT gen FROM wall_topic_stale WHERE topic = ?2) AS gen, page_.* FROM (${pageQuery(['topic'], dialect)}) AS page_`;
const BUILD = { sqlite: build('sqlite'), postgres: build('postgres') };

/** Builds a topic's first page on a reader thread, with its mark as of the same snapshot. */
export async function buildTopicPage(db: Db, baseUrl: string, topic: string): Promise<BuiltPage> {
  const row = (await db.get<Omit<BuiltPage, 'topic'>>(BUILD[db.dialect], [baseUrl, topic, KEPT_LIMIT], { heavy: true }))!;
  return { ...row, topic };
}

/** Stores the built pages whose topic still carries the mark it was built for, and clears it; returns how many. */
export async function storeTopicPages(db: Db, baseUrl: string, pages: BuiltPage[]): Promise<number> {
  const fresh = pages.filter((p) => p.gen !== null);
  if (fresh.length === 0) return 0;
  const results = (await db.batch(
    fresh.flatMap((p) => [
      {
        sql: `INSERT INTO wall_topic_pages (topic, base, count, newest, oldest, more, json)
          SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE EXISTS (SELECT 1 FROM wall_topic_stale WHERE topic = ?1 AND gen = ?8)
          ON CONFLICT (topic) DO UPDATE SET base = excluded.base, count = excluded.count, newest = excluded.newest,
            oldest = excluded.oldest, more = excluded.more, json = excluded.json`,
        params: [p.topic, baseUrl, p.count, p.newest, p.oldest, p.more, p.json, p.gen],
      },
      { sql: 'DELETE FROM wall_topic_stale WHERE topic = ? AND gen = ?', params: [p.topic, p.gen] },
    ]),
  )) as { changes: number }[];
  return results.filter((r, i) => i % 2 === 0 && r.changes === 1).length;
}

/** Marks every page built for another base URL stale (the base follows the bound port unless configured). */
export async function markOtherBases(db: Db, baseUrl: string): Promise<void> {
  await db.run('INSERT INTO wall_topic_changes (topic, post_id) SELECT topic, NULL FROM wall_topic_pages WHERE base <> ?', [baseUrl]);
}

/** How many topics wait for their page (the bench waits for none). */
export const staleCount = async (db: Db): Promise<number> => (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM wall_topic_stale'))?.n ?? 0;
