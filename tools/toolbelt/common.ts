// Shared pieces of the toolbelt: the fields every tool has, input caps, and schemas that also accept the
// strings a GET query string delivers (REST mounts these tools on GET as well as POST).
import { z } from 'zod';
import { numberInput } from '../../src/registry/number-input.js';
import { GatewayError } from '../../src/errors.js';

/** Spread into every toolbelt defineTool: free, keyless, MCP-visible, not in the paid catalog. */
export const TOOLBELT_BASE = {
  toolset: 'toolbelt',
  auth: 'public',
  price: null,
  expose: { mcp: true, catalog: false },
} as const;

/** Pure functions of their input: same input, same answer. */
export const PURE = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false } as const;
/** Read-only but random (uuid, random_string): a retry gives a different answer. */
export const RANDOM = { readOnlyHint: true, idempotentHint: false, destructiveHint: false, openWorldHint: false } as const;

export const MB = 1024 * 1024;
/** Default cap for text inputs, in UTF-8 bytes. */
export const MAX_TEXT_BYTES = MB;

/**
 * A string capped in UTF-8 bytes. `.max()` (UTF-16 units, never more than bytes) is kept so the JSON Schema
 * advertises a bound; the byte refinement is the real check and its message names the cap.
 */
export function cappedText(description: string, maxBytes = MAX_TEXT_BYTES) {
  const label = maxBytes >= MB ? `${maxBytes / MB} MB` : `${maxBytes / 1024} KB`;
  return z
    .string()
    .max(maxBytes, `Too large: at most ${label} (${maxBytes} bytes of UTF-8).`)
    .refine((s) => s.length <= maxBytes / 4 || Buffer.byteLength(s, 'utf8') <= maxBytes, {
      message: `Too large: at most ${label} (${maxBytes} bytes of UTF-8).`,
    })
    .describe(description);
}

/** A boolean that also accepts "true"/"false"/"1"/"0" (query strings carry only strings). */
export function flag(defaultValue: boolean, description: string) {
  return z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
    .transform((v) => v === true || v === 'true' || v === '1')
    .default(defaultValue)
    .describe(description);
}

/** An integer that also accepts its decimal string form. */
export function int(min: number, max: number, defaultValue: number, description: string) {
  return numberInput(z.number().int().min(min).max(max)).default(defaultValue).describe(description);
}

/** A 422 whose detail points at one input field, like a schema failure would. */
export function invalid(field: string, msg: string, extra?: Record<string, unknown>): GatewayError {
  return new GatewayError('validation_error', `${field}: ${msg}`, {
    detail: [{ loc: [field], msg, type: 'value_error' }],
    extra,
  });
}

export type BytesEncoding = 'utf8' | 'base64' | 'hex';

const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/**
 * Strict base64: Buffer.from(s, 'base64') silently skips bad characters, which would hash or decode the wrong
 * bytes. Whitespace (MIME line breaks) is ignored and padding is optional; anything else outside the alphabet
 * is an error.
 */
export function decodeBase64Strict(input: string, variant: 'standard' | 'url', field: string): Buffer {
  const s = input.replace(/[\t\n\r ]+/g, '');
  const body = s.replace(/={1,2}$/, '');
  const alphabet = variant === 'url' ? /^[A-Za-z0-9_-]*$/ : /^[A-Za-z0-9+/]*$/;
  if (!alphabet.test(body)) {
    const other = variant === 'url' ? /^[A-Za-z0-9+/]*$/ : /^[A-Za-z0-9_-]*$/;
    const hint = other.test(body) ? ` It looks like ${variant === 'url' ? 'standard' : 'url-safe'} base64; set variant accordingly.` : '';
    const bad = [...body].find((c) => !alphabet.test(c)) ?? '=';
    throw invalid(field, `Not valid ${variant === 'url' ? 'url-safe ' : ''}base64: unexpected character ${JSON.stringify(bad)}.${hint}`);
  }
  if (body.length % 4 === 1) throw invalid(field, 'Not valid base64: the length is impossible (one character too many or too few).');
  if (s.length !== body.length && s.length % 4 !== 0) throw invalid(field, 'Not valid base64: wrong amount of "=" padding.');
  return Buffer.from(body, variant === 'url' ? 'base64url' : 'base64');
}

/** Bytes of a string given in utf8, base64 (standard or url-safe alphabet) or hex. */
export function bytesOf(input: string, encoding: BytesEncoding, field: string): Buffer {
  if (encoding === 'utf8') return Buffer.from(input, 'utf8');
  if (encoding === 'hex') {
    if (!HEX.test(input)) throw invalid(field, 'Not valid hex: use an even number of 0-9a-f characters.');
    return Buffer.from(input, 'hex');
  }
  // Hash/HMAC inputs accept either base64 alphabet: the two never disagree on a valid string.
  return decodeBase64Strict(input, /[-_]/.test(input) ? 'url' : 'standard', field);
}

export const bytesEncoding = (description: string) =>
  z.enum(['utf8', 'base64', 'hex']).default('utf8').describe(description);
