// SQL for full-text search over memory (FTS5, BM25) with the visibility rule in the query itself:
// own entries, entries shared with the caller, public entries and the scratchpad, never others' private ones.
import type { Db } from '../../../src/store/db.js';
import { queryTerms, type MatchMode, type QueryTerm } from '../query-terms.js';

/**
 * Turns free text into a safe FTS5 query: every word must match; a word written with a trailing `*` (at least
 * two characters before it) matches as a prefix.
 */
export function ftsQuery(q: string): string | null {
  const words = q.normalize('NFKC').match(/[\p{L}\p{N}_]+\*?/gu)?.slice(0, 16) ?? [];
  if (words.length === 0) return null;
  return words
    .map((w) => (w.endsWith('*') && w.length >= 3 ? `"${w.slice(0, -1)}"*` : `"${w.replace(/\*$/, '')}"`))
    .join(' ');
}

/**
 * An FTS5 query for entries holding any of the query's words (stop words and question words left out): the words
 * as ftsQuery writes them, joined by OR. null when no word is left.
 */
export function anyWordQuery(q: string): string | null {
  const terms = queryTerms(q, 'any');
  return terms.length ? terms.map((t) => `"${t.word}"${t.prefix ? '*' : ''}`).join(' OR ') : null;
}

/**
 * The same words as ftsQuery, as operands of a PostgreSQL tsquery (text for `to_tsquery('simple', …)`, passed as a
 * parameter): each word quoted (only letters, digits and `_`, so no quote or operator can get in), `:*` where
 * ftsQuery makes a prefix, then `weights` (tsquery weight letters, e.g. 'ABC'). to_tsquery runs each word through
 * the parser the index used, so a word the parser splits (`foo_bar`) becomes a phrase (`'foo' <-> 'bar'`), as an
 * FTS5 string does.
 */
export function tsTerms(q: string, weights = ''): string[] | null {
  // A word of underscores alone has no token: FTS5 ignores it beside others and matches nothing with it alone;
  // to_tsquery drops it, and a query of none would leave only the scope, matching everything visible.
  const words = (q.normalize('NFKC').match(/[\p{L}\p{N}_]+\*?/gu)?.slice(0, 16) ?? []).filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length === 0) return null;
  return words.map((w) => (w.endsWith('*') && w.length >= 3 ? `'${w.slice(0, -1)}':*${weights}` : `'${w.replace(/\*$/, '')}'${weights ? `:${weights}` : ''}`));
}

export interface SearchHit {
  id: number;
  owner: string | null;
  owner_id: string | null;
  namespace: string;
  key: string;
  visibility: string;
  tags: string;
  created_at: number;
  updated_at: number;
  snippet: string;
  score: number;
}

/** A candidate for ranking: an entry the caller may see, with its words. */
export type Candidate = Omit<SearchHit, 'snippet' | 'score'> & { text: string };

/** Scope tokens as migration 007 computes them (SQLite's hex() is uppercase hex of the UTF-8 bytes). */
const hex = (s: string): string => Buffer.from(s, 'utf8').toString('hex').toUpperCase();
export const ownerToken = (agentId: string): string => `o${hex(agentId)}`;
export const shareToken = (ownerId: string, namespace: string): string => `n${hex(`${ownerId}/${namespace}`)}`;
export const namespaceToken = (namespace: string): string => `x${hex(namespace)}`;
/** A scope token no entry carries (tokens are a letter and hex): an anonymous caller's private scope. */
const NO_SCOPE = 'none';

const COLUMNS = 'e.id, a.handle AS owner, e.agent_id AS owner_id, e.namespace, e.key, e.visibility, e.tags, e.created_at, e.updated_at, memory_words(e.value) AS text';

