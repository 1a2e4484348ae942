// SQL for full-text search over memory (FTS5, BM25) with the visibility rule in the query itself:
// own entries, entries shared with the caller, public entries and the scratchpad, never others' private ones.
import type { Db } from '../../../src/store/db.js';

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
  updated_at: number;
  snippet: string;
  score: number;
}

/** Scope tokens as migration 007 computes them (SQLite's hex() is uppercase hex of the UTF-8 bytes). */
const hex = (s: string): string => Buffer.from(s, 'utf8').toString('hex').toUpperCase();
export const ownerToken = (agentId: string): string => `o${hex(agentId)}`;
export const shareToken = (ownerId: string, namespace: string): string => `n${hex(`${ownerId}/${namespace}`)}`;
export const namespaceToken = (namespace: string): string => `x${hex(namespace)}`;
/** A scope token no entry carries (tokens are a letter and hex): an anonymous caller's private scope. */
const NO_SCOPE = 'none';

/**
 * Asks the full-text index for entries visible to the caller (own, shared with it, public, scratchpad) that match
 * the words, ranked inside the index, then reads the few winners. `match` is ftsQuery's FTS5 string, `q` the
 * words it came from (for PostgreSQL's tsquery).
 *
 * SQLite: FTS5 with BM25 (`rank`, lower is better), asked twice and merged: memory_fts for the caller's own and
 * shared entries, memory_fts_pub for public ones (migration 033: BM25 no longer counts every public entry to weigh
 * the "pub" token). PostgreSQL: the tsvector `memory_entries.fts` (kept by a trigger, migration 038),
 * where the scope tokens are weight D and key/tags/namespace+text A/B/C (docs/decisions/postgres-schema.md). The
 * visibility and words are one tsquery for the GIN index; the rank is ts_rank of the words alone, ORed (each
 * word's weighted occurrences, averaged: key 4, tags 2, namespace and text 1, as the BM25 weights), negated so
 * that, as FTS5's rank, lower is better.
 */
const SEARCH = {
  sqlite: `SELECT e.id, a.handle AS owner, e.agent_id AS owner_id, e.namespace, e.key, e.visibility, e.tags, e.updated_at, memory_words(e.value) AS text, f.rank AS score
     FROM (SELECT rowid, rank FROM (
             SELECT * FROM (SELECT rowid, rank FROM memory_fts WHERE memory_fts MATCH ?1 ORDER BY rank LIMIT ?2)
             UNION ALL
             SELECT * FROM (SELECT rowid, rank FROM memory_fts_pub WHERE memory_fts_pub MATCH ?4 ORDER BY rank LIMIT ?2)
           ) ORDER BY rank LIMIT ?2) f
     JOIN memory_entries e ON e.id = f.rowid LEFT JOIN agents a ON a.id = e.agent_id
     WHERE e.expires_at IS NULL OR e.expires_at > ?3
     ORDER BY f.rank`,
  postgres: `SELECT e.id, a.handle AS owner, e.agent_id AS owner_id, e.namespace, e.key, e.visibility, e.tags, e.updated_at, memory_words(e.value) AS text, f.rank AS score
     FROM (SELECT m.id, -ts_rank('{0, 0.25, 0.5, 1}', m.fts, to_tsquery('simple', ?4)) AS rank
           FROM memory_entries m WHERE m.fts @@ to_tsquery('simple', ?1) ORDER BY rank, m.id LIMIT ?2) f
     JOIN memory_entries e ON e.id = f.id LEFT JOIN agents a ON a.id = e.agent_id
     WHERE e.expires_at IS NULL OR e.expires_at > ?3
     ORDER BY f.rank, f.id`,
};

export async function searchMemory(
  db: Db,
  o: { match: string; q: string; callerId: string | null; shared: { owner_id: string; namespace: string }[]; namespace: string | null; limit: number; now: number },
) {
  const mine = [...(o.callerId ? [ownerToken(o.callerId)] : []), ...o.shared.map((s) => shareToken(s.owner_id, s.namespace))];
  const scope = ['pub', ...mine];
  let query: string;
  let rank: string | null = null;
  if (db.dialect === 'sqlite') {
    // Public entries have an index of their own (migration 033): the words alone there, under the caller's own and
    // shared scope tokens in memory_fts (a caller with neither asks for a token no entry has).
    const words = `{namespace key text tags} : (${o.match})${o.namespace ? ` AND scope : ${namespaceToken(o.namespace)}` : ''}`;
    query = `scope : (${mine.length > 0 ? mine.join(' OR ') : NO_SCOPE}) AND ${words}`;
    rank = words;
  } else {
    const terms = tsTerms(o.q, 'ABC');
    if (!terms) return [];
    query = `(${scope.map((t) => `'${t}':D`).join(' | ')}) & (${terms.join(' & ')})${o.namespace ? ` & '${namespaceToken(o.namespace)}':D` : ''}`;
    rank = terms.join(' | ');
  }
  return db.all<Omit<SearchHit, 'snippet'> & { text: string }>(
    SEARCH[db.dialect],
    [query, o.limit, o.now, rank],
    { heavy: true },
  );
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
