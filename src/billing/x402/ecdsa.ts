// Does a 65-byte signature over a digest come from an address, exactly as the token contract's ecrecover
// (with the low-s and v rules of FiatToken's ECRecover) would decide? A first signature from an address is
// checked by public-key recovery (about 4 ms here). Payers pay again and again, so the recovered key is kept,
// and from its second use with window tables: then the check computes R = u1·G + u2·Q (about 1.1 ms) and
// compares it with the signature's (r, v), which is the same test ecrecover makes. (`multiply`, not
// `multiplyUnsafe`: in @noble/curves 1.9.1 the latter returns wrong points once a point has tables.)
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';

type Point = InstanceType<typeof secp256k1.ProjectivePoint>;

const { n: N } = secp256k1.CURVE;
const HALF_N = N >> 1n;
const G = secp256k1.ProjectivePoint.BASE;
/** Window size of a payer's tables: about 7 ms to build once and 160 KB kept; a multiply then costs 0.5 ms. */
const WINDOW = 5;
const MAX_KEYS = 64;

interface KnownKey {
  point: Point;
  tables: boolean;
}

/** Public keys by lowercase address, least recently used first. */
const keys = new Map<string, KnownKey>();

const mod = (a: bigint): bigint => ((a % N) + N) % N;

/** a^-1 mod N (N is prime). */
function invert(a: bigint): bigint {
  let [x, y, u, v] = [mod(a), N, 1n, 0n];
  while (x !== 0n) {
    const q = y / x;
    [x, y, u, v] = [y - q * x, x, v - q * u, u];
  }
  return mod(v);
}

const hexToBigInt = (hex: string): bigint => (hex.length === 0 ? 0n : BigInt(`0x${hex}`));

/** The Ethereum address of an uncompressed public key. */
function addressOf(point: Point): string {
  const raw = point.toRawBytes(false).subarray(1);
  return `0x${Buffer.from(keccak_256(raw).subarray(12)).toString('hex')}`;
}

function remember(address: string, entry: KnownKey): void {
  keys.delete(address);
  keys.set(address, entry);
  if (keys.size > MAX_KEYS) keys.delete(keys.keys().next().value as string);
}

/**
 * True when `signature` (0x + r‖s‖v, 65 bytes) over `digest` (32 bytes) recovers `address`. Refuses what the
 * contract refuses: v other than 27/28, r or s out of range, and high s.
 */
export function signedBy(digest: Uint8Array, signature: string, address: string): boolean {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature) || digest.length !== 32) return false;
  const r = hexToBigInt(signature.slice(2, 66));
  const s = hexToBigInt(signature.slice(66, 130));
  const v = Number.parseInt(signature.slice(130, 132), 16);
  if ((v !== 27 && v !== 28) || r <= 0n || r >= N || s <= 0n || s > HALF_N) return false;
  const parity = BigInt(v - 27);
  const z = mod(hexToBigInt(Buffer.from(digest).toString('hex')));
  const who = address.toLowerCase();
  const known = keys.get(who);
  if (!known) return recoverAndRemember(digest, r, s, parity, who);
  if (!known.tables) {
    known.point._setWindowSize(WINDOW);
    known.tables = true;
  }
  remember(who, known);
  const w = invert(s);
  const u1 = mod(z * w);
  // multiply() takes 1 ≤ k < n; u2 = r/s is never 0, u1 = z/s is 0 only for a digest of 0 mod n.
  const R = (u1 === 0n ? secp256k1.ProjectivePoint.ZERO : G.multiply(u1)).add(known.point.multiply(mod(r * w)));
  if (R.equals(secp256k1.ProjectivePoint.ZERO)) return false;
  const { x, y } = R.toAffine();
  // ecrecover rebuilds R from x = r and the parity v - 27: the key is the payer's only if that is this R.
  return x === r && (y & 1n) === parity;
}

function recoverAndRemember(digest: Uint8Array, r: bigint, s: bigint, parity: bigint, who: string): boolean {
  let point: Point;
  try {
    point = new secp256k1.Signature(r, s).addRecoveryBit(Number(parity)).recoverPublicKey(digest);
  } catch {
    return false;
  }
  if (addressOf(point) !== who) return false;
  remember(who, { point, tables: false });
  return true;
}
