// Reversible encodings: base64 (standard and url-safe) and percent-encoding for URLs.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { bytesOf, cappedText, decodeBase64Strict, flag, invalid, PURE, TOOLBELT_BASE } from './common.js';

const utf8Strict = new TextDecoder('utf-8', { fatal: true });

export const base64 = defineTool({
  ...TOOLBELT_BASE,
  name: 'base64',
  title: 'Base64 encode/decode',
  description:
    'Base64 encode or decode, standard (RFC 4648 §4, + and /, "=" padded) or url-safe (§5, - and _, unpadded ' +
    'unless pad=true). encode: text (utf8, or hex bytes) → base64. decode: base64 → UTF-8 text, or hex with ' +
    'output_encoding=hex; whitespace is ignored, padding is optional, any other character outside the ' +
    'alphabet is a 422, as are bytes that are not valid UTF-8 when text is asked for. Returns {action, ' +
    'variant, result, bytes}.',
  input: z.object({
    action: z.enum(['encode', 'decode']).describe('encode (to base64) or decode (from base64).'),
    text: cappedText('encode: the data (at most 1 MB); decode: the base64 string.'),
    variant: z
      .enum(['standard', 'url'])
      .default('standard')
      .describe('standard (+/ with padding, default) or url (-_ URL- and filename-safe).'),
    input_encoding: z
      .enum(['utf8', 'hex'])
      .default('utf8')
      .describe('encode only: text is UTF-8 (default) or hex bytes.'),
    output_encoding: z
      .enum(['utf8', 'hex'])
      .default('utf8')
      .describe('decode only: give the decoded bytes as UTF-8 text (default) or as hex (for binary data).'),
    pad: flag(false, 'encode with variant=url only: keep "=" padding (standard always pads). Default false.'),
  }),
  annotations: PURE,
  handler: (input) => {
    if (input.action === 'encode') {
      const bytes = bytesOf(input.text, input.input_encoding, 'text');
      let result = bytes.toString(input.variant === 'url' ? 'base64url' : 'base64');
      if (input.variant === 'url' && input.pad) result += '='.repeat((4 - (result.length % 4)) % 4);
      return { action: input.action, variant: input.variant, result, bytes: bytes.length };
    }
    const bytes = decodeBase64Strict(input.text, input.variant, 'text');
    let result: string;
    if (input.output_encoding === 'hex') result = bytes.toString('hex');
    else {
      try {
        result = utf8Strict.decode(bytes);
      } catch {
        throw invalid('text', 'The decoded bytes are not valid UTF-8 text; ask for output_encoding=hex to get them as hex.');
      }
    }
    return { action: input.action, variant: input.variant, result, bytes: bytes.length };
  },
});

/** application/x-www-form-urlencoded differs from encodeURIComponent in a few characters. */
const formEncode = (s: string) =>
  encodeURIComponent(s)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');

export const urlEncode = defineTool({
  ...TOOLBELT_BASE,
  name: 'url_encode',
  title: 'URL percent-encoding',
  description:
    'Percent-encode or decode text for URLs (UTF-8). mode=component (default) escapes everything but ' +
    'A-Z a-z 0-9 - _ . ! ~ * \' ( ) — for a single query value or path segment (encodeURIComponent). ' +
    'mode=uri keeps URL syntax such as : / ? # & = intact — for a whole URL (encodeURI). mode=form is ' +
    'application/x-www-form-urlencoded (space ↔ "+"). Malformed percent-encoding on decode, or lone ' +
    'surrogates on encode, answer 422. Returns {action, mode, result}.',
  input: z.object({
    action: z.enum(['encode', 'decode']).describe('encode (escape) or decode (unescape).'),
    text: cappedText('The text to encode or decode (at most 1 MB).'),
    mode: z
      .enum(['component', 'uri', 'form'])
      .default('component')
      .describe('component (default: one URL part), uri (a whole URL), or form (x-www-form-urlencoded, + for space).'),
  }),
  annotations: PURE,
  handler: (input) => {
    const { action, mode, text } = input;
    try {
      let result: string;
      if (action === 'encode') result = mode === 'uri' ? encodeURI(text) : mode === 'form' ? formEncode(text) : encodeURIComponent(text);
      else if (mode === 'uri') result = decodeURI(text);
      else result = decodeURIComponent(mode === 'form' ? text.replace(/\+/g, ' ') : text);
      return { action, mode, result };
    } catch (err) {
      if (!(err instanceof URIError)) throw err;
      const at = action === 'decode' ? malformedAt(text) : -1;
      throw invalid(
        'text',
        action === 'decode'
          ? `Malformed percent-encoding${at >= 0 ? ` at offset ${at} (${JSON.stringify(text.slice(at, at + 3))})` : ''}: ` +
              'every % must start a %XX escape and the escapes must form valid UTF-8.'
          : 'Cannot encode: the text contains a lone UTF-16 surrogate (not a valid Unicode character).',
      );
    }
  },
});

/** Offset of the first bad %-escape, for a helpful message (-1 when only the UTF-8 sequence is wrong). */
function malformedAt(text: string): number {
  const m = /%(?![0-9a-fA-F]{2})/.exec(text);
  return m ? m.index : -1;
}
