// What memory search shares across its stores: FTS5 query strings (the every-word filter of forget and the wall, the
// wall's any-word search), the scope tokens that put the visibility rule in the index (own entries, entries shared
// with the caller, public entries and the scratchpad, never others' private ones), the columns a candidate is read
// with, and corpus counts. Finding and ranking candidates is candidates.ts, neighbours.ts and ../relevance.ts.
import type { Db } from '../../../src/store/db.js';
import { flattenText } from '../../../src/store/value-codec.js';
import { queryTerms } from '../query-terms.js';

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
export const NO_SCOPE = 'none';

/**
 * A candidate's columns. Its words are the value flattened by flattenText on both stores, so both rank alike: SQLite
 * computes them in SQL (memory_words, cached for deflated values); PostgreSQL returns the JSON as stored (json keeps
 * key order; its memory_words puts keys before values in jsonb's order) and readWords flattens it here.
 */
export const COLUMNS = {
  sqlite: 'e.id, a.handle AS owner, e.agent_id AS owner_id, e.namespace, e.key, e.visibility, e.tags, e.created_at, e.updated_at, memory_words(e.value) AS text',
  postgres: 'e.id, a.handle AS owner, e.agent_id AS owner_id, e.namespace, e.key, e.visibility, e.tags, e.created_at, e.updated_at, CAST(e.value AS TEXT) AS text',
};

/** Rows read with COLUMNS, with their words. */
export const readWords = async <T extends { text: string }>(db: Db, rows: Promise<T[]>): Promise<T[]> =>
  db.dialect === 'sqlite' ? rows : (await rows).map((r) => ({ ...r, text: flattenText(JSON.parse(r.text)) }));

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
