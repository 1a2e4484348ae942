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
 * terms (any of them, or with `all` every one), ranked inside the index and cut to `limit`, then reads them with their
 * words; relevance.ts ranks them. The index's order only decides which candidates are kept.
 *
 * SQLite: FTS5 with BM25 (`rank`, lower is better), asked twice and merged: memory_fts for the caller's own and
 * shared entries, memory_fts_pub for public ones (migration 033: BM25 no longer counts every public entry to weigh
 * the "pub" token). FTS5 stems with the porter tokenizer. PostgreSQL: the tsvector `memory_entries.fts` (kept by a
 * trigger, migration 038), where the scope tokens are weight D and key/tags/namespace+text A/B/C
 * (docs/decisions/postgres-schema.md). Its 'simple' index does not stem, so each term is asked as the prefix every
 * form of the word starts with (`lead`), and relevance.ts keeps only the entries whose words stem to a term. The
 * visibility and words are one tsquery for the GIN index; the order is ts_rank of the words (key 4, tags 2,
 * namespace and text 1, as the BM25 weights).
 */
const SEARCH = {
  sqlite: `SELECT ${COLUMNS}
     FROM (SELECT rowid, rank FROM (
             SELECT * FROM (SELECT rowid, rank FROM memory_fts WHERE memory_fts MATCH ?1 ORDER BY rank LIMIT ?2)
             UNION ALL
             SELECT * FROM (SELECT rowid, rank FROM memory_fts_pub WHERE memory_fts_pub MATCH ?4 ORDER BY rank LIMIT ?2)
           ) ORDER BY rank LIMIT ?2) f
     JOIN memory_entries e ON e.id = f.rowid LEFT JOIN agents a ON a.id = e.agent_id
     WHERE e.expires_at IS NULL OR e.expires_at > ?3`,
  postgres: `SELECT ${COLUMNS}
     FROM (SELECT m.id FROM memory_entries m WHERE m.fts @@ to_tsquery('simple', ?1)
           ORDER BY ts_rank('{0, 0.25, 0.5, 1}', m.fts, to_tsquery('simple', ?4)) DESC, m.id LIMIT ?2) f
     JOIN memory_entries e ON e.id = f.id LEFT JOIN agents a ON a.id = e.agent_id
     WHERE e.expires_at IS NULL OR e.expires_at > ?3`,
};

export interface CandidateQuery {
  terms: readonly QueryTerm[];
  mode: MatchMode;
  callerId: string | null;
  shared: { owner_id: string; namespace: string }[];
  namespace: string | null;
  limit: number;
  now: number;
}

