// The payer view decides which payments skip the chain check: fresh, and the balance minus what is already
// claimed covers the amount.
import { describe, expect, it } from 'vitest';
import { PayerViews } from '../../src/billing/x402/payer-view.js';

const A = '0xAbC0000000000000000000000000000000000001';

describe('PayerViews', () => {
  it('covers payments from a fresh balance, counting what is claimed and not yet settled', () => {
    const v = new PayerViews(10_000);
    expect(v.tryReserve(A, 1n, 0)).toBe(false); // never read
    v.refreshAndReserve(A, 2500n, 1000n, 0);
    expect(v.tryReserve(A.toLowerCase(), 1000n, 5_000)).toBe(true); // 2000 claimed
    expect(v.tryReserve(A, 1000n, 5_000)).toBe(false); // 500 left
    v.released(A, 1000n);
    expect(v.tryReserve(A, 1000n, 5_000)).toBe(true);
    v.settled(A, 1000n);
    v.settled(A, 1000n); // 500 left, nothing claimed
    expect(v.tryReserve(A, 600n, 5_000)).toBe(false);
    expect(v.tryReserve(A, 500n, 5_000)).toBe(true);
  });

  it('sends payments to the chain check once the view is stale, after a refused settlement, or with the cache off', () => {
    const v = new PayerViews(10_000);
    v.refreshAndReserve(A, 10_000n, 0n, 0);
    expect(v.tryReserve(A, 1n, 9_999)).toBe(true);
    expect(v.tryReserve(A, 1n, 10_000)).toBe(false);
    v.refreshAndReserve(A, 10_000n, 0n, 20_000);
    v.released(A, 1n, true);
    expect(v.tryReserve(A, 1n, 20_001)).toBe(false);
    const off = new PayerViews(0);
    off.refreshAndReserve(A, 10_000n, 0n, 0);
    expect(off.tryReserve(A, 1n, 0)).toBe(false);
  });

  it('a contract wallet (no balance read) never takes the fast path', () => {
    const v = new PayerViews(10_000);
    v.refreshAndReserve(A, undefined, 1000n, 0);
    expect(v.tryReserve(A, 1n, 0)).toBe(false);
  });
});
