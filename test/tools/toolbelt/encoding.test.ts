import { describe, expect, it } from 'vitest';
import { toolbeltTools } from '../../../tools/toolbelt/index.js';
import { callTool, callToolError, pureRegistry } from '../../helpers/call-tool.js';

const reg = pureRegistry(toolbeltTools);

describe('base64', () => {
  // RFC 4648 §10 test vectors
  it.each([
    ['', ''],
    ['f', 'Zg=='],
    ['fo', 'Zm8='],
    ['foo', 'Zm9v'],
    ['foob', 'Zm9vYg=='],
    ['fooba', 'Zm9vYmE='],
    ['foobar', 'Zm9vYmFy'],
  ])('encodes %j as %j and back', async (plain, encoded) => {
    expect((await callTool(reg, 'base64', { action: 'encode', text: plain })).result).toBe(encoded);
    expect((await callTool(reg, 'base64', { action: 'decode', text: encoded })).result).toBe(plain);
  });

  it('has a url-safe variant, unpadded unless asked', async () => {
    const enc = await callTool(reg, 'base64', { action: 'encode', text: 'hello?>', variant: 'url' });
    expect(enc).toEqual({ action: 'encode', variant: 'url', result: 'aGVsbG8_Pg', bytes: 7 });
    const padded = await callTool(reg, 'base64', { action: 'encode', text: 'hello?>', variant: 'url', pad: 'true' });
    expect(padded.result).toBe('aGVsbG8_Pg==');
    expect((await callTool(reg, 'base64', { action: 'decode', text: 'aGVsbG8_Pg', variant: 'url' })).result).toBe('hello?>');
    expect((await callTool(reg, 'base64', { action: 'encode', text: 'hello?>' })).result).toBe('aGVsbG8/Pg==');
  });

  it('handles UTF-8, hex bytes, whitespace and missing padding', async () => {
    expect((await callTool(reg, 'base64', { action: 'encode', text: 'héllo 👋' })).result).toBe('aMOpbGxvIPCfkYs=');
    expect((await callTool(reg, 'base64', { action: 'decode', text: 'aMOpbGxv\nIPCfkYs' })).result).toBe('héllo 👋');
    expect((await callTool(reg, 'base64', { action: 'encode', text: 'ff00', input_encoding: 'hex' })).result).toBe('/wA=');
    const bin = await callTool(reg, 'base64', { action: 'decode', text: '/wA=', output_encoding: 'hex' });
    expect(bin).toEqual({ action: 'decode', variant: 'standard', result: 'ff00', bytes: 2 });
  });

  it('answers 422 for invalid base64, the wrong alphabet and non-UTF-8 bytes', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ action: 'decode', text: 'Zm9v!' }, /unexpected character "!"/],
      [{ action: 'decode', text: 'Zm9vY' }, /length/],
      [{ action: 'decode', text: 'Zm8' + '===' }, /./],
      [{ action: 'decode', text: 'Zm=9v' }, /unexpected character "="/],
      [{ action: 'decode', text: 'aGVsbG8_Pg' }, /url-safe/],
      [{ action: 'decode', text: 'aGVsbG8/Pg==', variant: 'url' }, /standard/],
      [{ action: 'decode', text: '/w==' }, /output_encoding=hex/],
      [{ action: 'encode', text: 'xyz', input_encoding: 'hex' }, /hex/],
      [{ action: 'rot13', text: 'x' }, /./],
    ];
    for (const [input, message] of cases) {
      const err = await callToolError(reg, 'base64', input);
      expect(err.code).toBe('validation_error');
      expect(err.status).toBe(422);
      expect(err.message).toMatch(message);
    }
  });
});

describe('url_encode', () => {
  it('encodes a component, a whole URI and form data', async () => {
    const comp = await callTool(reg, 'url_encode', { action: 'encode', text: 'a b&c=d/é' });
    expect(comp).toEqual({ action: 'encode', mode: 'component', result: 'a%20b%26c%3Dd%2F%C3%A9' });
    const uri = await callTool(reg, 'url_encode', { action: 'encode', text: 'https://x.y/a b?q=é&r=1#top', mode: 'uri' });
    expect(uri.result).toBe('https://x.y/a%20b?q=%C3%A9&r=1#top');
    const form = await callTool(reg, 'url_encode', { action: 'encode', text: "a b!'*", mode: 'form' });
    expect(form.result).toBe('a+b%21%27%2A');
  });

  it('decodes each mode', async () => {
    expect((await callTool(reg, 'url_encode', { action: 'decode', text: 'a%20b%26c%3Dd%2F%C3%A9' })).result).toBe('a b&c=d/é');
    // decodeURI keeps escapes of reserved characters
    expect((await callTool(reg, 'url_encode', { action: 'decode', text: 'a%20b%2Fc', mode: 'uri' })).result).toBe('a b%2Fc');
    expect((await callTool(reg, 'url_encode', { action: 'decode', text: 'a+b%21', mode: 'form' })).result).toBe('a b!');
    expect((await callTool(reg, 'url_encode', { action: 'decode', text: 'a+b' })).result).toBe('a+b');
  });

  it('answers 422 for malformed percent-encoding and lone surrogates', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ action: 'decode', text: '100%' }, /offset 3/],
      [{ action: 'decode', text: '%E0%A4%A' }, /offset 6/],
      [{ action: 'decode', text: '%C3%28' }, /valid UTF-8/],
      [{ action: 'decode', text: '%zz', mode: 'uri' }, /Malformed/],
      [{ action: 'encode', text: 'a\ud800b' }, /surrogate/],
    ];
    for (const [input, message] of cases) {
      const err = await callToolError(reg, 'url_encode', input);
      expect(err.code).toBe('validation_error');
      expect(err.status).toBe(422);
      expect(err.message).toMatch(message);
    }
  });
});