/**
 * Asks the full-text index for entries visible to the caller (own, shared with it, public, scratchpad) that hold the
 * terms (any of them, or with `all` every one), and reads them with their words; relevance.ts ranks them. When more
 * than `limit` match, the index's own ranking decides which `limit` are kept; otherwise all are. (An expired entry
 * that the index still holds counts towards the limit, and is left out.)
 *
 * SQLite: FTS5, asked twice and merged: memory_fts for the caller's own and shared entries, memory_fts_pub for
 * public ones (migration 033: BM25 no longer counts every public entry to weigh the "pub" token), ranked by BM25
 * (`rank`). FTS5 stems with the porter tokenizer. PostgreSQL: the tsvector `memory_entries.fts` (kept by a trigger,
 * migration 038), where the scope tokens are weight D and key/tags/namespace+text A/B/C
 * (docs/decisions/postgres-schema.md), ranked by ts_rank of the words (key 4, tags 2, namespace and text 1, as the
 * BM25 weights). Its 'simple' index does not stem, so each term is asked as the prefix every form of the word starts
 * with (`lead`), and relevance.ts keeps only the entries whose words stem to a term. The visibility and the words
 * are one tsquery for the GIN index.
 */
const MATCHING = {
  // ?1 the private index's query, ?2 the limit, ?3 the public index's query.
  sqlite: (ranked: boolean) => {
    const side = (table: string, q: string) => `SELECT * FROM (SELECT rowid${ranked ? ', rank' : ''} FROM ${table} WHERE ${table} MATCH ${q}${ranked ? ' ORDER BY rank' : ''} LIMIT ?2)`;
    return `SELECT rowid FROM (${side('memory_fts', '?1')} UNION ALL ${side('memory_fts_pub', '?3')})${ranked ? ' ORDER BY rank' : ''} LIMIT ?2`;
  },
  // ?1 visibility and words, ?2 the limit, ?3 the words alone (to rank by).
  postgres: () =>
    `SELECT m.id AS rowid FROM memory_entries m WHERE m.fts @@ to_tsquery('simple', ?1) ORDER BY ts_rank('{0, 0.25, 0.5, 1}', m.fts, to_tsquery('simple', ?3)) DESC, m.id LIMIT ?2`,
};
/** The matching entries with their words; ?4 is now (an expired entry is absent). */
const candidatesSql = (dialect: Db['dialect'], ranked: boolean) => `SELECT ${COLUMNS}
     FROM (${MATCHING[dialect](ranked)}) f JOIN memory_entries e ON e.id = f.rowid LEFT JOIN agents a ON a.id = e.agent_id
     WHERE e.expires_at IS NULL OR e.expires_at > ?4`;

export interface CandidateQuery {
  terms: readonly QueryTerm[];
  mode: MatchMode;
  callerId: string | null;
  shared: { owner_id: string; namespace: string }[];
  namespace: string | null;
  limit: number;
  now: number;
}

/**
 * The candidates, and whether they are every visible entry that matches (`complete`), or the `limit` best by the
 * index's ranking.
 */
export async function searchCandidates(db: Db, o: CandidateQuery): Promise<{ rows: Candidate[]; complete: boolean }> {
  if (o.terms.length === 0) return { rows: [], complete: true };
  const mine = [...(o.callerId ? [ownerToken(o.callerId)] : []), ...o.shared.map((s) => shareToken(s.owner_id, s.namespace))];
  let query: string;
  let words: string;
  if (db.dialect === 'sqlite') {
    // Public entries have an index of their own (migration 033): the words alone there, under the caller's own and
    // shared scope tokens in memory_fts (a caller with neither asks for a token no entry has).
    const match = o.terms.map((t) => `"${t.word}"${t.prefix ? '*' : ''}`).join(o.mode === 'all' ? ' AND ' : ' OR ');
    words = `{namespace key text tags} : (${match})${o.namespace ? ` AND scope : ${namespaceToken(o.namespace)}` : ''}`;
    query = `scope : (${mine.length > 0 ? mine.join(' OR ') : NO_SCOPE}) AND ${words}`;
  } else {
    const terms = o.terms.map((t) => `'${t.lead}':*ABC`);
    words = terms.join(' | ');
    query = `(${['pub', ...mine].map((t) => `'${t}':D`).join(' | ')}) & (${terms.join(o.mode === 'all' ? ' & ' : ' | ')})${o.namespace ? ` & '${namespaceToken(o.namespace)}':D` : ''}`;
  }
  // SQLite: FTS5 scores every match to rank them, so it is asked unranked first (most searches match fewer than
  // the limit) and ranked only when more match. PostgreSQL ranks always (ts_rank of a few rows is cheap).
  if (db.dialect === 'sqlite') {
    const all = await db.all<Candidate>(candidatesSql(db.dialect, false), [query, o.limit + 1, words, o.now], { heavy: true });
    if (all.length <= o.limit) return { rows: all, complete: true };
  }
  const rows = await db.all<Candidate>(candidatesSql(db.dialect, true), [query, o.limit + 1, words, o.now], { heavy: true });
  return rows.length <= o.limit ? { rows, complete: true } : { rows: rows.slice(0, o.limit), complete: false };
}

