// SQL for the vault: per-agent salt and encrypted entries (name, kind, metadata in plaintext).
import type { Db, Queryable } from '../../src/store/db.js';

export interface VaultRow {
  name: string;
  kind: string;
  metadata: string;
  nonce: Buffer;
  ciphertext: Buffer;
  created_at: number;
  updated_at: number;
}

/** The agent's vault salt, created on first use (a read on every later use; a racing first use keeps one salt). */
export async function saltOf(db: Db, agentId: string, fresh: () => Buffer, now: number): Promise<Buffer> {
  const known = await vaultSalt(db, agentId);
  if (known) return known.salt;
  await db.run('INSERT INTO vault_keys (agent_id, salt, created_at) VALUES (?, ?, ?) ON CONFLICT (agent_id) DO NOTHING', [agentId, fresh(), now]);
  return (await vaultSalt(db, agentId))!.salt;
}

export async function putEntry(db: Db, agentId: string, e: Omit<VaultRow, 'created_at' | 'updated_at'>, now: number): Promise<{ created_at: number; updated_at: number }> {
  return (await db.get<{ created_at: number; updated_at: number }>(
    `INSERT INTO vault_entries (agent_id, name, kind, metadata, nonce, ciphertext, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (agent_id, name) DO UPDATE SET kind = excluded.kind, metadata = excluded.metadata, nonce = excluded.nonce,
       ciphertext = excluded.ciphertext, updated_at = excluded.updated_at
     RETURNING created_at, updated_at`,
    [agentId, e.name, e.kind, e.metadata, e.nonce, e.ciphertext, now, now],
  ))!;
}

export const getEntry = (db: Queryable, agentId: string, name: string) =>
  db.get<VaultRow>('SELECT name, kind, metadata, nonce, ciphertext, created_at, updated_at FROM vault_entries WHERE agent_id = ? AND name = ?', [agentId, name]);

export const listEntries = (db: Db, agentId: string) =>
  db.all<Omit<VaultRow, 'nonce' | 'ciphertext'>>('SELECT name, kind, metadata, created_at, updated_at FROM vault_entries WHERE agent_id = ? ORDER BY name', [agentId]);

export const deleteEntry = async (db: Db, agentId: string, name: string): Promise<boolean> =>
  (await db.run('DELETE FROM vault_entries WHERE agent_id = ? AND name = ?', [agentId, name])).changes > 0;

/** Every entry's ciphertext, for re-encryption when the agent secret changes. */
export const allSealed = (q: Queryable, agentId: string) =>
  q.all<{ name: string; nonce: Buffer; ciphertext: Buffer }>('SELECT name, nonce, ciphertext FROM vault_entries WHERE agent_id = ?', [agentId]);

export async function replaceSealed(q: Queryable, agentId: string, name: string, nonce: Buffer, ciphertext: Buffer): Promise<void> {
  await q.run('UPDATE vault_entries SET nonce = ?, ciphertext = ? WHERE agent_id = ? AND name = ?', [nonce, ciphertext, agentId, name]);
}

export const vaultSalt = (q: Queryable, agentId: string) => q.get<{ salt: Buffer }>('SELECT salt FROM vault_keys WHERE agent_id = ?', [agentId]);
