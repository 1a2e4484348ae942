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

/**
 * Asks FTS5 for entries visible to the caller (own, shared with it, public, scratchpad) that match the words,
 * ranked by BM25 inside the index, then reads the few winners.
 */
export async function searchMemory(
  db: Db,
  o: { match: string; callerId: string | null; shared: { owner_id: string; namespace: string }[]; namespace: string | null; limit: number; now: number },
) {
  const scope = ['pub', ...(o.callerId ? [ownerToken(o.callerId)] : []), ...o.shared.map((s) => shareToken(s.owner_id, s.namespace))];
  const query = `scope : (${scope.join(' OR ')}) AND {namespace key text tags} : (${o.match})${o.namespace ? ` AND scope : ${namespaceToken(o.namespace)}` : ''}`;
  return db.all<Omit<SearchHit, 'snippet'> & { text: string }>(
    `SELECT e.id, a.handle AS owner, e.agent_id AS owner_id, e.namespace, e.key, e.visibility, e.tags, e.updated_at, e.text, f.rank AS score
     FROM (SELECT rowid, rank FROM memory_fts WHERE memory_fts MATCH ?1 ORDER BY rank LIMIT ?2) f
     JOIN memory_entries e ON e.id = f.rowid LEFT JOIN agents a ON a.id = e.agent_id
     WHERE e.expires_at IS NULL OR e.expires_at > ?3
     ORDER BY f.rank`,
    [query, o.limit, o.now],
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
       (SELECT COUNT(*) FROM (SELECT DISTINCT owner_id, namespace FROM memory_acl)) AS shared_namespaces,
       (SELECT COUNT(*) FROM memory_embeddings) AS embedded`,
  );
  return row ?? {};
}
