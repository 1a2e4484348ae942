// Memory values at rest in SQLite: JSON text, deflated when that saves space (docs/decisions/storage.md). A value
// is the largest thing an entry holds and SQLite compresses nothing, so a stored byte of an agent's note costs about
// a third of a byte; history versions are the entries' old values, so they stay compressed for free. PostgreSQL
// compresses large values itself (TOAST) and keeps the text.
//
// In a JSON column a BLOB is always a deflated value (the application writes JSON as text). SQL reads a value through
// memory_value(), which every SQLite connection registers (sqlite-connection.ts) and PostgreSQL defines as the
// identity (pg migration 032), so one query text serves both.
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
export function unpackValue(stored: string | Buffer | Uint8Array): string {
  return typeof stored === 'string' ? stored : inflateRawSync(stored).toString('utf8');
}

/** The SQL function that reads a stored value, as SQLite connections register it. */
export const MEMORY_VALUE_FUNCTION = 'memory_value';
