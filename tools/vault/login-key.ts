// The vault key a vault_login handle carries: sealed under a key derived from the handle when it is minted, so
// only the handle's holder can open the vault with it, and the agent secret itself is never stored.
import { hkdfSync } from 'node:crypto';
import { GatewayError } from '../../src/errors.js';
import { hashSecret } from '../../src/auth/secrets.js';
import type { Db } from '../../src/store/db.js';
import { loginKey } from '../../src/store/vault-logins.js';
import { open, seal } from './crypto.js';

const INFO = Buffer.from('agent-gateway vault_login v1');
/** Sealed as if it were an entry of this name, so the agent id is bound in as additional data. */
const ENTRY = 'vault_login';

const wrappingKey = (login: string): Buffer => Buffer.from(hkdfSync('sha256', Buffer.from(login, 'utf8'), Buffer.alloc(0), INFO, 32));

export function sealVaultKey(login: string, agentId: string, vaultKey: Buffer): { nonce: Buffer; ciphertext: Buffer } {
  return seal(wrappingKey(login), agentId, ENTRY, vaultKey.toString('base64'));
}

/** The vault key of the agent a live handle stands for. */
export async function vaultKeyOfLogin(db: Db, login: string, agentId: string, now: number): Promise<Buffer> {
  const row = await loginKey(db, hashSecret(login), now);
  if (!row || row.agent_id !== agentId) throw new GatewayError('unauthorized', 'The vault_login handle is unknown, expired or revoked. Call vault_login again.');
  return Buffer.from(open(wrappingKey(login), agentId, ENTRY, row.key_nonce, row.sealed_key), 'base64');
}
