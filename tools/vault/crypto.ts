// Vault encryption (docs/decisions/egress-artifacts-vault.md): AES-256-GCM under a key derived with HKDF-SHA256 from the agent's secret and a
// per-agent random salt; a random 96-bit nonce per write; the agent id and entry name are bound in as
// additional data, so a ciphertext moved to another entry or agent fails to open.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const INFO = Buffer.from('agent-gateway vault v1');
const TAG = 16;

export const newSalt = (): Buffer => randomBytes(32);

export function vaultKey(secret: string, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), salt, INFO, 32));
}

const aad = (agentId: string, name: string) => Buffer.from(`${agentId}\u0000${name}`, 'utf8');

export function seal(key: Buffer, agentId: string, name: string, plaintext: string): { nonce: Buffer; ciphertext: Buffer } {
  const nonce = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, nonce);
  c.setAAD(aad(agentId, name));
  const body = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
  return { nonce, ciphertext: Buffer.concat([body, c.getAuthTag()]) };
}

export class VaultIntegrityError extends Error {
  override name = 'VaultIntegrityError';
}

export function open(key: Buffer, agentId: string, name: string, nonce: Buffer, ciphertext: Buffer): string {
  try {
    const d = createDecipheriv('aes-256-gcm', key, nonce);
    d.setAAD(aad(agentId, name));
    d.setAuthTag(ciphertext.subarray(ciphertext.length - TAG));
    return Buffer.concat([d.update(ciphertext.subarray(0, ciphertext.length - TAG)), d.final()]).toString('utf8');
  } catch {
    throw new VaultIntegrityError('the entry cannot be decrypted: wrong key or tampered ciphertext');
  }
}
