// Writing responses without express's per-call overhead: JSON, errors, attachments.
import type { ServerResponse } from 'node:http';
import { GatewayError, toGatewayError } from '../errors.js';
import { stringifyBody } from '../registry/json-text.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  const payload = stringifyBody(body);
  res.statusCode = status;
  if (headers) for (const k in headers) res.setHeader(k, headers[k]);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (typeof payload === 'string') {
    res.setHeader('Content-Length', Buffer.byteLength(payload));
    res.end(payload);
    return;
  }
  const [head, bytes, tail] = payload;
  res.setHeader('Content-Length', Buffer.byteLength(head) + bytes.byteLength + Buffer.byteLength(tail));
  // Written in one go: the response stays corked until the end of this tick.
  res.write(head);
  res.write(bytes);
  res.end(tail);
}

export function sendHtml(res: ServerResponse, status: number, html: string, headers?: Record<string, string>): void {
  res.statusCode = status;
  if (headers) for (const k in headers) res.setHeader(k, headers[k]);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(html));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'");
  res.end(html);
}

export const httpError = (err: unknown): GatewayError => toGatewayError(err);

export function sendError(res: ServerResponse, err: unknown): GatewayError {
  const ge = httpError(err);
  if (res.headersSent) {
    res.destroy();
    return ge;
  }
  // A 402 carries the x402 PaymentRequired JSON as its body (also read by v1 clients).
  sendJson(res, ge.status, ge.payment ?? ge.toBody(), ge.headers);
  return ge;
}

export { isFileResult } from '../registry/content-result.js';
