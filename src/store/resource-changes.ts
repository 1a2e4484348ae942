// SQL for what changed among MCP resources, past a cursor, as URIs: the memory change feed (memory_changes, one
// row per key's latest change) and the log of the other resources (resource_changes, migration 022).
import type { Db } from './db.js';

/** How far a reader has read each log. */
export interface ChangeCursor {
  memory: number;
  other: number;
}

export const changeLogEnds = async (db: Db): Promise<ChangeCursor> => {
  const row = await db.get<{ memory: number | null; other: number | null }>(
    'SELECT (SELECT max(seq) FROM memory_changes) AS memory, (SELECT max(seq) FROM resource_changes) AS other',
  );
  return { memory: row?.memory ?? 0, other: row?.other ?? 0 };
};

export const memoryChangesSince = (db: Db, seq: number, limit: number): Promise<{ seq: number; uri: string }[]> =>
  db.all<{ seq: number; uri: string }>(
    `SELECT c.seq, 'memory://' || a.handle || '/' || c.namespace || '/' || c.key AS uri
       FROM memory_changes c JOIN agents a ON a.id = c.agent_id
      WHERE c.seq > ? ORDER BY c.seq LIMIT ?`,
    [seq, limit],
  );

export const resourceChangesSince = (db: Db, seq: number, limit: number): Promise<{ seq: number; uri: string }[]> =>
  db.all<{ seq: number; uri: string }>(
    `SELECT c.seq, c.scheme || '://' || coalesce(a.handle, '') || c.path AS uri
       FROM resource_changes c LEFT JOIN agents a ON a.id = c.agent_id
      WHERE c.seq > ? ORDER BY c.seq LIMIT ?`,
    [seq, limit],
  );
