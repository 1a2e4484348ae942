// Pooled random bytes for ids: fresh every time (never handed out twice), across pool refills too.
import { describe, expect, it } from 'vitest';
import { poolBytes } from '../src/random.js';

describe('poolBytes', () => {
  it('gives bytes of the asked length that are never repeated, across many refills of the pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const b = poolBytes(16);
      expect(b).toHaveLength(16);
      seen.add(b.toString('hex'));
    }
    expect(seen.size).toBe(5000);
    // A draw that does not fit what is left of the pool comes from a fresh pool, whole.
    expect(poolBytes(256)).toHaveLength(256);
    expect(() => poolBytes(257)).toThrow(RangeError);
  });

  it('a handed-out buffer is the caller’s: later draws do not change it', () => {
    const a = poolBytes(32);
    const copy = Buffer.from(a);
    for (let i = 0; i < 300; i++) poolBytes(32);
    expect(a.equals(copy)).toBe(true);
    expect(a.equals(Buffer.alloc(32))).toBe(false);
  });
});
