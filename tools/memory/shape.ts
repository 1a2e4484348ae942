// How memory rows are shown: ISO times, parsed JSON, opaque cursors.
import { GatewayError } from '../../src/errors.js';
import type { EntryRow } from './store/entries.js';

export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function shapeEntry(row: EntryRow, owner: string | null) {
  return {
    namespace: row.namespace,
    key: row.key,
    owner,
    value: JSON.parse(row.value) as unknown,
    version: row.version,
    size: row.size,
    visibility: row.visibility,
    tags: JSON.parse(row.tags) as string[],
    pinned: row.pinned === 1,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    expires_at: iso(row.expires_at),
  };
}

export const encodeCursor = (v: string | number): string => Buffer.from(JSON.stringify(v)).toString('base64url');

export function decodeCursor<T = string>(cursor: string): T {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString()) as T;
  } catch {
    throw new GatewayError('validation_error', 'The cursor is not valid.', { detail: [{ loc: ['cursor'], msg: 'not a cursor from this API', type: 'value_error' }] });
  }
}