export async function searchCandidates(db: Db, o: CandidateQuery): Promise<Candidate[]> {
  if (o.terms.length === 0) return [];
  const mine = [...(o.callerId ? [ownerToken(o.callerId)] : []), ...o.shared.map((s) => shareToken(s.owner_id, s.namespace))];
  const join = o.mode === 'all' ? ' AND ' : ' OR ';
  let query: string;
  let words: string;
  if (db.dialect === 'sqlite') {
    // Public entries have an index of their own (migration 033): the words alone there, under the caller's own and
    // shared scope tokens in memory_fts (a caller with neither asks for a token no entry has).
    const match = o.terms.map((t) => `"${t.word}"${t.prefix ? '*' : ''}`).join(join);
    words = `{namespace key text tags} : (${match})${o.namespace ? ` AND scope : ${namespaceToken(o.namespace)}` : ''}`;
    query = `scope : (${mine.length > 0 ? mine.join(' OR ') : NO_SCOPE}) AND ${words}`;
  } else {
    const terms = o.terms.map((t) => `'${t.lead}':*ABC`);
    words = terms.join(' | ');
    query = `(${['pub', ...mine].map((t) => `'${t}':D`).join(' | ')}) & (${terms.join(o.mode === 'all' ? ' & ' : ' | ')})${o.namespace ? ` & '${namespaceToken(o.namespace)}':D` : ''}`;
  }
  return db.all<Candidate>(SEARCH[db.dialect], [query, o.limit, o.now, words], { heavy: true });
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
  `${owner} = c.o AND x.namespace = c.namespace AND (c.open = 1 OR x.visibility = 'public') AND (x.expires_at IS NULL OR x.expires_at > ?3)`;
const SIDE = {
  time: { before: '(x.created_at < c.created_at OR (x.created_at = c.created_at AND x.id < c.id))', after: '(x.created_at > c.created_at OR (x.created_at = c.created_at AND x.id > c.id))', down: 'x.created_at DESC, x.id DESC', up: 'x.created_at, x.id' },
  key: { before: 'x.key < c.key', after: 'x.key > c.key', down: 'x.key DESC', up: 'x.key' },
};

function neighbourSql(dialect: Db['dialect'], order: NeighbourOrder): string {
  const s = SIDE[order];
  const owner = dialect === 'sqlite' ? "ifnull(x.agent_id, '')" : "coalesce(x.agent_id, '')";
  const side = (dir: -1 | 1) =>
    `SELECT x.id FROM memory_entries x WHERE ${NEAR(owner)} AND ${dir < 0 ? s.before : s.after} ORDER BY ${dir < 0 ? s.down : s.up} LIMIT ?2`;
  const cols = COLUMNS.replace(/\be\./g, 'n.');
  if (dialect === 'sqlite') {
    return `WITH c AS MATERIALIZED (${CENTRES.sqlite})
      SELECT c.id AS centre, -1 AS side, ${cols} FROM c JOIN memory_entries n ON n.id IN (${side(-1)}) LEFT JOIN agents a ON a.id = n.agent_id
      UNION ALL
      SELECT c.id AS centre, 1 AS side, ${cols} FROM c JOIN memory_entries n ON n.id IN (${side(1)}) LEFT JOIN agents a ON a.id = n.agent_id`;
  }
  return `WITH c AS MATERIALIZED (${CENTRES.postgres})
    SELECT c.id AS centre, s.side, ${cols} FROM c
    CROSS JOIN LATERAL (SELECT -1 AS side, y.id FROM (${side(-1)}) y UNION ALL SELECT 1, z.id FROM (${side(1)}) z) s
    JOIN memory_entries n ON n.id = s.id LEFT JOIN agents a ON a.id = n.agent_id`;
}

export type NeighbourOrder = 'time' | 'key';
export type Neighbour = Candidate & { centre: number; offset: number };

/**
 * Up to `reach` entries on each side of each centre in its namespace, by time (created_at, then id) or by key, that
 * the caller may read: every entry of a namespace the caller owns or is shared, only public ones of another's.
 * `offset` is -1 for the entry just before, +1 for the one just after, and so on.
 */
export async function neighbourEntries(
  db: Db,
  o: { centres: { id: number; open: boolean }[]; reach: number; order: NeighbourOrder; now: number },
): Promise<Neighbour[]> {
  if (o.centres.length === 0 || o.reach <= 0) return [];
  const rows = await db.all<Candidate & { centre: number; side: number }>(
    neighbourSql(db.dialect, o.order),
    [JSON.stringify(o.centres.map((c) => [c.id, c.open ? 1 : 0])), o.reach, o.now],
    { heavy: true },
  );
  // Each side comes nearest first from its subquery, but a join may reorder: place them by the order itself.
  const cmp = o.order === 'time' ? (x: Candidate, y: Candidate) => x.created_at - y.created_at || x.id - y.id : (x: Candidate, y: Candidate) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0);
  const out: Neighbour[] = [];
  const groups = new Map<string, (Candidate & { centre: number; side: number })[]>();
  for (const r of rows) {
    const k = `${r.centre}/${r.side}`;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(r);
  }
  for (const g of groups.values()) {
    g.sort(cmp);
    if (g[0].side < 0) g.reverse();
    g.forEach(({ side, ...r }, i) => out.push({ ...r, offset: side * (i + 1) }));
  }
  return out;
}

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
