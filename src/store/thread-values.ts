// Values that crossed a thread boundary: structured cloning turns a Buffer into a plain Uint8Array.

/**
 * Rows with their blob columns as Buffers again, as the driver gives them on its own thread. Rows of one statement
 * share their columns, so only the columns that are bytes or NULL in the first row are looked at in the others
 * (walking every key of every row cost a search 100 µs).
 */
export function withBuffers(value: unknown): unknown {
  if (!Array.isArray(value) || value.length === 0) return value;
  const first = value[0] as Record<string, unknown> | null;
  if (first === null || typeof first !== 'object') return value;
  const maybe = Object.keys(first).filter((k) => first[k] === null || first[k] instanceof Uint8Array);
  if (maybe.length === 0) return value;
  for (const row of value as Record<string, unknown>[]) {
    for (const k of maybe) {
      const v = row[k];
      if (v instanceof Uint8Array && !Buffer.isBuffer(v)) row[k] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    }
  }
  return value;
}
