// SQL for the resource change log (migration 022): where it ends, and what changed past a cursor, as URIs.
import type { Db } from './db.js';

export const lastResourceChange = async (db: Db): Promise<number> =>
  (await db.get<{ seq: number | null }>('SELECT max(seq) AS seq FROM resource_changes'))?.seq ?? 0;

export const resourceChangesSince = (db: Db, seq: number, limit: number): Promise<{ seq: number; uri: string }[]> =>
  db.all<{ seq: number; uri: string }>(
    `SELECT c.seq, c.scheme || '://' || coalesce(a.handle, '') || c.path AS uri
       FROM resource_changes c LEFT JOIN agents a ON a.id = c.agent_id
      WHERE c.seq > ? ORDER BY c.seq LIMIT ?`,
    [seq, limit],
  );
