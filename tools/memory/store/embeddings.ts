// SQL for entry embeddings (float32 vectors) used by semantic search.
import type { Db } from '../../../src/store/db.js';

export const entriesDueForEmbedding = (db: Db, limit: number) =>
  db.all<{ id: number; version: number; text: string; key: string }>(
    `SELECT e.id, e.version, memory_words(e.value) AS text, e.key FROM memory_entries e LEFT JOIN memory_embeddings m ON m.entry_id = e.id
     WHERE m.entry_id IS NULL OR m.version < e.version ORDER BY e.id LIMIT ?`,
    [limit],
  );

export async function storeEmbedding(db: Db, entryId: number, version: number, model: string, vector: Float32Array): Promise<void> {
  await db.run(
    `INSERT INTO memory_embeddings (entry_id, version, model, vector) SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM memory_entries WHERE id = ?1)
     ON CONFLICT (entry_id) DO UPDATE SET version = excluded.version, model = excluded.model, vector = excluded.vector`,
    [entryId, version, model, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)],
  );
}

/** Vectors of the most recent entries the caller may see (same visibility rule as full-text search). */
export const visibleVectors = (db: Db, o: { callerId: string | null; namespace: string | null; limit: number; now: number }) =>
  db.all<{ id: number; vector: Buffer }>(
    `SELECT e.id, m.vector FROM memory_embeddings m JOIN memory_entries e ON e.id = m.entry_id
     WHERE (e.expires_at IS NULL OR e.expires_at > ?1) AND (CAST(?2 AS TEXT) IS NULL OR e.namespace = ?2)
       AND (e.visibility = 'public' OR e.agent_id IS NULL OR e.agent_id = ?3
            OR EXISTS (SELECT 1 FROM memory_acl acl WHERE acl.owner_id = e.agent_id AND acl.namespace = e.namespace AND acl.grantee_id = ?3))
     ORDER BY e.updated_at DESC LIMIT ?4`,
    [o.now, o.namespace, o.callerId, o.limit],
  );

/** Search rows for ids found by vector similarity (snippet = start of the text). */
export const hitsByIds = (db: Db, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db.all<{ id: number; owner: string | null; owner_id: string | null; namespace: string; key: string; visibility: string; tags: string; created_at: number; updated_at: number; snippet: string }>(
        `SELECT e.id, a.handle AS owner, e.agent_id AS owner_id, e.namespace, e.key, e.visibility, e.tags, e.created_at, e.updated_at, substr(memory_words(e.value), 1, 120) AS snippet
         FROM memory_entries e LEFT JOIN agents a ON a.id = e.agent_id WHERE e.id IN (${ids.map(() => '?').join(',')})`,
        ids,
      );
