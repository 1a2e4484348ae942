// SQL for facts (per entry version; superseded facts are kept but not returned) and the memory graph.
import type { Db } from '../../../src/store/db.js';
import type { Fact } from '../facts-extract.js';

/** Entries whose facts lag behind their version, oldest first. */
export const entriesDueForFacts = (db: Db, limit: number) =>
  db.all<{ id: number; value: string; text: string; tags: string; version: number }>(
    'SELECT id, value, text, tags, version FROM memory_entries WHERE facts_version < version ORDER BY id LIMIT ?',
    [limit],
  );

/**
 * Records the facts an entry version states: facts it no longer states are superseded (kept, not returned
 * by default), new ones are added, unchanged ones move to the new version. Skips when the entry moved on.
 */
export async function recordFacts(db: Db, entryId: number, version: number, facts: Fact[], now: number): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await tx.get<{ version: number }>('SELECT version FROM memory_entries WHERE id = ?', [entryId]);
    if (!current || current.version !== version) return;
    const active = await tx.all<{ id: number; kind: string; norm: string; object: string }>(
      'SELECT id, kind, norm, object FROM memory_facts WHERE entry_id = ? AND superseded_at IS NULL',
      [entryId],
    );
    const keyOf = (f: { kind: string; norm: string; object: string }) => `${f.kind}|${f.norm}|${f.object}`;
    const wanted = new Map(facts.map((f) => [keyOf(f), f]));
    for (const a of active) {
      if (wanted.has(keyOf(a))) {
        await tx.run('UPDATE memory_facts SET version = ? WHERE id = ?', [version, a.id]);
        wanted.delete(keyOf(a));
      } else {
        await tx.run('UPDATE memory_facts SET superseded_at = ? WHERE id = ?', [now, a.id]);
      }
    }
    for (const f of wanted.values()) {
      await tx.run('INSERT INTO memory_facts (entry_id, kind, subject, object, norm, version, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        entryId,
        f.kind,
        f.subject,
        f.object,
        f.norm,
        version,
        now,
      ]);
    }
    await tx.run('UPDATE memory_entries SET facts_version = ? WHERE id = ?', [version, entryId]);
  });
}

export interface FactRow {
  kind: string;
  subject: string;
  object: string;
  version: number;
  superseded_at: number | null;
  namespace: string;
  key: string;
  owner: string | null;
}

/** Facts matching a topic or entity, from the caller's own and public entries. */
export const searchFacts = (db: Db, o: { q: string; callerId: string | null; namespace: string | null; limit: number; includeSuperseded: boolean; now: number }) =>
  db.all<FactRow>(
    `SELECT f.kind, f.subject, f.object, f.version, f.superseded_at, e.namespace, e.key, a.handle AS owner
     FROM memory_facts f JOIN memory_entries e ON e.id = f.entry_id LEFT JOIN agents a ON a.id = e.agent_id
     WHERE (?1 = '' OR f.norm LIKE '%' || ?1 || '%' ESCAPE '\\' OR lower(f.object) LIKE '%' || ?1 || '%' ESCAPE '\\')
       AND (?2 = 1 OR f.superseded_at IS NULL) AND (?3 IS NULL OR e.namespace = ?3)
       AND (e.expires_at IS NULL OR e.expires_at > ?6)
       AND (e.agent_id = ?4 OR e.visibility = 'public' OR e.agent_id IS NULL)
     ORDER BY f.superseded_at IS NOT NULL, e.updated_at DESC, f.id LIMIT ?5`,
    [o.q, o.includeSuperseded ? 1 : 0, o.namespace, o.callerId, o.limit, o.now],
  );

export const factCount = async (db: Db, agentId: string): Promise<number> =>
  (await db.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM memory_facts f JOIN memory_entries e ON e.id = f.entry_id WHERE e.agent_id = ? AND f.superseded_at IS NULL',
    [agentId],
  ))?.n ?? 0;

/** Active non-path facts of an agent's own entries, most recent entries first (the graph's raw material). */
export const graphFacts = (db: Db, agentId: string, limit: number, now: number) =>
  db.all<{ entry_id: number; namespace: string; key: string; kind: string; subject: string; object: string; norm: string }>(
    `SELECT e.id AS entry_id, e.namespace, e.key, f.kind, f.subject, f.object, f.norm
     FROM memory_entries e JOIN memory_facts f ON f.entry_id = e.id AND f.superseded_at IS NULL AND f.kind <> 'path'
     WHERE e.agent_id = ? AND (e.expires_at IS NULL OR e.expires_at > ?)
     ORDER BY e.updated_at DESC LIMIT ?`,
    [agentId, now, limit],
  );
