import { describe, expect, it } from 'vitest';
import { toolbeltTools } from '../../../tools/toolbelt/index.js';
import { callTool, callToolError, pureRegistry } from '../../helpers/call-tool.js';

const reg = pureRegistry(toolbeltTools);
const FOX = 'The quick brown fox jumps over the lazy dog';

describe('hash', () => {
  it.each([
    ['md5', '900150983cd24fb0d6963f7d28e17f72'],
    ['sha1', 'a9993e364706816aba3e25717850c26c9cd0d89d'],
    ['sha256', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['sha384', 'cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7'],
    [
      'sha512',
      'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
    ],
    ['sha3-256', '3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532'],
  ])('%s("abc") is the published test vector', async (algorithm, digest) => {
    const out = await callTool(reg, 'hash', { text: 'abc', algorithm });
    expect(out).toEqual({ algorithm, encoding: 'hex', digest, bytes_hashed: 3 });
  });

  it('defaults to sha256 of UTF-8 text', async () => {
    const out = await callTool(reg, 'hash', { text: 'é' });
    expect(out.bytes_hashed).toBe(2);
    expect(out.digest).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });

  it('hashes base64 and hex input as bytes and writes base64', async () => {
    const b64 = await callTool(reg, 'hash', { text: 'YWJj', input_encoding: 'base64', algorithm: 'md5' });
    expect(b64.digest).toBe('900150983cd24fb0d6963f7d28e17f72');
    const hex = await callTool(reg, 'hash', { text: '616263', input_encoding: 'hex', encoding: 'base64' });
    expect(hex.digest).toBe('ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=');
    const url = await callTool(reg, 'hash', { text: 'abc', encoding: 'base64url' });
    expect(url.digest).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
  });

  it('rejects invalid base64 or hex input, unknown algorithms and oversized text', async () => {
    const cases = [
      { text: 'YW*j', input_encoding: 'base64' },
      { text: 'abc', input_encoding: 'hex' },
      { text: 'zz', input_encoding: 'hex' },
      { text: 'abc', algorithm: 'sha999' },
      { text: 'x'.repeat(1024 * 1024 + 1) },
      { text: 'é'.repeat(600 * 1024) }, // under 1 M characters but over 1 MB of UTF-8
    ];
    for (const input of cases) {
      const err = await callToolError(reg, 'hash', input);
      expect(err.code).toBe('validation_error');
      expect(err.status).toBe(422);
    }
    const err = await callToolError(reg, 'hash', { text: 'x'.repeat(1024 * 1024 + 1) });
    expect(err.message).toMatch(/1 MB/);
  });
});

describe('hmac', () => {
  it('matches the well-known HMAC values', async () => {
    const sha256 = await callTool(reg, 'hmac', { text: FOX, key: 'key' });
    expect(sha256).toEqual({ algorithm: 'sha256', encoding: 'hex', mac: 'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8' });
    const sha1 = await callTool(reg, 'hmac', { text: FOX, key: 'key', algorithm: 'sha1' });
    expect(sha1.mac).toBe('de7c9b85b8b78aa6bc8a7a36f70a90701c9db4d9');
    // RFC 4231 test case 2
    const rfc = await callTool(reg, 'hmac', { text: 'what do ya want for nothing?', key: '4a656665', key_encoding: 'hex' });
    expect(rfc.mac).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('compares against an expected signature in hex or base64', async () => {
    const hex = 'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8';
    expect((await callTool(reg, 'hmac', { text: FOX, key: 'key', expected: `sha256=${hex}` })).matches).toBe(true);
    const b64 = Buffer.from(hex, 'hex').toString('base64');
    expect((await callTool(reg, 'hmac', { text: FOX, key: 'key', expected: b64 })).matches).toBe(true);
    expect((await callTool(reg, 'hmac', { text: FOX + '.', key: 'key', expected: hex })).matches).toBe(false);
  });

  it('rejects a malformed expected value, an empty key and md5', async () => {
    for (const input of [
      { text: FOX, key: 'key', expected: 'abc' },
      { text: FOX, key: '' },
      { text: FOX, key: 'key', algorithm: 'md5' },
      { text: FOX, key: 'zz', key_encoding: 'hex' },
    ]) {
      const err = await callToolError(reg, 'hmac', input);
      expect(err.code).toBe('validation_error');
      expect(err.status).toBe(422);
    }
  });
});
