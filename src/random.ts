// Random bytes for ids, drawn from a pool refilled 4 KB at a time, as Node does for randomUUID(): one
// randomBytes() call cost 5 µs here (a system call each), the hottest cost of minting an A2A task. Every byte is
// cryptographically random and handed out once; keys, nonces and secrets still come from randomBytes().
import { randomFillSync } from 'node:crypto';

const POOL = Buffer.alloc(4096);
let used = POOL.length;

/** `n` (at most 256) fresh random bytes, in a new buffer. */
export function poolBytes(n: number): Buffer {
  if (n > 256) throw new RangeError('poolBytes takes at most 256 bytes');
  if (used + n > POOL.length) {
    randomFillSync(POOL);
    used = 0;
  }
  const out = Buffer.allocUnsafe(n);
  POOL.copy(out, 0, used, used + n);
  // The handed-out bytes leave the pool.
  POOL.fill(0, used, used + n);
  used += n;
  return out;
}
