import { describe, expect, it } from 'vitest';
import { toolbeltTools } from '../../../tools/toolbelt/index.js';
import { callTool, callToolError, pureRegistry } from '../../helpers/call-tool.js';

// pureRegistry's clock: 2026-11-22T00:00:00Z = 1795305600.
const reg = pureRegistry(toolbeltTools);
const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const JWT_IO =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

describe('jwt_decode', () => {
  it('decodes the jwt.io example without verifying it', async () => {
    const out = await callTool(reg, 'jwt_decode', { token: JWT_IO });
    expect(out).toMatchObject({
      header: { alg: 'HS256', typ: 'JWT' },
      payload: { sub: '1234567890', name: 'John Doe', iat: 1516239022 },
      signature: 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
      signature_verified: false,
      times: { issued_at: '2018-01-18T01:30:22.000Z', not_before: null, expires_at: null },
      expired: null,
      not_yet_valid: null,
    });
    expect(out.notice).toMatch(/NOT verified/);
  });

  it('judges exp and nbf against the gateway clock and ignores a Bearer prefix', async () => {
    const token = `${b64url({ alg: 'none' })}.${b64url({ exp: 1795305599, nbf: 1795305601 })}.`;
    const out = await callTool(reg, 'jwt_decode', { token: `Bearer ${token}` });
    expect(out).toMatchObject({ expired: true, not_yet_valid: true, signature: '' });
    expect(out.times.expires_at).toBe('2026-11-21T23:59:59.000Z');
    const fresh = await callTool(reg, 'jwt_decode', { token: `${b64url({ alg: 'none' })}.${b64url({ exp: 1795305601 })}.` });
    expect(fresh.expired).toBe(false);
  });

  it('answers 422 for malformed tokens and JWE', async () => {
    const cases: [string, RegExp][] = [
      ['a.b', /3 dot-separated parts/],
      ['a.b.c.d.e', /encrypted JWE/],
      [`${b64url({ alg: 'HS256' })}.bm90IGpzb24.sig`, /payload is not .*JSON/],
      [`${b64url({ alg: 'HS256' })}.${b64url([1, 2])}.sig`, /payload must be a JSON object/],
      [`e30.e30.not*base64`, /base64/],
      ['', /./],
    ];
    for (const [token, message] of cases) {
      const err = await callToolError(reg, 'jwt_decode', { token });
      expect(err.code).toBe('validation_error');
      expect(err.status).toBe(422);
      expect(err.message).toMatch(message);
    }
  });
});
