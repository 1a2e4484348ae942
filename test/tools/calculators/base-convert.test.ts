import { describe, expect, it } from 'vitest';
import { baseConvert } from '../../../tools/calculators/base-convert.js';
import { callTool, callToolError, pureRegistry } from '../../helpers/call-tool.js';

const registry = pureRegistry([baseConvert]);
const conv = (value: string, from_base: number, to_base: number, uppercase?: boolean) =>
  callTool(registry, 'base_convert', { value, from_base, to_base, ...(uppercase === undefined ? {} : { uppercase }) });

describe('base_convert', () => {
  it.each([
    ['0xFF', 16, 2, false, '11111111', '255', false, 8],
    ['ff', 16, 10, false, '255', '255', false, 8],
    ['FF', 16, 10, false, '255', '255', false, 8],
    ['-1_000_000', 10, 36, true, '-LFLS', '-1000000', true, 20],
    ['-1_000_000', 10, 36, false, '-lfls', '-1000000', true, 20],
    ['123456789012345678901234567890', 10, 16, false, '18ee90ff6c373e0ee4e3f0ad2', '123456789012345678901234567890', false, 97],
    ['  +0b1010  ', 2, 10, false, '10', '10', false, 4],
    ['-0', 10, 2, false, '0', '0', false, 0],
    ['0', 7, 3, false, '0', '0', false, 0],
    ['0o777', 8, 10, false, '511', '511', false, 9],
    ['0b1', 16, 10, false, '177', '177', false, 8], // "0b1" is plain hex when from_base is 16
    ['z', 36, 10, false, '35', '35', false, 6],
    ['ZZ', 36, 2, false, '10100001111', '1295', false, 11],
    ['-0x8000_0000', 16, 10, false, '-2147483648', '-2147483648', true, 32],
    ['1' + '0'.repeat(64), 2, 16, false, '1' + '0'.repeat(16), (2n ** 64n).toString(), false, 65],
  ] as const)('%s (base %i → %i)', async (value, from, to, upper, out, decimal, negative, bits) => {
    const r = await conv(value, from, to, upper);
    expect(r).toEqual({ value: out, decimal, from_base: from, to_base: to, negative, bit_length: bits });
  });

  it('round-trips a 2000-digit number through every base', async () => {
    const n = 7n ** 2365n; // ~2000 decimal digits
    for (let base = 2; base <= 36; base++) {
      const there = await conv(n.toString(), 10, base);
      expect(there.value).toBe(n.toString(base));
      const back = await conv(there.value, base, 10);
      expect(back.value).toBe(n.toString());
    }
  });

  it.each([
    ['12g4', 16, /invalid digit 'g' at position 3 for base 16/],
    ['12', 2, /invalid digit '2' at position 2 for base 2/],
    ['1 2', 10, /invalid digit U\+0020 at position 2/],
    ['١٢', 10, /invalid digit U\+0661 at position 1/],
    ['🌍1x', 10, /invalid digit U\+1F30D at position 1/],
    ['ab🌍x', 16, /invalid digit U\+1F30D at position 3/],
    ['0x1F', 10, /prefix 0x at position 1 is only accepted with from_base 16/],
    ['-0b11', 8, /prefix 0b at position 2 is only accepted with from_base 2/],
    ['', 10, /empty/],
    ['   ', 10, /empty/],
    ['-', 10, /no digits/],
    ['0x', 16, /no digits/],
    ['__', 10, /no digits/],
    ['--1', 10, /invalid digit '-' at position 2/],
  ] as const)('rejects %j in base %i', async (value, from, msg) => {
    const err = await callToolError(registry, 'base_convert', { value, from_base: from, to_base: 10 });
    expect(err.status).toBe(422);
    expect(err.detail).toEqual([{ loc: ['value'], msg: expect.stringMatching(msg), type: 'value_error' }]);
  });

  it.each([
    [{ value: '1', from_base: 1, to_base: 10 }, 'from_base'],
    [{ value: '1', from_base: 10, to_base: 37 }, 'to_base'],
    [{ value: '1', from_base: 10.5, to_base: 2 }, 'from_base'],
    [{ value: 12, from_base: 10, to_base: 2 }, 'value'],
    [{ from_base: 10, to_base: 2 }, 'value'],
    [{ value: '1'.repeat(10_001), from_base: 10, to_base: 2 }, 'value'],
  ])('rejects %j with 422 on %s', async (input, field) => {
    const err = await callToolError(registry, 'base_convert', input);
    expect(err.status).toBe(422);
    expect(err.detail?.[0].loc).toEqual([field]);
  });
});
