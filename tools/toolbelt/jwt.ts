// jwt_decode: reads the header and claims of a JWS compact token WITHOUT verifying it, for debugging and
// for agents that need to see what a token says (expiry, audience) before using it.
import { z } from 'zod';
import { depthWithin, JsonTooDeepError } from '../../src/json-depth.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { decodeBase64Strict, invalid, PURE, TOOLBELT_BASE } from './common.js';

const MAX_TOKEN = 64 * 1024;
const utf8Strict = new TextDecoder('utf-8', { fatal: true });

function jsonPart(part: string, what: 'header' | 'payload', maxDepth: number): Record<string, unknown> {
  const bytes = decodeBase64Strict(part, 'url', 'token');
  let value: unknown;
  try {
    value = JSON.parse(utf8Strict.decode(bytes));
  } catch {
    throw invalid('token', `The ${what} is not base64url-encoded UTF-8 JSON.`);
  }
  if (depthWithin(value, maxDepth) === null) throw invalid('token', `The ${what}: ${new JsonTooDeepError(maxDepth).message}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('token', `The ${what} must be a JSON object.`);
  return value as Record<string, unknown>;
}

/** NumericDate claims (RFC 7519 §2) as ISO strings, so nobody has to convert seconds by hand. */
function timeClaim(v: unknown): string | null {
  if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > 8.64e12) return null;
  return new Date(v * 1000).toISOString();
}

export const jwtDecode = defineTool({
  ...TOOLBELT_BASE,
  name: 'jwt_decode',
  title: 'Decode a JWT (no verification)',
  description:
    'Decodes a JSON Web Token (JWS compact form header.payload.signature) and shows its header and claims. ' +
    'It does NOT verify the signature and never will: signature_verified is always false, so do not trust the ' +
    'claims for any security decision. Returns {header, payload, signature (base64url), signature_verified: ' +
    'false, times: {issued_at, not_before, expires_at} as ISO or null, expired, not_yet_valid (against the ' +
    'gateway clock)}. Encrypted JWE tokens (5 parts) and malformed tokens answer 422. The token is not stored.',
  input: z.object({
    token: z
      .string()
      .min(1)
      .max(MAX_TOKEN)
      .describe('The JWT, e.g. "eyJhbGciOi...". A leading "Bearer " is ignored. At most 64 KB.'),
  }),
  annotations: PURE,
  handler: (input, ctx) => {
    const token = input.token.trim().replace(/^Bearer\s+/i, '');
    const parts = token.split('.');
    if (parts.length === 5) throw invalid('token', 'This is an encrypted JWE (5 parts); its claims cannot be read without the key.');
    if (parts.length !== 3) throw invalid('token', `A JWT has 3 dot-separated parts; this has ${parts.length}.`);
    const header = jsonPart(parts[0]!, 'header', ctx.config.maxJsonDepth);
    const payload = jsonPart(parts[1]!, 'payload', ctx.config.maxJsonDepth);
    const signature = parts[2]!;
    if (signature !== '') decodeBase64Strict(signature, 'url', 'token');
    const nowS = ctx.clock.now() / 1000;
    const exp = typeof payload.exp === 'number' ? payload.exp : null;
    const nbf = typeof payload.nbf === 'number' ? payload.nbf : null;
    return {
      header,
      payload,
      signature,
      signature_verified: false,
      notice: 'Decoded only: the signature was NOT verified. Do not trust these claims without verifying the token.',
      times: { issued_at: timeClaim(payload.iat), not_before: timeClaim(payload.nbf), expires_at: timeClaim(payload.exp) },
      expired: exp === null ? null : nowS >= exp,
      not_yet_valid: nbf === null ? null : nowS < nbf,
    };
  },
});
