// When an agent rotates its secret, its vault is re-encrypted under the new key in the same transaction,
// so no entry is ever left readable only by a secret that no longer exists.
import type { Queryable } from '../../src/store/db.js';
import { open, seal, vaultKey } from './crypto.js';
import { allSealed, replaceSealed, vaultSalt } from './store.js';

export async function rekeyVault(tx: Queryable, agentId: string, oldSecret: string, newSecret: string): Promise<number> {
  const salt = await vaultSalt(tx, agentId);
  if (!salt) return 0;
  const oldKey = vaultKey(oldSecret, salt.salt);
  const newKey = vaultKey(newSecret, salt.salt);
  const rows = await allSealed(tx, agentId);
  for (const r of rows) {
    const sealed = seal(newKey, agentId, r.name, open(oldKey, agentId, r.name, r.nonce, r.ciphertext));
    await replaceSealed(tx, agentId, r.name, sealed.nonce, sealed.ciphertext);
  }
  return rows.length;
}
