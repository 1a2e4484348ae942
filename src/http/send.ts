// Writing responses without express's per-call overhead: JSON, errors, attachments.
import type { ServerResponse } from 'node:http';
import { GatewayError, toGatewayError } from '../errors.js';
import { stringifyBody } from '../registry/json-text.js';
import type { GatewayResponse } from './response.js';

const JSON_TYPE = 'application/json; charset=utf-8';
/** Headers sendJson's one-call head writes itself: a caller's header of the same name takes the general path. */
const OWN_HEADERS = new Set(['x-request-id', 'content-type', 'content-length']);

/** The whole head of a JSON response as one flat list, or null when a header must go the general way. */
function jsonHead(id: string, headers: Record<string, string> | undefined, type: string, length: number): (string | number)[] | null {
  const head: (string | number)[] = ['X-Request-Id', id];
  if (headers) {
    for (const k in headers) {
      if (OWN_HEADERS.has(k.toLowerCase())) return null;
      head.push(k, headers[k]);
    }
  }
  head.push('Content-Type', type, 'Content-Length', length);
  return head;
}

/**
 * Sends JSON text as the whole response with its head in one writeHead call (the request id in it) when the
 * response came from the gateway's server; false when it must go the general way. (Headers set before are
 * merged by writeHead, the caller's replacing them as setHeader would.)
 */
function sendJsonFast(res: ServerResponse, status: number, text: string, headers: Record<string, string> | undefined, type: string): boolean {
  const id = (res as Partial<GatewayResponse>).requestId;
  if (id === undefined || res.headersSent) return false;
  const head = jsonHead(id, headers, type, Buffer.byteLength(text));
  if (!head) return false;
  const r = res as GatewayResponse;
  r.sentWhole = true;
  res.writeHead(status, head);
  res.end(text);
  r.logAccess();
  return true;
}

/** JSON text already serialized (a JSON-RPC answer): `type` is its Content-Type. */
export function sendJsonText(res: ServerResponse, status: number, text: string, headers?: Record<string, string>, type = JSON_TYPE): void {
  if (sendJsonFast(res, status, text, headers, type)) return;
  res.statusCode = status;
  if (headers) for (const k in headers) res.setHeader(k, headers[k]);
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  const payload = stringifyBody(body);
  if (typeof payload === 'string') return sendJsonText(res, status, payload, headers);
  res.statusCode = status;
  if (headers) for (const k in headers) res.setHeader(k, headers[k]);
  res.setHeader('Content-Type', JSON_TYPE);
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
