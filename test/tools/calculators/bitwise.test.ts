import { describe, expect, it } from 'vitest';
import { bitwiseTool } from '../../../tools/calculators/bitwise.js';
import { callTool, callToolError, pureRegistry } from '../../helpers/call-tool.js';

const registry = pureRegistry([bitwiseTool]);

interface Input {
  op: string;
  a: string | number;
  b?: string | number;
  width?: number;
  signed?: boolean;
}

describe('bitwise', () => {
  it.each<[Input, string, string, string, string]>([
    // [input, decimal, unsigned, hex, binary]
    [{ op: 'and', a: '0xF0F0', b: '0x0FF0', width: 16 }, '240', '240', '0x00f0', '0b0000000011110000'],
    [{ op: 'or', a: 12, b: 10, width: 8 }, '14', '14', '0x0e', '0b00001110'],
    [{ op: 'xor', a: '0xFF', b: '0x0F', width: 8 }, '240', '240', '0xf0', '0b11110000'],
    [{ op: 'xor', a: '0xFF', b: '0x0F', width: 8, signed: true }, '-16', '240', '0xf0', '0b11110000'],
    [{ op: 'not', a: 0 }, '4294967295', '4294967295', '0xffffffff', '0b' + '1'.repeat(32)],
    [{ op: 'not', a: '0', signed: true }, '-1', '4294967295', '0xffffffff', '0b' + '1'.repeat(32)],
    [{ op: 'nand', a: '0xFF', b: '0x0F', width: 8 }, '240', '240', '0xf0', '0b11110000'],
    [{ op: 'nor', a: '0x0F', b: '0xF0', width: 8 }, '0', '0', '0x00', '0b00000000'],
    [{ op: 'and', a: -1, b: '0b1010', width: 4 }, '10', '10', '0xa', '0b1010'],
    [{ op: 'shl', a: 1, b: 31, signed: true }, '-2147483648', '2147483648', '0x80000000', '0b1' + '0'.repeat(31)],
    [{ op: 'shl', a: 1, b: 32 }, '0', '0', '0x00000000', '0b' + '0'.repeat(32)],
    [{ op: 'shl', a: '0xFF', b: 4, width: 8 }, '240', '240', '0xf0', '0b11110000'],
    [{ op: 'shr', a: '0x80', b: 7, width: 8 }, '1', '1', '0x01', '0b00000001'],
    [{ op: 'shr', a: -1, b: 4, width: 8 }, '15', '15', '0x0f', '0b00001111'],
    [{ op: 'shr', a: -1, b: '100', width: 8 }, '0', '0', '0x00', '0b00000000'],
    [{ op: 'sar', a: -16, b: 2, width: 8, signed: true }, '-4', '252', '0xfc', '0b11111100'],
    [{ op: 'sar', a: '0x80', b: 100, width: 8, signed: true }, '-1', '255', '0xff', '0b11111111'],
    [{ op: 'sar', a: '0x40', b: 3, width: 8 }, '8', '8', '0x08', '0b00001000'],
    [{ op: 'sar', a: '0x40', b: 8, width: 8 }, '0', '0', '0x00', '0b00000000'],
    [{ op: 'rotl', a: '0x80000001', b: 1 }, '3', '3', '0x00000003', '0b' + '0'.repeat(30) + '11'],
    [{ op: 'rotl', a: '0x80000001', b: 33 }, '3', '3', '0x00000003', '0b' + '0'.repeat(30) + '11'],
    [{ op: 'rotr', a: '0x80000001', b: 1 }, '3221225472', '3221225472', '0xc0000000', '0b11' + '0'.repeat(30)],
    [{ op: 'rotr', a: 1, b: 1, width: 8 }, '128', '128', '0x80', '0b10000000'],
    [{ op: 'rotl', a: '0xAB', b: 0, width: 8 }, '171', '171', '0xab', '0b10101011'],
    [{ op: 'rotr', a: '0b1011', b: 6, width: 5 }, '21', '21', '0x15', '0b10101'], // count 6 mod 5 = 1
    [{ op: 'popcount', a: '0xFFFFFFFFFFFFFFFF', width: 64 }, '64', '64', '0x0000000000000040', '0b' + '0'.repeat(57) + '1000000'],
    [{ op: 'popcount', a: -1, width: 8 }, '8', '8', '0x08', '0b00001000'],
    [{ op: 'popcount', a: 0 }, '0', '0', '0x00000000', '0b' + '0'.repeat(32)],
    [{ op: 'popcount', a: '0xF', width: 4, signed: true }, '4', '4', '0x4', '0b0100'],
    [{ op: 'and', a: '0xFFFF_FFFF_FFFF_FFFF', b: '-1', width: 64 }, '18446744073709551615', '18446744073709551615', '0xffffffffffffffff', '0b' + '1'.repeat(64)],
    [{ op: 'or', a: '-9223372036854775808', b: 0, width: 64, signed: true }, '-9223372036854775808', '9223372036854775808', '0x8000000000000000', '0b1' + '0'.repeat(63)],
    [{ op: 'not', a: 0, width: 1, signed: true }, '-1', '1', '0x1', '0b1'],
    [{ op: 'xor', a: '0o17', b: '+0b1', width: 8 }, '14', '14', '0x0e', '0b00001110'],
  ])('%j', async (input, decimal, unsigned, hex, binary) => {
    const r = await callTool(registry, 'bitwise', input);
    expect(r).toEqual({
      op: input.op,
      decimal,
      unsigned,
      hex,
      binary,
      width: input.width ?? 32,
      signed: input.signed ?? false,
    });
  });

  it.each([
    [{ op: 'and', a: '-129', b: 0, width: 8 }, 'a', /does not fit in 8 bits \(allowed -128\.\.255\)/],
    [{ op: 'and', a: 1, b: '256', width: 8 }, 'b', /does not fit in 8 bits/],
    [{ op: 'not', a: '0x1_0000_0000' }, 'a', /does not fit in 32 bits/],
    [{ op: 'and', a: '0b102', b: 1 }, 'a', /invalid digit '2' at position 5 for base 2/],
    [{ op: 'and', a: '12abc', b: 1 }, 'a', /invalid digit 'a' at position 3 for base 10/],
    [{ op: 'and', a: '', b: 1 }, 'a', /empty/],
    [{ op: 'not', a: 1, b: 2 }, 'b', /not used by op 'not'/],
    [{ op: 'popcount', a: 1, b: 2 }, 'b', /not used by op 'popcount'/],
    [{ op: 'and', a: 1 }, 'b', /required for op 'and'/],
    [{ op: 'shl', a: 1 }, 'b', /required for op 'shl'/],
    [{ op: 'shl', a: 1, b: -1 }, 'b', /shift count and must be ≥ 0/],
    [{ op: 'rotl', a: 1, b: '-0x1' }, 'b', /shift count/],
  ])('rejects %j on %s', async (input, field, msg) => {
    const err = await callToolError(registry, 'bitwise', input);
    expect(err.status).toBe(422);
    expect(err.detail?.[0].loc).toEqual([field]);
    expect(err.detail?.[0].msg).toMatch(msg);
  });

  it('marks a missing b as missing', async () => {
    const err = await callToolError(registry, 'bitwise', { op: 'xor', a: 1 });
    expect(err.detail?.[0].type).toBe('missing');
  });

  it.each([
    [{ op: 'add', a: 1, b: 2 }, 'op'],
    [{ op: 'and', a: 1.5, b: 2 }, 'a'],
    [{ op: 'and', a: 2 ** 60, b: 2 }, 'a'],
    [{ op: 'and', a: 1, b: 2, width: 0 }, 'width'],
    [{ op: 'and', a: 1, b: 2, width: 65 }, 'width'],
    [{ op: 'and', b: 2 }, 'a'],
  ])('schema rejects %j on %s', async (input, field) => {
    const err = await callToolError(registry, 'bitwise', input);
    expect(err.status).toBe(422);
    expect(err.detail?.[0].loc).toEqual([field]);
  });
});
