// SQL for wall posts: write one (counters follow by trigger, topics and the search index in batches), read
// pages newest first or after a since_id, threads and search. Reads build each post's JSON inside SQLite.
import type { Db, Queryable } from '../../../src/store/db.js';

export interface NewPost {
  agentId: string;
  kind: string;
  text: string;
  topics: string[];
  replyTo: number | null;
  quoteOf: number | null;
  threadRoot: number | null;
  now: number;
}

const INSERT_POST = {
  sqlite: `INSERT INTO wall_posts (agent_id, handle, kind, text, topics, reply_to, quote_of, thread_root, created_at, mention_ids)
      VALUES (?1, (SELECT handle FROM agents WHERE id = ?1), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING id`,
  // The indexer's mark is read FOR SHARE, before the post takes its id: an index batch's ceiling (indexBatch, read
  // with the mark FOR UPDATE) waits for posts being written, so one whose id was handed out before a higher one's
  // but commits after it is never skipped. SQLite has one writer: its posts are committed in id order.
  postgres: `INSERT INTO wall_posts (agent_id, handle, kind, text, topics, reply_to, quote_of, thread_root, created_at, mention_ids)
      SELECT ?1, (SELECT handle FROM agents WHERE id = ?1), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9
      FROM wall_counters WHERE name = 'fts_indexed' FOR SHARE RETURNING id`,
};

/**
 * Writes a post with its mentions in one statement and returns its id; triggers fill counters and the
 * mentions of agents that still exist (an agent deleted meanwhile is skipped, not an error). Its topics and
 * search entry follow in the wall indexer's next batch (indexBatch).
 */
export async function insertPost(db: Db, p: NewPost, mentionIds: string[] = []): Promise<number> {
  const row = await db.get<{ id: number }>(INSERT_POST[db.dialect], [
    p.agentId,
    p.kind,
    p.text,
    JSON.stringify(p.topics),
    p.replyTo,
    p.quoteOf,
    p.threadRoot,
    p.now,
    mentionIds.length ? JSON.stringify(mentionIds) : null,
  ]);
  return row!.id;
}

