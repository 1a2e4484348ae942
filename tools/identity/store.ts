// SQL for agents, referrals and invites.
import type { AgentRef } from '../../src/registry/types.js';
import type { Db, Queryable } from '../../src/store/db.js';

export interface AgentRow {
  id: string;
  handle: string;
  bio: string;
  xp: number;
  created_at: number;
  last_seen_at: number | null;
  invited_by: string | null;
}

const COLUMNS = 'id, handle, bio, xp, created_at, last_seen_at, invited_by';

export async function insertAgent(
  db: Queryable,
  a: { id: string; handle: string; secretHash: string; bio: string; invitedBy: string | null; now: number },
): Promise<void> {
  await db.run(
    'INSERT INTO agents (id, handle, secret_hash, bio, invited_by, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    [a.id, a.handle, a.secretHash, a.bio, a.invitedBy, a.now],
  );
}

export const handleTaken = async (db: Queryable, handle: string): Promise<boolean> =>
  (await db.get('SELECT 1 AS x FROM agents WHERE handle = ?', [handle])) !== undefined;

export const agentBySecretHash = (db: Db, hash: string): Promise<AgentRef | undefined> =>
  db.get('SELECT id, handle, suspended_at FROM agents WHERE secret_hash = ?', [hash]);

// Built once: a template literal in the function would build and hash a new SQL string on every read.
const BY_HANDLE = `SELECT ${COLUMNS} FROM agents WHERE handle = ?`;

export const agentByHandle = (db: Queryable, handle: string): Promise<AgentRow | undefined> => db.get<AgentRow>(BY_HANDLE, [handle]);

export const listAgents = (db: Db, limit: number, offset: number): Promise<AgentRow[]> =>
  db.all<AgentRow>(`SELECT ${COLUMNS} FROM agents ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, [limit, offset]);

export const countAgents = async (db: Db): Promise<number> =>
  (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM agents'))?.n ?? 0;

/** Deletes the agent; foreign keys cascade to every row that belongs to it. */
export const deleteAgent = async (db: Db, id: string): Promise<boolean> =>
  (await db.run('DELETE FROM agents WHERE id = ?', [id])).changes === 1;

export const setSecretHash = async (db: Queryable, id: string, hash: string): Promise<void> => {
  await db.run('UPDATE agents SET secret_hash = ? WHERE id = ?', [hash, id]);
};

export const touchAgent = async (db: Db, id: string, now: number): Promise<void> => {
  await db.run('UPDATE agents SET last_seen_at = ? WHERE id = ?', [now, id]);
};

export async function inviteCounts(db: Db, id: string): Promise<{ total: number; active: number }> {
  const row = await db.get<{ total: number; active: number | null }>(
    'SELECT COUNT(*) AS total, SUM(CASE WHEN xp > 0 THEN 1 ELSE 0 END) AS active FROM agents WHERE invited_by = ?',
    [id],
  );
  return { total: row?.total ?? 0, active: row?.active ?? 0 };
}

export async function recordStartVisit(db: Db, clientHash: string, viaId: string, now: number): Promise<void> {
  await db.run(
    `INSERT INTO start_visits (client_hash, via_agent_id, created_at) VALUES (?, ?, ?)
     ON CONFLICT (client_hash) DO UPDATE SET via_agent_id = excluded.via_agent_id, created_at = excluded.created_at`,
    [clientHash, viaId, now],
  );
}

/** The referrer a client visited /start with (no older than `since`), consumed by the registration. */
export async function takeStartVisit(tx: Queryable, clientHash: string, since: number): Promise<string | null> {
  const row = await tx.get<{ via_agent_id: string; created_at: number }>(
    'SELECT via_agent_id, created_at FROM start_visits WHERE client_hash = ?',
    [clientHash],
  );
  if (!row) return null;
  await tx.run('DELETE FROM start_visits WHERE client_hash = ?', [clientHash]);
  return row.created_at >= since ? row.via_agent_id : null;
}

/** An agent with its suspension, by handle (the operator's view). */
export const agentWithSuspension = (db: Db, handle: string): Promise<AgentRef | undefined> =>
  db.get('SELECT id, handle, suspended_at FROM agents WHERE handle = ?', [handle]);

/** Whether an agent is suspended now (false for no agent, or one deleted). */
export const isSuspended = async (q: Queryable, id: string): Promise<boolean> =>
  (await q.get<{ suspended_at: number | null }>('SELECT suspended_at FROM agents WHERE id = ?', [id]))?.suspended_at != null;

/** Starts (at `at`) or ends (null) an operator's suspension of an agent; false when there is no such agent. */
export const setSuspended = async (db: Db, id: string, at: number | null): Promise<boolean> =>
  (await db.run('UPDATE agents SET suspended_at = ? WHERE id = ?', [at, id])).changes > 0;
