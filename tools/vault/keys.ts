// The caller's vault key and decrypting one entry: shared by the vault tools and the call-through.
import { GatewayError } from '../../src/errors.js';
import type { ToolContext } from '../../src/registry/types.js';
import { newSalt, open, vaultKey, VaultIntegrityError } from './crypto.js';
import { vaultKeyOfLogin } from './login-key.js';
import * as store from './store.js';

/** The caller's vault key (HKDF of the Bearer secret and the agent's salt), or the one its vault_login carries. */
export async function keyFor(ctx: ToolContext): Promise<Buffer> {
  const me = ctx.caller.agent!;
  const { bearer: secret, login } = ctx.caller.credentials;
  if (login) return vaultKeyOfLogin(ctx.db, login, me.id, ctx.clock.now());
  if (!secret) throw new GatewayError('unauthorized', 'The vault needs the agent secret in Authorization: Bearer.');
  return vaultKey(secret, await store.saltOf(ctx.db, me.id, newSalt, ctx.clock.now()));
}

/** Decrypts one entry of the caller, or explains why not. */
export async function openEntry(ctx: ToolContext, name: string): Promise<{ row: store.VaultRow; value: unknown }> {
  const me = ctx.caller.agent!;
  const row = await store.getEntry(ctx.db, me.id, name);
  if (!row) throw new GatewayError('not_found', `No vault entry named "${name}".`);
  try {
    return { row, value: JSON.parse(open(await keyFor(ctx), me.id, name, row.nonce, row.ciphertext)) };
  } catch (err) {
    if (err instanceof VaultIntegrityError) throw new GatewayError('integrity_error', `The vault entry "${name}" cannot be decrypted: it was altered or the key is wrong.`);
    throw err;
  }
}

