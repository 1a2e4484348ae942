// Summing decimal dollar prices (a batch is priced as the sum of its paid calls): exact, no floating point.
import { describe, expect, it } from 'vitest';
import { sumUsd, toAtomicUnits } from '../../src/billing/price.js';

describe('sumUsd', () => {
  it('adds decimal strings exactly and writes the shortest form', () => {
    expect(sumUsd(['0.1', '0.2'])).toBe('0.3');
    expect(sumUsd(['0.001', '0.001', '0.001'])).toBe('0.003');
    expect(sumUsd(['1', '0.5', '0.25'])).toBe('1.75');
    expect(sumUsd(['0.5', '0.5'])).toBe('1');
    expect(sumUsd([])).toBe('0');
  });

  it('gives a sum the token amount of which is the sum of the amounts', () => {
    const prices = ['0.001', '0.0025', '0.000001'];
    const atomic = prices.reduce((n, p) => n + BigInt(toAtomicUnits(p, 6)), 0n);
    expect(toAtomicUnits(sumUsd(prices), 6)).toBe(atomic.toString());
  });

  it('refuses what is not a price', () => {
    expect(() => sumUsd(['0.1', 'abc'])).toThrow(/invalid price/);
  });
});