/** Centres as JSON: [[id, 1 when the caller may read the centre's whole namespace, else 0], …]. */
const CENTRES = {
  sqlite: `SELECT c.id, ifnull(c.agent_id, '') AS o, c.namespace, c.created_at, c.key, j.value ->> 1 AS open
           FROM json_each(?1) j JOIN memory_entries c ON c.id = j.value ->> 0`,
  postgres: `SELECT c.id, coalesce(c.agent_id, '') AS o, c.namespace, c.created_at, c.key, CAST(j.value ->> 1 AS INTEGER) AS open
           FROM jsonb_array_elements(CAST(?1 AS JSONB)) AS j(value) JOIN memory_entries c ON c.id = CAST(j.value ->> 0 AS BIGINT)`,
};
/** Where a neighbour may be: readable (the whole namespace when open, else public entries only) and live. */
const NEAR = (owner: string) =>
  `${owner} = c.o AND x.namespace = c.namespace AND (c.open = 1 OR x.visibility = 'public') AND (x.expires_at IS NULL OR x.expires_at > ?2)`;
/**
 * The ids of up to `reach` entries on one side of the centre `c`, nearest first, each side seeking the timeline (or
 * key) index once. By time, entries written in the same millisecond (a bulk write) are ordered by id: PostgreSQL
 * seeks the row value (created_at, id); SQLite cannot seek a row value that ends with the rowid, so it takes the same
 * millisecond and the earlier (or later) ones apart, each a seek, and merges the few rows. A bound on created_at alone
 * would step over every entry of that millisecond, thousands after a bulk import.
 */
function sideIds(dialect: Db['dialect'], order: NeighbourOrder, before: boolean): string {
  const near = NEAR(dialect === 'sqlite' ? "ifnull(x.agent_id, '')" : "coalesce(x.agent_id, '')");
  const [lt, desc] = before ? ['<', ' DESC'] : ['>', ''];
  // PostgreSQL numbers the rows as they come (the window's order is the index's, so the limit still stops the scan).
  if (dialect === 'postgres') {
    const [where, by] = order === 'key' ? [`x.key ${lt} c.key`, `x.key${desc}`] : [`(x.created_at, x.id) ${lt} (c.created_at, c.id)`, `x.created_at${desc}, x.id${desc}`];
    return `SELECT x.id, row_number() OVER (ORDER BY ${by}) AS n FROM memory_entries x WHERE ${near} AND ${where} ORDER BY ${by} LIMIT ?3`;
  }
  if (order === 'key') return `SELECT x.id FROM memory_entries x WHERE ${near} AND x.key ${lt} c.key ORDER BY x.key${desc} LIMIT ?3`;
  const same = `SELECT x.id, x.created_at FROM memory_entries x WHERE ${near} AND x.created_at = c.created_at AND x.id ${lt} c.id ORDER BY x.id${desc} LIMIT ?3`;
  const other = `SELECT x.id, x.created_at FROM memory_entries x WHERE ${near} AND x.created_at ${lt} c.created_at ORDER BY x.created_at${desc}, x.id${desc} LIMIT ?3`;
  return `SELECT id FROM (SELECT * FROM (${same}) UNION ALL SELECT * FROM (${other})) ORDER BY created_at${desc}, id${desc} LIMIT ?3`;
}

