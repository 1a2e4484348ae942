// The local payment-signature check must decide exactly as the token's ecrecover (with FiatToken's low-s and
// v rules) would, on the first signature from a payer (recovery) and on later ones (the kept key's tables).
import { secp256k1 } from '@noble/curves/secp256k1';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { hexToBytes, isAddressEqual, keccak256, recoverAddress, toHex, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { signedBy } from '../../src/billing/x402/ecdsa.js';

const N = secp256k1.CURVE.n;
const digest = (i: number | string): Hex => keccak256(toHex(`payment ${i}`));
const parts = (sig: Hex) => ({ r: BigInt(`0x${sig.slice(2, 66)}`), s: BigInt(`0x${sig.slice(66, 130)}`), v: Number.parseInt(sig.slice(130), 16) });
const join = (r: bigint, s: bigint, v: number): Hex =>
  `0x${r.toString(16).padStart(64, '0')}${s.toString(16).padStart(64, '0')}${v.toString(16).padStart(2, '0')}`;
const flipV = (sig: Hex): Hex => {
  const { r, s, v } = parts(sig);
  return join(r, s, v === 27 ? 28 : 27);
};
const check = (h: Hex, sig: Hex, address: string) => signedBy(hexToBytes(h), sig, address);

describe('payment signature check', () => {
  it('accepts the payer on the first signature and on every later one', async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    for (let i = 0; i < 4; i++) {
      const h = digest(`ok-${i}`);
      expect(check(h, await payer.sign({ hash: h }), payer.address)).toBe(true);
      expect(check(h, await payer.sign({ hash: h }), payer.address.toLowerCase())).toBe(true);
    }
  });

  it('refuses another signer, a changed digest and a flipped v, before and after the key is known', async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    const h = digest('forged');
    const forged = await other.sign({ hash: h });
    // Unknown payer: recovery says who signed.
    expect(check(h, forged, payer.address)).toBe(false);
    const own = await payer.sign({ hash: h });
    expect(check(digest('changed'), own, payer.address)).toBe(false);
    expect(check(h, flipV(own), payer.address)).toBe(false);
    // Known payer (tables built after the second use): the same refusals.
    expect(check(h, own, payer.address)).toBe(true);
    expect(check(h, own, payer.address)).toBe(true);
    expect(check(h, forged, payer.address)).toBe(false);
    expect(check(digest('changed'), own, payer.address)).toBe(false);
    expect(check(h, flipV(own), payer.address)).toBe(false);
  });

  it('refuses what the token contract refuses: high s, v outside 27/28, r or s out of range, wrong length', async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    const h = digest('rules');
    const sig = await payer.sign({ hash: h });
    const { r, s, v } = parts(sig);
    // The malleable twin (n - s, other v) still recovers the payer with a bare ecrecover...
    const twin = join(r, N - s, v === 27 ? 28 : 27);
    expect(isAddressEqual(await recoverAddress({ hash: h, signature: twin }), payer.address)).toBe(true);
    for (const known of [false, true]) {
      if (known) check(h, sig, payer.address), check(h, sig, payer.address);
      // ...but FiatToken's ECRecover refuses it, so the gateway does too.
      expect(check(h, twin, payer.address)).toBe(false);
      expect(check(h, join(r, s, v - 27), payer.address)).toBe(false);
      expect(check(h, join(0n, s, v), payer.address)).toBe(false);
      expect(check(h, join(r, 0n, v), payer.address)).toBe(false);
      expect(check(h, join(r + N, s, v), payer.address)).toBe(false);
      expect(check(h, sig.slice(0, 130) as Hex, payer.address)).toBe(false);
      expect(check(h, `${sig}00` as Hex, payer.address)).toBe(false);
    }
    expect(signedBy(hexToBytes(h).subarray(1), sig, payer.address)).toBe(false);
  });

  it('agrees with ecrecover on random keys, digests and v', async () => {
    const payers = Array.from({ length: 5 }, () => privateKeyToAccount(generatePrivateKey()));
    for (let i = 0; i < 60; i++) {
      const signer = payers[i % payers.length];
      const claimed = payers[(i * 7) % payers.length];
      const h = digest(`random-${i}`);
      let sig = await signer.sign({ hash: h });
      if (i % 3 === 0) sig = flipV(sig);
      const { s } = parts(sig);
      const recovered = await recoverAddress({ hash: h, signature: sig });
      const expected = isAddressEqual(recovered, claimed.address) && s <= N / 2n;
      expect(check(h, sig, claimed.address)).toBe(expected);
    }
  });
});
