// SQL for an agent's memory overview: stats and the raw material of the context card.
import type { Db } from '../../../src/store/db.js';

export async function statsOf(db: Db, agentId: string, now: number) {
  const row = await db.get<Record<string, number>>(
    `SELECT
       (SELECT entries FROM memory_usage WHERE agent_id = ?1) AS entries,
       (SELECT bytes FROM memory_usage WHERE agent_id = ?1) AS bytes,
       (SELECT COUNT(DISTINCT namespace) FROM memory_entries WHERE agent_id = ?1 AND (expires_at IS NULL OR expires_at > ?2)) AS namespaces,
       (SELECT COUNT(*) FROM memory_versions v JOIN memory_entries e ON e.id = v.entry_id WHERE e.agent_id = ?1)
         + (SELECT COUNT(*) FROM memory_entries WHERE agent_id = ?1) AS versions,
       (SELECT COUNT(*) FROM memory_acl WHERE owner_id = ?1) AS shares,
       (SELECT COUNT(*) FROM memory_acl WHERE grantee_id = ?1) AS shared_with_me,
       (SELECT COUNT(*) FROM memory_facts f JOIN memory_entries e ON e.id = f.entry_id WHERE e.agent_id = ?1 AND f.superseded_at IS NULL) AS facts`,
    [agentId, now],
  );
  return row ?? {};
}

const CARD_COLS = 'id, namespace, key, memory_value(value) AS value, tags, pinned, version, updated_at';
export interface CardRow {
  id: number;
  namespace: string;
  key: string;
  value: string;
  tags: string;
  pinned: number;
  version: number;
  updated_at: number;
}

const LIVE = '(expires_at IS NULL OR expires_at > ?)';

export const recentEntries = (db: Db, agentId: string, now: number, limit: number) =>
  db.all<CardRow>(`SELECT ${CARD_COLS} FROM memory_entries WHERE agent_id = ? AND ${LIVE} ORDER BY updated_at DESC, id DESC LIMIT ?`, [agentId, now, limit]);

export const pinnedEntries = (db: Db, agentId: string, now: number, limit: number) =>
  db.all<CardRow>(`SELECT ${CARD_COLS} FROM memory_entries WHERE agent_id = ? AND pinned = 1 AND ${LIVE} ORDER BY updated_at DESC, id DESC LIMIT ?`, [agentId, now, limit]);

/** Entries marked open: tagged todo/open/task, or a JSON value whose status says it is not done. */
const OPEN = {
  sqlite: `(EXISTS (SELECT 1 FROM json_each(tags) WHERE value IN ('todo', 'open', 'task', 'open-item'))
            OR (json_valid(value) AND json_type(value) = 'object' AND json_extract(value, '$.status') IN ('open', 'todo', 'in_progress', 'blocked')))`,
  postgres: `(EXISTS (SELECT 1 FROM jsonb_array_elements_text(tags) AS t(value) WHERE t.value IN ('todo', 'open', 'task', 'open-item'))
            OR (json_typeof(value) = 'object' AND value ->> 'status' IN ('open', 'todo', 'in_progress', 'blocked')))`,
};

export const openItems = (db: Db, agentId: string, now: number, limit: number) =>
  db.all<CardRow>(
    `SELECT ${CARD_COLS} FROM memory_entries WHERE agent_id = ? AND ${LIVE}
       AND ${OPEN[db.dialect]}
     ORDER BY updated_at DESC, id DESC LIMIT ?`,
    [agentId, now, limit],
  );

export const entriesByIds = (db: Db, ids: number[]) =>
  ids.length === 0 ? Promise.resolve([]) : db.all<CardRow>(`SELECT ${CARD_COLS} FROM memory_entries WHERE id IN (${ids.map(() => '?').join(',')})`, ids);

export const namespacesOf = (db: Db, agentId: string, now: number) =>
  db.all<{ namespace: string; entries: number; updated_at: number }>(
    `SELECT namespace, COUNT(*) AS entries, MAX(updated_at) AS updated_at FROM memory_entries WHERE agent_id = ? AND ${LIVE} GROUP BY namespace ORDER BY updated_at DESC`,
    [agentId, now],
  );

/** The owner's latest position in the change feed (0 with none): it moves with every write, on any instance. */
export const latestChange = async (db: Db, agentId: string): Promise<number> =>
  (await db.get<{ s: number | null }>('SELECT max(seq) AS s FROM memory_changes WHERE agent_id = ?', [agentId]))?.s ?? 0;