/** Each centre's neighbours on both sides as (centre, offset, id) rows: one subquery a side, its ids numbered. */
function neighbourRows(dialect: Db['dialect'], order: NeighbourOrder): string {
  const side = (before: boolean) =>
    dialect === 'sqlite'
      ? `SELECT c.id AS centre, ${before ? '-' : ''}(j.key + 1) AS "offset", j.value AS id FROM c, json_each((SELECT json_group_array(id) FROM (${sideIds(dialect, order, before)}))) j`
      : `SELECT c.id AS centre, ${before ? '-' : ''}s.n AS "offset", s.id FROM c CROSS JOIN LATERAL (${sideIds(dialect, order, before)}) s`;
  return `${side(true)} UNION ALL ${side(false)}`;
}

/** One statement: the neighbours of every centre, with their columns and words or their ids alone. ?3 is the reach. */
function neighbourSql(dialect: Db['dialect'], order: NeighbourOrder, columns: boolean): string {
  // It starts with SELECT, the mark of a read that a reader thread may take (a statement starting WITH goes to the writer).
  const nb = `(WITH c AS MATERIALIZED (${CENTRES[dialect]}) ${neighbourRows(dialect, order)}) nb`;
  return columns
    ? `SELECT nb.centre, nb."offset", ${COLUMNS} FROM ${nb} JOIN memory_entries e ON e.id = nb.id LEFT JOIN agents a ON a.id = e.agent_id`
    : `SELECT nb.centre, nb."offset", nb.id FROM ${nb}`;
}

export type NeighbourOrder = 'time' | 'key';
/** Where an entry sits: `offset` entries from `centre` in its namespace (-1 just before, +1 just after). */
export interface Adjacency {
  centre: number;
  id: number;
  offset: number;
}
export type Neighbour = Candidate & Adjacency;

interface NeighbourQuery {
  centres: { id: number; open: boolean }[];
  reach: number;
  order: NeighbourOrder;
  now: number;
}

const neighbourParams = (o: NeighbourQuery) => [JSON.stringify(o.centres.map((c) => [c.id, c.open ? 1 : 0])), o.now, o.reach];

/**
 * Up to `reach` entries on each side of each centre in its namespace, by time (created_at, then id) or by key, that
 * the caller may read: every entry of a namespace the caller owns or is shared, only public ones of another's.
 */
export const neighbourEntries = (db: Db, o: NeighbourQuery): Promise<Neighbour[]> =>
  o.centres.length === 0 || o.reach <= 0 ? Promise.resolve([]) : db.all<Neighbour>(neighbourSql(db.dialect, o.order, true), neighbourParams(o), { heavy: true });

/** Where the neighbours are, without reading them (neighbourEntries' rows, ids only). */
export const neighbourIds = (db: Db, o: NeighbourQuery): Promise<Adjacency[]> =>
  o.centres.length === 0 || o.reach <= 0 ? Promise.resolve([]) : db.all<Adjacency>(neighbourSql(db.dialect, o.order, false), neighbourParams(o), { heavy: true });

export async function corpusStats(db: Db): Promise<Record<string, number>> {
  const row = await db.get<Record<string, number>>(
    `SELECT
       (SELECT COUNT(*) FROM memory_entries) AS total,
       (SELECT COUNT(*) FROM memory_entries WHERE visibility = 'public' OR agent_id IS NULL) AS public,
       (SELECT COUNT(*) FROM memory_entries WHERE agent_id IS NOT NULL) AS owned,
       (SELECT COUNT(*) FROM memory_facts WHERE superseded_at IS NULL AND kind <> 'path') AS edges,
       (SELECT COUNT(*) FROM memory_facts WHERE superseded_at IS NULL) AS facts,
       (SELECT COUNT(*) FROM (SELECT DISTINCT owner_id, namespace FROM memory_acl) AS shares) AS shared_namespaces,
       (SELECT COUNT(*) FROM memory_embeddings) AS embedded`,
  );
  return row ?? {};
}
