// What every calculator shares: its registry flags and one way to say "this input is not valid".
import { GatewayError } from '../../src/errors.js';

/** Registry fields common to all calculators (pure, paid, offline). */
export const CALCULATOR = {
  toolset: 'calculators',
  auth: 'paid',
  price: { usd: '0.001' },
  expose: { mcp: true, catalog: true },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
} as const;

/** A 422 with one FastAPI-style detail item, for checks zod cannot express (they need parsing first). */
export function invalidInput(field: string, msg: string): GatewayError {
  return new GatewayError('validation_error', `Validation failed (${field}: ${msg}).`, {
    detail: [{ loc: [field], msg, type: 'value_error' }],
  });
}

/** A character for an error message: printable ASCII as is, anything else as U+XXXX. */
export function showChar(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  return cp >= 0x21 && cp <= 0x7e ? `'${ch}'` : `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Unicode code points in s (surrogate pairs count once). */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
      n--;
      i++;
    }
  }
  return n;
}
