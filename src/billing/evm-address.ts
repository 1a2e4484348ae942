// An Ethereum address from a private key with node's own secp256k1 and a 16 ms keccak, so the gateway can
// create or read its wallet at start-up without loading viem (~300 ms).
import { createECDH, randomBytes } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** EIP-55 mixed-case checksum address. */
export function checksumAddress(lowerHex40: string): `0x${string}` {
  const hash = hex(keccak_256(Buffer.from(lowerHex40, 'ascii')));
  let out = '0x';
  for (let i = 0; i < 40; i++) out += parseInt(hash[i], 16) >= 8 ? lowerHex40[i].toUpperCase() : lowerHex40[i];
  return out as `0x${string}`;
}

export function addressOf(privateKey: `0x${string}`): `0x${string}` {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(Buffer.from(privateKey.slice(2), 'hex'));
  const pub = ecdh.getPublicKey(); // uncompressed: 0x04 || X || Y
  return checksumAddress(hex(keccak_256(pub.subarray(1))).slice(-40));
}

/** A fresh private key within the curve order (retries the ~2^-128 chance of an out-of-range value). */
export function newPrivateKey(): `0x${string}` {
  for (;;) {
    const k = randomBytes(32);
    try {
      createECDH('secp256k1').setPrivateKey(k);
      return `0x${k.toString('hex')}`;
    } catch {
      // out of range: draw again
    }
  }
}
