// Memory values at rest in SQLite: JSON text, deflated when that saves space (docs/decisions/storage.md). A value
// is the largest thing an entry holds and SQLite compresses nothing, so a stored byte of an agent's note costs about
// a third of a byte; history versions are the entries' old values, so they stay compressed for free. PostgreSQL
// compresses large values itself (TOAST) and keeps the text.
//
// In a JSON column a BLOB is always a deflated value (the application writes JSON as text). SQL reads a value through
// memory_value(), which every SQLite connection registers (sqlite-connection.ts) and PostgreSQL defines as the
// identity (pg migration 032), so one query text serves both. memory_words() gives a stored value's words for the
// full-text index and snippets (flattenText below on SQLite; a jsonpath function on PostgreSQL).
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** Below this, deflate's saving is too small to pay for the inflate on every read. */
const MIN_BYTES = 200;

/** The stored form of a JSON value: the text, or its deflated bytes when they are at most 90% of it. */
export function packValue(json: string, bytes = Buffer.byteLength(json)): string | Buffer {
  if (bytes < MIN_BYTES) return json;
  const packed = deflateRawSync(json, { level: 3 });
  return packed.length <= bytes * 0.9 ? packed : json;
}

/** The JSON text of a stored value (a string passes through). */
export function unpackValue(stored: string | Uint8Array): string {
  return typeof stored === 'string' ? stored : inflateRawSync(stored).toString('utf8');
}

/** The words of a stored value, as memory_words() gives them to SQL. */
export const storedWords = (stored: string | Uint8Array): string => flattenText(JSON.parse(unpackValue(stored)));

/** Words of a JSON value for the full-text index: strings, numbers, booleans and object keys. */
export function flattenText(value: unknown, limit = 64 * 1024): string {
  const parts: string[] = [];
  let size = 0;
  const walk = (v: unknown) => {
    if (size > limit) return;
    if (v === null || v === undefined) return;
    if (typeof v === 'object') {
      if (Array.isArray(v)) v.forEach(walk);
      else
        for (const [k, x] of Object.entries(v)) {
          parts.push(k);
          walk(x);
        }
      return;
    }
    const s = String(v);
    parts.push(s);
    size += s.length;
  };
  walk(value);
  // U+0000 is no word, and PostgreSQL's text cannot hold it: the search text has a space there.
  return parts.join(' ').slice(0, limit).replaceAll('\u0000', ' ');
}
