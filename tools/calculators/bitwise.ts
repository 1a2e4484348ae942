// bitwise: fixed-width bit operations (1–64 bits) on BigInt, so 64-bit values stay exact.
import { z } from 'zod';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { CALCULATOR, invalidInput } from './common.js';
import { parseInteger } from './base-convert.js';

const OPS = ['and', 'or', 'xor', 'not', 'nand', 'nor', 'shl', 'shr', 'sar', 'rotl', 'rotr', 'popcount'] as const;
export type BitwiseOp = (typeof OPS)[number];

const UNARY = new Set<BitwiseOp>(['not', 'popcount']);
const SHIFTS = new Set<BitwiseOp>(['shl', 'shr', 'sar', 'rotl', 'rotr']);

/** Integer from a JSON number or a string: decimal, or 0x/0b/0o prefixed, optionally signed. */
export function parseOperand(raw: string | number, field: string): bigint {
  if (typeof raw === 'number') return BigInt(raw);
  const m = /^\s*[+-]?0([xXbBoO])/.exec(raw);
  const base = m ? { x: 16, b: 2, o: 8 }[m[1].toLowerCase() as 'x' | 'b' | 'o'] : 10;
  return parseInteger(raw, base, field).value;
}

/** Two's-complement bits of v in `width` bits; v must fit as a signed or an unsigned width-bit integer. */
function reduce(v: bigint, width: number, field: string): bigint {
  const lo = -(1n << BigInt(width - 1));
  const hi = (1n << BigInt(width)) - 1n;
  if (v < lo || v > hi) throw invalidInput(field, `${field} = ${v} does not fit in ${width} bits (allowed ${lo}..${hi})`);
  return BigInt.asUintN(width, v);
}

function popcount(bits: bigint): number {
  let n = 0;
  for (let v = bits; v > 0n; v >>= 1n) n += Number(v & 1n);
  return n;
}

export interface BitwiseResult {
  op: BitwiseOp;
  decimal: string;
  unsigned: string;
  hex: string;
  binary: string;
  width: number;
  signed: boolean;
}

export function bitwise(op: BitwiseOp, a: string | number, b: string | number | undefined, width = 32, signed = false): BitwiseResult {
  if (UNARY.has(op) && b !== undefined) throw invalidInput('b', `b is not used by op '${op}'; leave it out`);
  if (!UNARY.has(op) && b === undefined) {
    throw new GatewayError('validation_error', `Validation failed (b: b is required for op '${op}').`, {
      detail: [{ loc: ['b'], msg: `b is required for op '${op}'`, type: 'missing' }],
    });
  }
  const w = BigInt(width);
  const mask = (1n << w) - 1n;
  const x = reduce(parseOperand(a, 'a'), width, 'a');
  let bits: bigint;
  if (op === 'popcount') {
    const count = popcount(x);
    bits = BigInt(count);
    return { op, ...encode(bits, width, false), width, signed };
  }
  if (op === 'not') bits = ~x & mask;
  else if (SHIFTS.has(op)) {
    const n = parseOperand(b!, 'b');
    if (n < 0n) throw invalidInput('b', `b is a shift count and must be ≥ 0 (got ${n})`);
    bits = shift(op, x, n, width);
  } else {
    const y = reduce(parseOperand(b!, 'b'), width, 'b');
    if (op === 'and') bits = x & y;
    else if (op === 'or') bits = x | y;
    else if (op === 'xor') bits = x ^ y;
    else if (op === 'nand') bits = ~(x & y) & mask;
    else bits = ~(x | y) & mask;
  }
  return { op, ...encode(bits, width, signed), width, signed };
}

function shift(op: BitwiseOp, x: bigint, n: bigint, width: number): bigint {
  const w = BigInt(width);
  const mask = (1n << w) - 1n;
  if (op === 'rotl' || op === 'rotr') {
    const k = n % w;
    if (k === 0n) return x;
    const left = op === 'rotl' ? k : w - k;
    return ((x << left) | (x >> (w - left))) & mask;
  }
  // Counts ≥ width clear every bit (shl, shr) or leave only copies of the sign bit (sar).
  if (op === 'shl') return n >= w ? 0n : (x << n) & mask;
  if (op === 'shr') return n >= w ? 0n : x >> n;
  const s = BigInt.asIntN(width, x);
  return BigInt.asUintN(width, s >> (n >= w ? w : n));
}

function encode(bits: bigint, width: number, signed: boolean): Pick<BitwiseResult, 'decimal' | 'unsigned' | 'hex' | 'binary'> {
  const unsigned = bits.toString(10);
  return {
    decimal: signed ? BigInt.asIntN(width, bits).toString(10) : unsigned,
    unsigned,
    hex: '0x' + bits.toString(16).padStart(Math.ceil(width / 4), '0'),
    binary: '0b' + bits.toString(2).padStart(width, '0'),
  };
}

const Operand = z.union([z.string().max(200), z.number().int()]);

export const BitwiseInput = z
  .object({
    op: z.enum(OPS).describe(
      'Operation: and, or, xor, nand, nor (binary); not, popcount (unary); shl, shr (logical right), sar ' +
        '(arithmetic right), rotl, rotr (b = shift count).',
    ),
    a: Operand.describe(
      'First operand: a safe integer number, or a string in decimal or with a 0x/0b/0o prefix (may be negative, ' +
        '`_` separators allowed). Must fit in `width` bits as a signed or an unsigned integer.',
    ),
    b: Operand.optional().describe(
      'Second operand for and/or/xor/nand/nor (same rules as a); the shift count (integer ≥ 0) for shl/shr/sar/rotl/rotr; ' +
        'must be left out for not and popcount.',
    ),
    width: z.number().int().min(1).max(64).default(32).describe('Word size in bits (1–64, default 32).'),
    signed: z
      .boolean()
      .default(false)
      .describe('Interpret the result as two\'s-complement signed in `decimal` (default false: unsigned).'),
  })
  .meta({
    examples: [
      { op: 'and', a: '0xF0F0', b: '0x0FF0', width: 16 },
      { op: 'sar', a: -16, b: 2, width: 8, signed: true },
      { op: 'rotl', a: '0x80000001', b: 1 },
      { op: 'popcount', a: '0xFFFFFFFFFFFFFFFF', width: 64 },
    ],
  });

export const bitwiseTool = defineTool({
  name: 'bitwise',
  title: 'Bitwise operations',
  ...CALCULATOR,
  description:
    'Fixed-width bitwise arithmetic (width 1–64 bits, default 32), exact via BigInt. Operands are reduced to ' +
    'width bits (two\'s complement for negatives); an operand outside −2^(width−1) … 2^width−1 answers 422. Ops: ' +
    'and, or, xor, nand, nor, not, shl, shr (logical: zeros shifted in), sar (arithmetic: sign bit copied in), ' +
    'rotl, rotr, popcount. Shift counts ≥ width give 0 for shl/shr and all sign bits for sar; rotates use the ' +
    'count mod width. Result fields: `op`; `decimal` = result as a base-10 string, two\'s-complement signed ' +
    'when signed=true else unsigned (for popcount always the plain count of 1 bits); `unsigned` = result as an ' +
    'unsigned base-10 string; `hex` = "0x" + lowercase hex zero-padded to ceil(width/4) digits; `binary` = "0b" + ' +
    'bits zero-padded to width; `width`, `signed` = as used.',
  input: BitwiseInput,
  handler: (input) => bitwise(input.op, input.a, input.b, input.width, input.signed),
});
