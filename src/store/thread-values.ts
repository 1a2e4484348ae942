// Values that crossed a thread boundary: structured cloning turns a Buffer into a plain Uint8Array.

/** Rows with their blob columns as Buffers again, as the driver gives them on its own thread. */
export function withBuffers(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  for (const row of value) {
    if (row === null || typeof row !== 'object') continue;
    const r = row as Record<string, unknown>;
    for (const k in r) {
      const v = r[k];
      if (v instanceof Uint8Array && !Buffer.isBuffer(v)) r[k] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    }
  }
  return value;
}
