// SQL for vault_login handles (migration 024): keyed by the SHA-256 of the handle.
import type { AgentRef } from '../registry/call-types.js';
import type { Db, Queryable } from './db.js';

export interface LoginRow {
  idHash: string;
  agentId: string;
  createdAt: number;
  expiresAt: number;
  keyNonce: Buffer;
  sealedKey: Buffer;
}

export async function insertLogin(db: Db, r: LoginRow): Promise<void> {
  await db.batch([
    { sql: 'DELETE FROM vault_logins WHERE expires_at <= ? OR revoked_at IS NOT NULL', params: [r.createdAt] },
    {
      sql: 'INSERT INTO vault_logins (id_hash, agent_id, created_at, expires_at, key_nonce, sealed_key) VALUES (?, ?, ?, ?, ?, ?)',
      params: [r.idHash, r.agentId, r.createdAt, r.expiresAt, r.keyNonce, r.sealedKey],
    },
  ]);
}

const LIVE = 'l.id_hash = ? AND l.expires_at > ? AND l.revoked_at IS NULL';

/** The agent of a live handle: unexpired at `now` and not revoked. */
export const loginAgent = (db: Db, idHash: string, now: number): Promise<AgentRef | undefined> =>
  db.get<AgentRef>(`SELECT a.id, a.handle, a.suspended_at FROM vault_logins l JOIN agents a ON a.id = l.agent_id WHERE ${LIVE}`, [idHash, now]);

/** The sealed vault key of a live handle. */
export const loginKey = (db: Db, idHash: string, now: number): Promise<{ agent_id: string; key_nonce: Buffer; sealed_key: Buffer } | undefined> =>
  db.get(`SELECT l.agent_id, l.key_nonce, l.sealed_key FROM vault_logins l WHERE ${LIVE}`, [idHash, now]);

/** Revokes one live handle; false when there was none (unknown, expired or already revoked). */
export const revokeLogin = async (db: Db, idHash: string, now: number): Promise<boolean> =>
  (await db.run('UPDATE vault_logins SET revoked_at = ? WHERE id_hash = ? AND revoked_at IS NULL AND expires_at > ?', [now, idHash, now])).changes > 0;

/** Revokes every handle of an agent (its secret was rotated: what the old secret opened closes with it). */
export async function revokeAgentLogins(q: Queryable, agentId: string, now: number): Promise<void> {
  await q.run('UPDATE vault_logins SET revoked_at = ? WHERE agent_id = ? AND revoked_at IS NULL', [now, agentId]);
}
