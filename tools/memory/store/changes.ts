// SQL for the change feed: compacted to the latest change per key, read in sequence order.
import type { Db } from '../../../src/store/db.js';

export interface ChangeRow {
  seq: number;
  owner: string | null;
  namespace: string;
  key: string;
  op: 'put' | 'delete' | 'expire' | 'forget';
  version: number;
  value: string | null;
  visibility: string | null;
  tags: string | null;
  expires_at: number | null;
  at: number;
}

/**
 * Changes after `since` in the caller's own namespaces and in namespaces shared with it for writing,
 * optionally one namespace, in sequence order. A put's value is the entry's: the feed keeps each key's latest
 * change only, so a put row is the entry's current version (migration 032 stopped copying it into the feed).
 */
const FIELDS = "c.seq, a.handle AS owner, c.namespace, c.key, c.op, c.version, CASE WHEN c.op = 'put' THEN memory_value(e.value) END AS value, c.visibility, c.tags, c.expires_at, c.at";
// The entry of a change, matched as the entries' unique index is written.
const ENTRY = {
  sqlite: "LEFT JOIN memory_entries e ON ifnull(e.agent_id, '') = c.agent_id AND e.namespace = c.namespace AND e.key = c.key",
  postgres: "LEFT JOIN memory_entries e ON coalesce(e.agent_id, '') = c.agent_id AND e.namespace = c.namespace AND e.key = c.key",
};

export const changesSince = (db: Db, o: { agentId: string; since: number; namespace: string | null; limit: number }) =>
  db.all<ChangeRow>(
    `SELECT * FROM (
       SELECT ${FIELDS} FROM memory_changes c JOIN agents a ON a.id = c.agent_id ${ENTRY[db.dialect]}
       WHERE c.agent_id = ?3 AND c.seq > ?1 AND (CAST(?2 AS TEXT) IS NULL OR c.namespace = ?2)
       UNION ALL
       SELECT ${FIELDS} FROM memory_acl acl
       JOIN memory_changes c ON c.agent_id = acl.owner_id AND c.namespace = acl.namespace
       JOIN agents a ON a.id = c.agent_id ${ENTRY[db.dialect]}
       WHERE acl.grantee_id = ?3 AND acl.permission = 'write' AND c.seq > ?1 AND (CAST(?2 AS TEXT) IS NULL OR c.namespace = ?2)
     ) AS feed ORDER BY seq LIMIT ?4`,
    [o.since, o.namespace, o.agentId, o.limit],
  );
