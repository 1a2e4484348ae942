// SQL that selects what POST /memory/forget removes: one query serves the dry run and the real run.
import type { Db, Queryable } from '../../../src/store/db.js';
import { queryTerms } from '../query-terms.js';
import { tsTerm } from './candidates.js';

export interface ForgetFilter {
  agentId: string;
  namespace?: string;
  keyPrefix?: string;
  tags?: string[];
  olderThan?: number;
  /** ftsQuery's FTS5 string of `query`. */
  match?: string;
  /** The words it came from (PostgreSQL's tsquery is built from them). */
  query?: string;
  now: number;
  limit: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

// What differs: a tag in the JSON array, the full-text match (FTS5's memory_fts, or the tsvector column on
// PostgreSQL, words of key/tags/namespace/text being weights A-C), and LIKE, which SQLite makes case-insensitive
// (ASCII), as ILIKE is.
const TAGGED = {
  sqlite: 'EXISTS (SELECT 1 FROM json_each(e.tags) WHERE value = ?)',
  postgres: 'EXISTS (SELECT 1 FROM jsonb_array_elements_text(e.tags) AS t(value) WHERE t.value = ?)',
};
// An owner's public entries are in memory_fts_pub (migration 033), the others in memory_fts. PostgreSQL's match is
// built from the words in selectForgettable.
const MATCHES_SQLITE = 'e.id IN (SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? UNION ALL SELECT rowid FROM memory_fts_pub WHERE memory_fts_pub MATCH ?)';
const KEY_PREFIX = { sqlite: "e.key LIKE ? ESCAPE '\\'", postgres: "e.key ILIKE ? ESCAPE '\\'" };

export function selectForgettable(q: Queryable, dialect: Db['dialect'], f: ForgetFilter) {
  const where = ['e.agent_id = ?', '(e.expires_at IS NULL OR e.expires_at > ?)'];
  const params: (string | number)[] = [f.agentId, f.now];
  if (f.namespace) where.push('e.namespace = ?'), params.push(f.namespace);
  if (f.keyPrefix) where.push(KEY_PREFIX[dialect]), params.push(`${escapeLike(f.keyPrefix)}%`);
  if (f.olderThan !== undefined) where.push('e.updated_at < ?'), params.push(f.olderThan);
  for (const t of f.tags ?? []) where.push(TAGGED[dialect]), params.push(t);
  if (f.match) {
    if (dialect === 'sqlite') {
      where.push(MATCHES_SQLITE);
      params.push(`{namespace key text tags} : (${f.match})`, `{namespace key text tags} : (${f.match})`);
    } else {
      // Every word, each parsed as the index holds it (pg migration 040); no word left matches nothing.
      const terms = queryTerms(f.query ?? '', 'all').map(tsTerm);
      where.push(terms.length ? `e.fts @@ (${terms.map((t) => `to_tsquery('${t.config}', ?)`).join(' && ')})` : 'FALSE');
      params.push(...terms.map((t) => t.operand));
    }
  }
  params.push(f.limit);
  return q.all<{ id: number; namespace: string; key: string; version: number; updated_at: number }>(
    `SELECT e.id, e.namespace, e.key, e.version, e.updated_at FROM memory_entries e WHERE ${where.join(' AND ')} ORDER BY e.namespace, e.key LIMIT ?`,
    params,
  );
}
