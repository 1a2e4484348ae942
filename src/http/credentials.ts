// Credentials come from headers only (never the URL): Authorization: Bearer, X-API-Key, x402 payment headers.
import type { IncomingMessage } from 'node:http';
import { REVENUE_KEY_PREFIX } from '../auth/secrets.js';
import type { Credentials, Transport } from '../registry/types.js';
import { httpRequestIdOf } from './request.js';

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export function bearerOf(req: IncomingMessage): string | undefined {
  const auth = header(req, 'authorization');
  if (!auth) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  return m ? m[1] : undefined;
}

/**
 * The client's address. Behind `hops` proxies (GATEWAY_TRUST_PROXY), the X-Forwarded-For entry that many from its
 * end: the address the outermost proxy saw, each proxy appending the one it was reached from. Entries before it are
 * whatever the client sent, so trusting any of those (the first, as it once was) let a caller name any address and
 * escape every per-client limit. Fewer entries than proxies: the request skipped the outer ones, and the earliest
 * entry a trusted proxy wrote is the client.
 */
export function clientIp(req: IncomingMessage, hops: number): string {
  if (hops > 0) {
    const entries = (header(req, 'x-forwarded-for') ?? '').split(',').map((e) => e.trim()).filter(Boolean);
    if (entries.length > 0) return entries.at(-Math.min(hops, entries.length))!;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

export function credentialsOf(req: IncomingMessage, transport: Transport, trustProxy: number): Credentials {
  const bearer = bearerOf(req);
  // A revenue key may come as a Bearer (the spec's /review): its prefix tells it from an agent secret.
  const revenueBearer = bearer?.startsWith(REVENUE_KEY_PREFIX) === true;
  const revenueKey = header(req, 'x-revenue-key') ?? (revenueBearer ? bearer : undefined);
  return {
    bearer: revenueBearer ? undefined : bearer,
    ...(revenueKey !== undefined ? { revenueKey } : {}),
    apiKey: header(req, 'x-api-key'),
    paymentSignature: header(req, 'payment-signature'),
    xPayment: header(req, 'x-payment'),
    operatorToken: header(req, 'x-operator-token'),
    ip: clientIp(req, trustProxy),
    transport,
    requestId: httpRequestIdOf(req),
  };
}
