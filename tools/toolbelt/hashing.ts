// Digests and message authentication codes: hash and hmac over utf8, base64 or hex input.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { bytesEncoding, bytesOf, cappedText, invalid, PURE, TOOLBELT_BASE } from './common.js';

const HASH_ALGORITHMS = ['md5', 'sha1', 'sha256', 'sha384', 'sha512', 'sha3-256', 'sha3-512'] as const;
// md5 has no place in new MACs; sha1 stays because many webhook providers still sign with it.
const HMAC_ALGORITHMS = ['sha1', 'sha256', 'sha384', 'sha512', 'sha3-256', 'sha3-512'] as const;

const outputEncoding = z
  .enum(['hex', 'base64', 'base64url'])
  .default('hex')
  .describe('How the digest is written: hex (lowercase, default), base64 or base64url (no padding).');

export const hash = defineTool({
  ...TOOLBELT_BASE,
  name: 'hash',
  title: 'Hash digest',
  description:
    'Cryptographic digest of text or bytes: md5, sha1, sha256 (default), sha384, sha512, sha3-256, sha3-512. ' +
    'Input is UTF-8 text unless input_encoding says base64 or hex. Returns {algorithm, encoding, digest, ' +
    'bytes_hashed}. md5 and sha1 are broken for security; use them only for checksums and legacy interop.',
  input: z.object({
    text: cappedText('The data to hash (at most 1 MB), interpreted per input_encoding.'),
    algorithm: z.enum(HASH_ALGORITHMS).default('sha256').describe('Digest algorithm. Default sha256.'),
    input_encoding: bytesEncoding('How text is turned into bytes: utf8 (default), base64 (either alphabet) or hex.'),
    encoding: outputEncoding,
  }),
  annotations: PURE,
  handler: (input) => {
    const bytes = bytesOf(input.text, input.input_encoding, 'text');
    const digest = createHash(input.algorithm).update(bytes).digest(input.encoding);
    return { algorithm: input.algorithm, encoding: input.encoding, digest, bytes_hashed: bytes.length };
  },
});

/** Reads an expected MAC in hex or base64 (either alphabet), whichever it parses as at the right length. */
function expectedBytes(expected: string, size: number): Buffer | null {
  const s = expected.trim().replace(/^sha\d+=/i, ''); // GitHub-style "sha256=<hex>" prefixes
  if (/^[0-9a-fA-F]+$/.test(s) && s.length === size * 2) return Buffer.from(s, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) {
    const b = Buffer.from(s.replace(/=+$/, ''), /[-_]/.test(s) ? 'base64url' : 'base64');
    if (b.length === size) return b;
  }
  return null;
}

export const hmac = defineTool({
  ...TOOLBELT_BASE,
  name: 'hmac',
  title: 'HMAC',
  description:
    'HMAC of a message under a secret key (sha256 default; sha1, sha384, sha512, sha3-256, sha3-512). Use it ' +
    'to sign requests or check webhook signatures. Returns {algorithm, encoding, mac}; when `expected` is ' +
    'given also `matches` (constant-time comparison; expected may be hex or base64, a "sha256=" prefix is ' +
    'ignored). The key is used for this call only and never stored or logged.',
  input: z.object({
    text: cappedText('The message to authenticate (at most 1 MB), interpreted per input_encoding.'),
    key: z.string().min(1).max(4096).describe('The secret key (1–4096 characters), interpreted per key_encoding.'),
    algorithm: z.enum(HMAC_ALGORITHMS).default('sha256').describe('Hash function of the HMAC. Default sha256.'),
    input_encoding: bytesEncoding('How text is turned into bytes: utf8 (default), base64 or hex.'),
    key_encoding: bytesEncoding('How key is turned into bytes: utf8 (default), base64 or hex.'),
    encoding: outputEncoding,
    expected: z
      .string()
      .max(1024)
      .optional()
      .describe('Optional MAC to compare against (hex or base64); the result then carries matches: true|false.'),
  }),
  annotations: PURE,
  handler: (input) => {
    const key = bytesOf(input.key, input.key_encoding, 'key');
    const msg = bytesOf(input.text, input.input_encoding, 'text');
    const raw = createHmac(input.algorithm, key).update(msg).digest();
    const out: Record<string, unknown> = { algorithm: input.algorithm, encoding: input.encoding, mac: raw.toString(input.encoding) };
    if (input.expected !== undefined) {
      const want = expectedBytes(input.expected, raw.length);
      if (!want) throw invalid('expected', `Must be a ${raw.length}-byte MAC in hex (${raw.length * 2} characters) or base64.`);
      out.matches = timingSafeEqual(raw, want);
    }
    return out;
  },
});
