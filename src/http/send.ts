// Writing responses without express's per-call overhead: JSON, errors, attachments.
import type { ServerResponse } from 'node:http';
import { GatewayError, toGatewayError, validationError } from '../errors.js';
import type { FileResult } from '../registry/types.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  const payload = JSON.stringify(body);
  res.statusCode = status;
  if (headers) for (const k in headers) res.setHeader(k, headers[k]);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}

/** Maps body-parser failures onto the catalogue; everything else unknown is internal_error. */
export function httpError(err: unknown): GatewayError {
  if (err instanceof GatewayError) return err;
  const e = err as { type?: string; status?: number; message?: string };
  switch (e?.type) {
    case 'entity.parse.failed':
      return validationError([{ loc: ['body'], msg: 'The body is not valid JSON.', type: 'json_invalid' }]);
    case 'entity.too.large':
      return new GatewayError('payload_too_large', 'The request body is larger than this gateway accepts.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new GatewayError('unsupported_media_type', 'Unsupported body encoding or charset.');
    case 'request.aborted':
      return new GatewayError('bad_request', 'The request was aborted.');
  }
  return toGatewayError(err);
}

export function sendError(res: ServerResponse, err: unknown): GatewayError {
  const ge = httpError(err);
  if (res.headersSent) {
    res.destroy();
    return ge;
  }
  sendJson(res, ge.status, ge.toBody(), ge.headers);
  return ge;
}

export const isFileResult = (v: unknown): v is FileResult =>
  typeof v === 'object' && v !== null && (v as FileResult).kind === 'file' && Buffer.isBuffer((v as FileResult).bytes);

/** Bytes are always an attachment: never rendered inline by a browser, never sniffed. */
export function sendFile(res: ServerResponse, f: FileResult, headers?: Record<string, string>): void {
  res.statusCode = 200;
  if (headers) for (const k in headers) res.setHeader(k, headers[k]);
  res.setHeader('Content-Type', f.contentType);
  res.setHeader('Content-Length', f.bytes.length);
  res.setHeader('Content-Disposition', `attachment; filename="${f.filename.replace(/["\\\r\n]/g, '_')}"`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
  res.end(f.bytes);
}
