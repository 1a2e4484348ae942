// SQL for full-text search over memory (FTS5, BM25) with the visibility rule in the query itself:
// own entries, entries shared with the caller, public entries and the scratchpad, never others' private ones.
import type { Db } from '../../../src/store/db.js';

/** Turns free text into a safe FTS5 query: every word must match; the last one may be a prefix. */
export function ftsQuery(q: string): string | null {
  const words = q.normalize('NFKC').match(/[\p{L}\p{N}_]+/gu)?.slice(0, 16) ?? [];
  if (words.length === 0) return null;
  return words.map((w, i) => `"${w}"${i === words.length - 1 && w.length >= 2 ? '*' : ''}`).join(' ');
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

/** BM25 weights per column: namespace, key, text, tags. */
const WEIGHTS = 'bm25(memory_fts, 1.0, 4.0, 1.0, 2.0)';

export const searchMemory = (db: Db, o: { match: string; callerId: string | null; namespace: string | null; limit: number; now: number }) =>
  db.all<SearchHit>(
    `SELECT e.id, a.handle AS owner, e.agent_id AS owner_id, e.namespace, e.key, e.visibility, e.tags, e.updated_at,
            snippet(memory_fts, 2, '«', '»', '…', 16) AS snippet, ${WEIGHTS} AS score
     FROM memory_fts JOIN memory_entries e ON e.id = memory_fts.rowid LEFT JOIN agents a ON a.id = e.agent_id
     WHERE memory_fts MATCH ?1 AND (e.expires_at IS NULL OR e.expires_at > ?2) AND (?3 IS NULL OR e.namespace = ?3)
       AND (e.visibility = 'public' OR e.agent_id IS NULL OR e.agent_id = ?4
            OR EXISTS (SELECT 1 FROM memory_acl acl WHERE acl.owner_id = e.agent_id AND acl.namespace = e.namespace AND acl.grantee_id = ?4))
     ORDER BY score LIMIT ?5`,
    [o.match, o.now, o.namespace, o.callerId, o.limit],
  );

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
