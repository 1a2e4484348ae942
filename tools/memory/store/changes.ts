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
 * optionally one namespace, in sequence order.
 */
const FIELDS = 'c.seq, a.handle AS owner, c.namespace, c.key, c.op, c.version, c.value, c.visibility, c.tags, c.expires_at, c.at';

export const changesSince = (db: Db, o: { agentId: string; since: number; namespace: string | null; limit: number }) =>
  db.all<ChangeRow>(
    `SELECT * FROM (
       SELECT ${FIELDS} FROM memory_changes c JOIN agents a ON a.id = c.agent_id
       WHERE c.agent_id = ?3 AND c.seq > ?1 AND (CAST(?2 AS TEXT) IS NULL OR c.namespace = ?2)
       UNION ALL
       SELECT ${FIELDS} FROM memory_acl acl
       JOIN memory_changes c ON c.agent_id = acl.owner_id AND c.namespace = acl.namespace
       JOIN agents a ON a.id = c.agent_id
       WHERE acl.grantee_id = ?3 AND acl.permission = 'write' AND c.seq > ?1 AND (CAST(?2 AS TEXT) IS NULL OR c.namespace = ?2)
     ) AS feed ORDER BY seq LIMIT ?4`,
    [o.since, o.namespace, o.agentId, o.limit],
  );
