// Identifiers and random strings: uuid (v4 random, v7 time-ordered) and random_string.
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { int, invalid, RANDOM, TOOLBELT_BASE } from './common.js';

/** Last v7 timestamp and counter, so v7 ids of this process sort strictly in creation order. */
const v7State = { ms: -1, counter: 0 };
const COUNTER_MAX = 0xfff;

/** Fresh 12-bit counter seed with the top bit clear, leaving room to count up within one millisecond. */
const seedCounter = () => randomInt(0, 0x800);

/**
 * RFC 9562 §5.7 UUIDv7: 48-bit unix ms, version 7, 12-bit rand_a, variant 10, 62 random bits.
 * rand_a is a counter (§6.2 method 1) so ids made in the same millisecond still sort; on counter overflow
 * or a clock that went backwards the timestamp is advanced past the last one used (§6.2 allows both).
 */
export function uuidV7(nowMs: number): string {
  let ms = Math.min(2 ** 48 - 1, Math.max(0, Math.floor(nowMs)));
  if (ms > v7State.ms) {
    v7State.ms = ms;
    v7State.counter = seedCounter();
  } else {
    ms = v7State.ms;
    v7State.counter++;
    if (v7State.counter > COUNTER_MAX) {
      ms = ++v7State.ms;
      v7State.counter = seedCounter();
    }
  }
  const b = randomBytes(16);
  // 48-bit big-endian timestamp: split because JS bit operators are 32-bit.
  b.writeUIntBE(ms, 0, 6);
  b[6] = 0x70 | (v7State.counter >> 8);
  b[7] = v7State.counter & 0xff;
  b[8] = 0x80 | (b[8]! & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const uuid = defineTool({
  ...TOOLBELT_BASE,
  name: 'uuid',
  title: 'Generate UUIDs',
  description:
    'Generates 1–100 UUIDs. version 4 = random (crypto.randomUUID); version 7 = time-ordered per RFC 9562 ' +
    '(48-bit millisecond timestamp first, so ids sort by creation time; ids made in one call are strictly ' +
    'increasing). Returns {version, uuid (the first), uuids}. Lowercase, hyphenated.',
  input: z.object({
    version: z
      .union([z.literal(4), z.literal(7), z.enum(['4', '7', 'v4', 'v7'])])
      .transform((v) => (String(v).endsWith('7') ? 7 : 4))
      .default(4)
      .describe('UUID version: 4 (random) or 7 (time-ordered, sortable). Default 4.'),
    count: int(1, 100, 1, 'How many UUIDs to generate, 1–100. Default 1.'),
  }),
  annotations: RANDOM,
  handler: (input, ctx) => {
    const uuids: string[] = [];
    for (let i = 0; i < input.count; i++) uuids.push(input.version === 7 ? uuidV7(ctx.clock.now()) : randomUUID());
    return { version: input.version, uuid: uuids[0], uuids };
  },
});

const CHARSETS = {
  alphanumeric: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  alpha: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  lower: 'abcdefghijklmnopqrstuvwxyz',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  numeric: '0123456789',
  hex: '0123456789abcdef',
  base64url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
  // Unambiguous: no 0/O, 1/l/I; for codes humans read aloud or type.
  human: 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789',
  printable: '!"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~',
} as const;

type Charset = keyof typeof CHARSETS;

export const randomString = defineTool({
  ...TOOLBELT_BASE,
  name: 'random_string',
  title: 'Random strings',
  description:
    'Cryptographically secure random strings (node:crypto randomInt, no modulo bias). Pick a charset or give ' +
    'your own alphabet. Returns {strings, length, alphabet_size, entropy_bits (per string)}. Suitable for ' +
    'tokens, passwords and nonces; the gateway keeps no copy.',
  input: z.object({
    length: int(1, 1024, 32, 'Characters per string, 1–1024. Default 32.'),
    count: int(1, 100, 1, 'How many strings, 1–100. Default 1.'),
    charset: z
      .enum(Object.keys(CHARSETS) as [Charset, ...Charset[]])
      .default('alphanumeric')
      .describe(
        'Character set: alphanumeric (A-Za-z0-9, default), alpha, lower, upper, numeric, hex (lowercase), ' +
          'base64url (A-Za-z0-9-_), human (no look-alikes 0/O/1/l/I), printable (ASCII 33–126). Ignored when alphabet is set.',
      ),
    alphabet: z
      .string()
      .min(2)
      .max(1024)
      .optional()
      .describe('Custom alphabet: 2–1024 distinct characters (Unicode code points). Overrides charset.'),
  }),
  annotations: RANDOM,
  handler: (input) => {
    const chars = input.alphabet !== undefined ? [...input.alphabet] : [...CHARSETS[input.charset]];
    if (new Set(chars).size !== chars.length) throw invalid('alphabet', 'Characters must be distinct (duplicates would bias the output).');
    if (chars.length < 2) throw invalid('alphabet', 'Give at least 2 distinct characters.');
    const strings: string[] = [];
    for (let i = 0; i < input.count; i++) {
      let s = '';
      for (let j = 0; j < input.length; j++) s += chars[randomInt(chars.length)];
      strings.push(s);
    }
    return {
      strings,
      length: input.length,
      alphabet_size: chars.length,
      entropy_bits: Math.round(input.length * Math.log2(chars.length) * 100) / 100,
    };
  },
});