/** Epoch ms as ISO 8601 with milliseconds, as Date.toISOString() writes it (%f is seconds with three decimals). */
const ISO = (c: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${c} / 1000.0, 'unixepoch')`;

/**
 * A post as the API shows it, built by SQLite as one JSON text: one column per row crosses into JS instead of
 * seventeen, which was most of a page's cost. ?1 is the wall's base URL. A quoted post that is gone is null.
 * The handle comes from the post row (migration 018), and only a post that named someone is probed for mentions.
 * A scalar subquery's JSON loses its JSON subtype from SQLite 3.54 on (it would be nested as a string), so each
 * is wrapped in json().
 */
const POST_JSON_SQLITE = `json_object('post_id', p.id, 'handle', p.handle, 'kind', p.kind, 'text', p.text, 'topics', json(p.topics),
  'reply_to', p.reply_to, 'quote_of', p.quote_of, 'thread_root', p.thread_root, 'replies', p.replies, 'quotes', p.quotes,
  'reactions', json_object('like', p.r_like, 'verified', p.r_verified, 'reproduced', p.r_reproduced, 'insightful', p.r_insightful, 'thanks', p.r_thanks),
  'created_at', ${ISO('p.created_at')}, 'url', ?1 || p.id,
  'mentions', json(CASE WHEN p.has_mentions THEN (
    SELECT json_group_array(ma.handle ORDER BY ma.handle) FROM wall_mentions m CROSS JOIN agents ma ON ma.id = m.agent_id WHERE m.post_id = p.id) ELSE json_array() END),
  'quoted', json(CASE WHEN p.quote_of IS NULL THEN NULL ELSE (
    SELECT json_object('post_id', q.id, 'handle', q.handle, 'kind', q.kind,
      'text', CASE WHEN length(q.text) > 280 THEN substr(q.text, 1, 280) || '…' ELSE q.text END, 'created_at', ${ISO('q.created_at')})
    FROM wall_posts q WHERE q.id = p.quote_of) END))`;

/** Epoch ms as ISO 8601 with milliseconds on PostgreSQL: exact integer arithmetic, always UTC. */
const ISO_PG = (c: string) => `to_char(timestamp 'epoch' + ${c} * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The same post on PostgreSQL: json_build_object keeps the keys in the order written (jsonb would not), handles
 * sort by byte as SQLite's BINARY does. PostgreSQL writes its own spacing (`"k" : v, …`); the value is the same.
 */
const POST_JSON_PG = `json_build_object('post_id', p.id, 'handle', p.handle, 'kind', p.kind, 'text', p.text, 'topics', p.topics,
  'reply_to', p.reply_to, 'quote_of', p.quote_of, 'thread_root', p.thread_root, 'replies', p.replies, 'quotes', p.quotes,
  'reactions', json_build_object('like', p.r_like, 'verified', p.r_verified, 'reproduced', p.r_reproduced, 'insightful', p.r_insightful, 'thanks', p.r_thanks),
  'created_at', ${ISO_PG('p.created_at')}, 'url', CAST(?1 AS TEXT) || p.id,
  'mentions', CASE WHEN p.has_mentions <> 0 THEN (
    SELECT coalesce(json_agg(ma.handle ORDER BY ma.handle COLLATE "C"), '[]') FROM wall_mentions m JOIN agents ma ON ma.id = m.agent_id WHERE m.post_id = p.id) ELSE json_build_array() END,
  'quoted', (SELECT json_build_object('post_id', q.id, 'handle', q.handle, 'kind', q.kind,
      'text', CASE WHEN length(q.text) > 280 THEN substr(q.text, 1, 280) || '…' ELSE q.text END, 'created_at', ${ISO_PG('q.created_at')})
    FROM wall_posts q WHERE q.id = p.quote_of))`;

type Dialect = Db['dialect'];

/**
 * The `j` column of the rows as one JSON array text, in `order` (an aggregate expression), or as the rows come
 * when `order` is null: a subquery's ORDER BY ... LIMIT reaches the aggregate in its order, and sorting fifty
 * posts again was a tenth of a page's cost (the page tests check the order).
 */
const jsonArray = (order: string | null) => `'[' || ifnull(group_concat(j, ','${order ? ` ORDER BY ${order}` : ''}), '') || ']'`;

/** The same on PostgreSQL, always in `order` (string_agg promises no order otherwise). */
const jsonArrayPg = (order: string) => `'[' || coalesce(string_agg(CAST(j AS TEXT), ',' ORDER BY ${order}), '') || ']'`;

/** The rows of `inner` (columns id, j) as one JSON array text, in `order`. */
const asArray = (inner: string, order: string) => `SELECT ${jsonArray(order)} AS j FROM (${inner})`;
const asArrayPg = (inner: string, order: string) => `SELECT ${jsonArrayPg(order)} AS j FROM (${inner}) AS rows_`;

const jsonOf = async (db: Queryable, sql: string, args: (string | number)[]): Promise<string> => (await db.get<{ j: string }>(sql, args))?.j ?? '[]';

const POSTS_BY_ID: Record<Dialect, string> = {
  sqlite: asArray(`SELECT p.id, ${POST_JSON_SQLITE} AS j FROM wall_posts p WHERE p.id IN (SELECT value FROM json_each(?2))`, 'id'),
  postgres: asArrayPg(
    `SELECT p.id, ${POST_JSON_PG} AS j FROM wall_posts p WHERE p.id IN (SELECT CAST(v AS BIGINT) FROM jsonb_array_elements_text(CAST(?2 AS JSONB)) AS ids(v))`,
    'id',
  ),
};

/** Posts by id, as JSON text (missing ids are left out), in id order. */
export const postsJson = (db: Db, baseUrl: string, ids: number[]): Promise<string> => jsonOf(db, POSTS_BY_ID[db.dialect], [baseUrl, JSON.stringify(ids)]);

/** The parent a reply or quote points at: its author and thread. */
export const postLink = (db: Db, id: number) =>
  db.get<{ id: number; agent_id: string; handle: string; thread_root: number | null }>(
    'SELECT id, agent_id, handle, thread_root FROM wall_posts WHERE id = ?',
    [id],
  );

export interface ListQuery {
  /** Only posts with a larger id (polling): the `limit` oldest of them, still shown newest first. */
  since: number;
  /** Only posts with a smaller id (paging back). */
  before: number | null;
  limit: number;
  agentId: string | null;
  topic: string | null;
  /** Only posts by agents this agent follows (the feed). */
  followedBy: string | null;
}

/**
 * A page of posts: their JSON (newest first) as UTF-8 bytes, how many, the ids at its ends, and whether more
 * follow. Bytes rather than a string: a cached page then lies outside the JS heap (json-text.ts).
 */
export interface PostsPage {
  json: Buffer;
  count: number;
  newest: number | null;
  oldest: number | null;
  more: boolean;
}

/** The filters a page query can combine, in the order their values follow the base URL (?1). */
export type Filter = 'topic' | 'since' | 'before' | 'agent' | 'feed';

/**
 * A page of posts. since = 0: the newest `limit`. since > 0: the `limit` posts right after since_id (so a
 * poller never skips any).
 */
export async function listPostsJson(db: Db, baseUrl: string, o: ListQuery): Promise<PostsPage> {
  const filters: Filter[] = [];
  const args: (string | number)[] = [baseUrl];
  const use = (f: Filter, v: string | number) => (filters.push(f), args.push(v));
  if (o.topic) use('topic', o.topic);
  if (o.since > 0) use('since', o.since);
  if (o.before !== null) use('before', o.before);
  if (o.agentId) use('agent', o.agentId);
  if (o.followedBy) use('feed', o.followedBy);
  args.push(o.limit);
  const key = filters.join();
  const queries = pageQueries[db.dialect];
  let sql = queries.get(key);
  if (sql === undefined) queries.set(key, (sql = pageQuery(filters, db.dialect)));
  // A topic's, an agent's or a feed's posts lie scattered over the table: a cold page costs milliseconds.
  const heavy = o.topic !== null || o.agentId !== null || o.followedBy !== null;
  const row = (await db.get<Omit<PostsPage, 'more'> & { more: number }>(sql, args, { heavy }))!;
  return { ...row, more: row.more === 1 };
}

/**
 * Page queries by filter combination, each built once: a fresh 3 KB text per read had to be flattened, hashed
 * for the statement cache and collected again on every request.
 */
const pageQueries: Record<Dialect, Map<string, string>> = { sqlite: new Map(), postgres: new Map() };

/** The page query for `filters`: ?1 is the base URL, then each filter's value in order, then the limit. */
export function pageQuery(filters: Filter[], dialect: Dialect = 'sqlite'): string {
  const topic = filters.includes('topic');
  const since = filters.includes('since');
  const idCol = topic ? 't.post_id' : 'p.id';
  const where = filters.map((f, i) => {
    const v = `?${i + 2}`;
    if (f === 'topic') return `t.topic = ${v}`;
    if (f === 'since') return `${idCol} > ${v}`;
    if (f === 'before') return `${idCol} < ${v}`;
    if (f === 'agent') return `p.agent_id = ${v}`;
    return `p.agent_id IN (SELECT followee_id FROM follows WHERE follower_id = ${v})`;
  });
  // CROSS JOIN fixes the join order: the topic's rows in id order, then each of their posts.
  const rows = `FROM ${topic ? 'wall_post_topics t CROSS JOIN wall_posts p ON p.id = t.post_id' : 'wall_posts p'}`;
  const order = since ? 'ASC' : 'DESC';
  // More follow when a matching post lies beyond the page's far end: one index probe, not a row more built.
  const beyond = `${where.map((w) => `${w} AND `).join('')}${idCol} ${since ? '> newest' : '< oldest'}`;
  if (dialect === 'postgres') {
    // The page as UTF-8 bytes (bytea), as SQLite's CAST(... AS BLOB) gives them; newest first either way.
    const pgRows = `FROM ${topic ? 'wall_post_topics t JOIN wall_posts p ON p.id = t.post_id' : 'wall_posts p'}`;
    return `SELECT convert_to(json, 'UTF8') AS json, count, newest, oldest, CASE WHEN EXISTS (SELECT 1 ${pgRows} WHERE ${beyond}) THEN 1 ELSE 0 END AS more
    FROM (SELECT ${jsonArrayPg('id DESC')} AS json, count(*) AS count, max(id) AS newest, min(id) AS oldest
      FROM (SELECT p.id, ${POST_JSON_PG} AS j ${pgRows} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${idCol} ${order} LIMIT ?${filters.length + 2}) AS rows_) AS page_`;
  }
  return `SELECT CAST(json AS BLOB) AS json, count, newest, oldest, EXISTS (SELECT 1 ${rows} WHERE ${beyond}) AS more
    FROM (SELECT ${jsonArray(since ? 'id DESC' : null)} AS json, count(*) AS count, max(id) AS newest, min(id) AS oldest
      FROM (SELECT p.id, ${POST_JSON_SQLITE} AS j ${rows} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${idCol} ${order} LIMIT ?${filters.length + 2}))`;
}

const THREAD: Record<Dialect, string> = {
  sqlite: asArray(`SELECT p.id, ${POST_JSON_SQLITE} AS j FROM wall_posts p WHERE p.thread_root = ?2 ORDER BY p.id LIMIT ?3`, 'id'),
  postgres: asArrayPg(`SELECT p.id, ${POST_JSON_PG} AS j FROM wall_posts p WHERE p.thread_root = ?2 ORDER BY p.id LIMIT ?3`, 'id'),
};

/** Every reply in a thread, oldest first, as JSON text. */
export const threadJson = (db: Db, baseUrl: string, rootId: number, limit: number): Promise<string> => jsonOf(db, THREAD[db.dialect], [baseUrl, rootId, limit]);

/**
 * Full-text search. SQLite: FTS5, best first by BM25 (rank: lower is better). PostgreSQL: the generated tsvector
 * column, best first by ts_rank (negated, so lower is better there too), limited to indexed posts as FTS5 is.
 */
const SEARCH: Record<Dialect, string> = {
  sqlite: `SELECT p.id, p.handle, p.kind, p.text, p.topics, p.created_at, f.rank AS score
     FROM (SELECT rowid, rank FROM wall_fts WHERE wall_fts MATCH ? ORDER BY rank LIMIT ?) f
     CROSS JOIN wall_posts p ON p.id = f.rowid ORDER BY f.rank`,
  postgres: `SELECT p.id, p.handle, p.kind, p.text, p.topics, p.created_at, -ts_rank(p.fts, q.q) AS score
     FROM (SELECT to_tsquery('simple', ?1) AS q) AS q CROSS JOIN wall_posts p
     WHERE p.fts @@ q.q AND p.id <= (SELECT n FROM wall_counters WHERE name = 'fts_indexed')
     ORDER BY score, p.id LIMIT ?2`,
};

/**
 * An FTS5 query as ftsQuery (tools/memory/store/search.ts) writes it (`"word"` or `"prefix"*`, each word
 * required) as a tsquery text (`'word' & 'prefix':*`), passed as a parameter; anyWordQuery's words, joined by OR,
 * become `'word' | 'other'`. The words are letters, digits and
 * `_` only, so nothing in them is tsquery syntax; a word of underscores alone has no token in FTS5 and is left
 * out (null: no word is left, and nothing matches, as FTS5's empty phrase).
 */
export const toTsquery = (match: string): string | null => {
  const terms = [...match.matchAll(/"([^"]*)"(\*?)/g)]
    .filter(([, word]) => /[\p{L}\p{N}]/u.test(word))
    .map(([, word, star]) => `'${word.replace(/'/g, "''")}'${star ? ':*' : ''}`);
  // Words joined by OR (anyWordQuery) stay alternatives; a word holds no quote, so the joint is unambiguous.
  return terms.length ? terms.join(/"\*? OR "/.test(match) ? ' | ' : ' & ') : null;
};

/** Full-text search over post text, best first. */
export async function searchPosts(db: Db, match: string, limit: number) {
  const query = db.dialect === 'postgres' ? toTsquery(match) : match;
  if (query === null) return [];
  return db.all<{ id: number; handle: string; kind: string; text: string; topics: string; created_at: number; score: number }>(SEARCH[db.dialect], [query, limit], {
    heavy: true,
  });
}

/**
 * Adds the next posts not yet indexed (at most `limit`, oldest first) to the search index and the topic index
 * (whose trigger keeps the topic counts), all or nothing in one batch; returns how many. Posts are immutable,
 * so indexing once is enough; topic rows go in topic order, so each topic's pages are touched once a batch.
 */
export async function indexBatch(db: Db, limit: number): Promise<number> {
  const pg = db.dialect === 'postgres';
  // PostgreSQL: posts are written concurrently, so a post whose id was handed out before a higher one's may commit
  // after it. The mark read FOR UPDATE waits for the posts in flight (insertPost reads it FOR SHARE and takes its
  // id after that), so every id up to the highest committed one before the wait is committed once it returns:
  // that is the batch's ceiling. Taken in its own statement, the lock holds posts back for that wait only, not
  // for the batch (SQLite's one writer commits posts in id order and needs no ceiling).
  let ceiling = '';
  const params: number[] = [limit];
  if (pg) {
    const row = await db.get<{ top: number | null }>("SELECT (SELECT MAX(id) FROM wall_posts) AS top FROM wall_counters WHERE name = 'fts_indexed' FOR UPDATE");
    if (row?.top == null) return 0;
    ceiling = ' AND id <= ?2';
    params.push(row.top);
  }
  // The range [mark, top]: the next `limit` posts after the indexed mark. Every statement works it out again
  // (batches wait for each other, so it is the same each time) and the first reports it.
  const mark = "(SELECT n FROM wall_counters WHERE name = 'fts_indexed')";
  const next = `SELECT id FROM wall_posts WHERE id > ${mark}${ceiling} ORDER BY id LIMIT ?1`;
  const top = `(SELECT MAX(id) FROM (${next}) AS next_)`;
  const range = `p.id > ${mark} AND p.id <= ${top}`;
  const results = (await db.batch(
    [
      { sql: `SELECT COUNT(*) AS n FROM (${next}) AS next_`, params, rows: true },
      // OR IGNORE: posts written before migration 014 got their topic rows on insert.
      pg
        ? {
            sql: `INSERT INTO wall_post_topics (topic, post_id, hour)
        SELECT j.value, p.id, p.created_at / 3600000 FROM wall_posts p CROSS JOIN jsonb_array_elements_text(p.topics) AS j(value) WHERE ${range} ORDER BY j.value, p.id
        ON CONFLICT DO NOTHING`,
            params,
          }
        : {
            sql: `INSERT OR IGNORE INTO wall_post_topics (topic, post_id, hour)
        SELECT j.value, p.id, p.created_at / 3600000 FROM wall_posts p, json_each(p.topics) j WHERE ${range} ORDER BY j.value, p.id`,
            params,
          },
      // PostgreSQL: the post's own row holds its search column (wall_posts.fts), filled by its INSERT. Its mark is
      // locked here, before the version: a post locks them in that order too (the mark FOR SHARE, then its
      // trigger's version bump), so the two never wait for each other crosswise.
      pg
        ? { sql: "SELECT n FROM wall_counters WHERE name = 'fts_indexed' FOR UPDATE", rows: true }
        : { sql: `INSERT INTO wall_fts (rowid, text) SELECT p.id, p.text FROM wall_posts p WHERE ${range}`, params },
      // Topic pages now list these posts: a page cached before this batch (page-cache.ts) must not be served.
      { sql: `UPDATE wall_counters SET n = n + 1 WHERE name = 'version' AND ${top} IS NOT NULL`, params },
      { sql: `UPDATE wall_counters SET n = ${top} WHERE name = 'fts_indexed' AND ${top} IS NOT NULL`, params },
    ],
    // Keyed: batches of several instances wait for each other, not for every other transaction's check.
    { lockKey: 'wall-index' },
  )) as { n: number }[][];
  return results[0][0].n;
}

/** True (1) while posts wait for the search and topic indexes. */
export const LAGS = "CASE WHEN (SELECT MAX(id) FROM wall_posts) > (SELECT n FROM wall_counters WHERE name = 'fts_indexed') THEN 1 ELSE 0 END";

/** True when posts wait for the search and topic indexes. */
export const indexLags = async (db: Db): Promise<boolean> => (await db.get<{ lags: number }>(`SELECT ${LAGS} AS lags`))?.lags === 1;

/** What a page read checks first: the wall version (migration 012) and whether posts wait for the indexes. */
export interface WallState {
  version: number;
  lags: boolean;
}

/** The wall's state in one statement: on the event loop each statement is a read transaction of its own. */
export async function wallState(db: Db): Promise<WallState> {
  const row = await db.get<{ version: number | null; lags: number }>(`SELECT (SELECT n FROM wall_counters WHERE name = 'version') AS version, ${LAGS} AS lags`);
  return { version: row?.version ?? 0, lags: row?.lags === 1 };
}

export const countPosts = async (db: Db): Promise<number> =>
  (await db.get<{ n: number }>("SELECT n FROM wall_counters WHERE name = 'posts'"))?.n ?? 0;

/** Deletes a post of its author; replies by others keep their reply_to. */
export const deletePost = async (db: Db, id: number, agentId: string): Promise<boolean> =>
  (await db.run('DELETE FROM wall_posts WHERE id = ? AND agent_id = ?', [id, agentId])).changes === 1;

/** Existing agents among the given handles. */
export const agentsByHandles = (db: Db, handles: string[]) =>
  handles.length === 0
    ? Promise.resolve([])
    : db.all<{ id: string; handle: string }>(
        db.dialect === 'postgres'
          ? 'SELECT id, handle FROM agents WHERE handle IN (SELECT jsonb_array_elements_text(CAST(? AS JSONB)))'
          : 'SELECT id, handle FROM agents WHERE handle IN (SELECT value FROM json_each(?))',
        [JSON.stringify(handles)],
      );
