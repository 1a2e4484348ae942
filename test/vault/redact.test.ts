// The forms of an injected credential an API may echo back (the ones a secrets audit sent through a call-through
// and saw come back whole), each replaced; text around them and unrelated text left alone.
import { describe, expect, it } from 'vitest';
import { credentialForms, redactBytes, redactText } from '../../tools/vault/redact.js';

const SECRET = 'REPRO-bearer/TOKEN+9876';
const forms = credentialForms([SECRET]);
const b64At = (prefix: string) => Buffer.from(prefix + SECRET + 'tail').toString('base64');

describe('redacting an echoed credential', () => {
  it.each([
    ['raw', SECRET],
    ['lower case', SECRET.toLowerCase()],
    ['upper case', SECRET.toUpperCase()],
    ['hex', Buffer.from(SECRET).toString('hex')],
    ['hex, upper case', Buffer.from(SECRET).toString('hex').toUpperCase()],
    ['JSON with escaped slashes', JSON.stringify(SECRET).slice(1, -1).replaceAll('/', '\\/')],
    ['URL-encoded', encodeURIComponent(SECRET)],
    ['URL-encoded, lower-case escapes', encodeURIComponent(SECRET).toLowerCase()],
    ['base64', Buffer.from(SECRET).toString('base64')],
  ])('%s', (_name, echoed) => {
    const r = redactText(`before ${echoed} after`, forms);
    expect(r.text).toBe('before [redacted] after');
    expect(r.hits).toBe(1);
  });

  it.each([1, 2, 3, 4])('base64 of a longer value with the secret %i bytes in: all but its edges', (n) => {
    const encoded = b64At('x'.repeat(n));
    const r = redactText(encoded, forms);
    expect(r.hits).toBeGreaterThan(0);
    // The encoding of all but at most two bytes at either edge of the secret is gone: 6 groups of 3 bytes of its 23.
    const removed = encoded.length - r.text.split('[redacted]').join('').length;
    expect(removed).toBeGreaterThanOrEqual(6 * 4);
  });

  it('in a binary body, as UTF-8 and as UTF-16', () => {
    const body = Buffer.concat([Buffer.from([0, 1, 2, 255]), Buffer.from(SECRET, 'utf8'), Buffer.from(SECRET, 'utf16le')]);
    const r = redactBytes(body, forms);
    expect(r.hits).toBe(2);
    expect(r.bytes.toString('latin1')).not.toContain('TOKEN');
    expect(r.bytes.toString('utf16le')).not.toContain('TOKEN');
  });

  it('leaves text without the credential as it was', () => {
    const text = '{"ok":true,"token":"another-value-entirely","note":"REPRO-bearer"}';
    expect(redactText(text, forms)).toEqual({ text, hits: 0 });
  });
});
