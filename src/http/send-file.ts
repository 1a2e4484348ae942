// Bytes are always an attachment: never rendered inline, never sniffed; with ETag (sha256), conditional GET
// (304) and single byte ranges (206, 416).
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { FileResult } from '../registry/types.js';

const SECURITY = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const disposition = (name: string): string => {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
};

/** A single `bytes=a-b` / `bytes=a-` / `bytes=-n` range within `size`, or null when unsatisfiable. */
export function parseRange(header: string, size: number): { start: number; end: number } | null | 'ignore' {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'ignore';
  let start: number;
  let end: number;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return null;
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return null;
  return { start, end };
}

export function sendFile(res: ServerResponse, f: FileResult, headers: Record<string, string> | undefined, req: IncomingHttpHeaders): void {
  const etag = `"${f.sha256}"`;
  if (headers) for (const k in headers) res.setHeader(k, headers[k]);
  for (const [k, v] of Object.entries(SECURITY)) res.setHeader(k, v);
  res.setHeader('Content-Type', f.contentType);
  res.setHeader('Content-Disposition', disposition(f.filename));
  res.setHeader('ETag', etag);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Cache-Control', 'private, max-age=0, must-revalidate');
  if (f.modifiedAt) res.setHeader('Last-Modified', new Date(f.modifiedAt).toUTCString());
  const inm = req['if-none-match'];
  if (inm && (inm === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const size = f.bytes.length;
  const rangeHeader = req.range;
  const ifRange = req['if-range'];
  if (rangeHeader && (!ifRange || ifRange === etag)) {
    const r = parseRange(rangeHeader, size);
    if (r === null) {
      res.statusCode = 416;
      res.setHeader('Content-Range', `bytes */${size}`);
      res.end();
      return;
    }
    if (r !== 'ignore') {
      res.statusCode = 206;
      res.setHeader('Content-Range', `bytes ${r.start}-${r.end}/${size}`);
      res.setHeader('Content-Length', r.end - r.start + 1);
      res.end(f.bytes.subarray(r.start, r.end + 1));
      return;
    }
  }
  res.statusCode = 200;
  res.setHeader('Content-Length', size);
  res.end(f.bytes);
}
