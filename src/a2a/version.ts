// The A2A protocol version a request asks for: the `A2A-Version` header, or else the query parameter of that name
// (v1.0 lets a client send it either way; the header wins).
import type { IncomingMessage } from 'node:http';

export const requestedVersion = (req: IncomingMessage, rawQuery: string): string => {
  const header = req.headers['a2a-version'];
  const h = (Array.isArray(header) ? header[0] : header)?.trim();
  return h || (rawQuery ? (new URLSearchParams(rawQuery).get('A2A-Version')?.trim() ?? '') : '');
};

export const isV1 = (v: string): boolean => /^1\.0(\.\d+)?$/.test(v);

/** JSON-RPC: absent or 0.3 → v0.3 names, 1.0 → v1.0 names, anything else is refused (null). */
export function versionOf(req: IncomingMessage, rawQuery: string): '0.3' | '1.0' | null {
  const v = requestedVersion(req, rawQuery);
  if (v === '' || /^0\.3(\.\d+)?$/.test(v)) return '0.3';
  return isV1(v) ? '1.0' : null;
}
