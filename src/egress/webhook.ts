// Signed webhooks (callback_url, docs/architecture.md "Egress"): a JSON POST through the safe fetch, signed with
// HMAC-SHA256 over "<timestamp>.<body>", retried with exponential backoff and full jitter on network errors,
// 5xx and 429. Other statuses (2xx excepted) are final. Every attempt is reported so the caller can record it.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { EgressError } from './errors.js';
import type { SafeFetchOptions, SafeResponse } from './fetch.js';

export const WEBHOOK_HEADERS = {
  timestamp: 'X-Gateway-Timestamp',
  signature: 'X-Gateway-Signature',
  delivery: 'X-Gateway-Delivery',
  attempt: 'X-Gateway-Attempt',
} as const;

/** Anything that can do a safe fetch (an Egress). */
export interface WebhookFetcher {
  fetch(url: string, opts?: SafeFetchOptions): Promise<SafeResponse>;
}

export interface WebhookOptions {
  url: string;
  /** Any JSON value; serialised once, and the signature covers exactly the bytes sent. */
  body: unknown;
  secret: string;
  /** Total attempts, default 5. */
  attempts?: number;
  /** Backoff base, default 500 ms: attempt n waits random(0, min(maxDelayMs, base * 2^(n-1))). */
  baseDelayMs?: number;
  /** Default 30 s. */
  maxDelayMs?: number;
  /** Per attempt, default 10 s. */
  timeoutMs?: number;
  /** Reuse an id (e.g. a stored delivery row); default a random UUID. The same id is sent on every attempt. */
  deliveryId?: string;
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** In [0, 1), for the jitter. */
  random?: () => number;
}

export interface WebhookAttempt {
  attempt: number;
  /** ISO time the attempt started. */
  at: string;
  status?: number;
  /** `code: message` of a failure without a status (EgressError codes). */
  error?: string;
  duration_ms: number;
}

export interface WebhookResult {
  delivered: boolean;
  delivery_id: string;
  attempts: WebhookAttempt[];
}

/** The signature header value for a timestamp (unix seconds) and the exact body string. */
export function signWebhook(secret: string, timestamp: number | string, body: string | Buffer): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`);
  mac.update(body);
  return `sha256=${mac.digest('hex')}`;
}

/**
 * For receivers: true when `header` is the signature of `timestamp` + `body` (the raw bytes received) and the
 * timestamp is within `toleranceSeconds` of now. Constant-time comparison.
 */
export function verifyWebhookSignature(
  secret: string,
  timestamp: number | string,
  body: string | Buffer,
  header: string | undefined,
  toleranceSeconds = 300,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): boolean {
  if (!header || !/^\d{1,12}$/.test(String(timestamp))) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const retryableStatus = (s: number): boolean => s >= 500 || s === 429;
/** Failures worth another try; policy and URL errors will not change by waiting. */
const RETRYABLE_ERRORS = new Set(['dns', 'timeout', 'connect']);

function retryAfterMs(value: string | undefined): number | undefined {
  if (!value || !/^\d{1,6}$/.test(value.trim())) return undefined;
  return Number(value.trim()) * 1000;
}

export async function sendWebhook(fetcher: WebhookFetcher, opts: WebhookOptions): Promise<WebhookResult> {
  const attempts = Math.max(1, Math.floor(opts.attempts ?? 5));
  const base = opts.baseDelayMs ?? 500;
  const maxDelay = opts.maxDelayMs ?? 30_000;
  const sleep = opts.sleep ?? ((ms: number) => delay(ms).then(() => undefined));
  const now = opts.now ?? Date.now;
  const random = opts.random ?? Math.random;
  const deliveryId = opts.deliveryId ?? randomUUID();
  const payload = JSON.stringify(opts.body ?? null);
  const log: WebhookAttempt[] = [];

  for (let n = 1; n <= attempts; n++) {
    const started = now();
    const timestamp = Math.floor(started / 1000);
    const entry: WebhookAttempt = { attempt: n, at: new Date(started).toISOString(), duration_ms: 0 };
    let retry = false;
    let retryAfter: number | undefined;
    try {
      const res = await fetcher.fetch(opts.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [WEBHOOK_HEADERS.timestamp]: String(timestamp),
          [WEBHOOK_HEADERS.signature]: signWebhook(opts.secret, timestamp, payload),
          [WEBHOOK_HEADERS.delivery]: deliveryId,
          [WEBHOOK_HEADERS.attempt]: String(n),
        },
        body: payload,
        followRedirects: false,
        discardBody: true,
        maxBytes: 64 * 1024,
        totalTimeoutMs: opts.timeoutMs ?? 10_000,
      });
      entry.status = res.status;
      if (res.status >= 200 && res.status < 300) {
        entry.duration_ms = Math.max(0, now() - started);
        log.push(entry);
        return { delivered: true, delivery_id: deliveryId, attempts: log };
      }
      retry = retryableStatus(res.status);
      if (retry) retryAfter = retryAfterMs(res.headers['retry-after']);
    } catch (err) {
      const e = err instanceof EgressError ? err : new EgressError('connect', 'The webhook could not be sent.');
      entry.error = `${e.code}: ${e.message}`;
      retry = RETRYABLE_ERRORS.has(e.code);
    }
    entry.duration_ms = Math.max(0, now() - started);
    log.push(entry);
    if (!retry || n === attempts) break;
    const ceiling = Math.min(maxDelay, base * 2 ** (n - 1));
    let wait = Math.floor(random() * ceiling);
    if (retryAfter !== undefined) wait = Math.min(maxDelay, Math.max(wait, retryAfter));
    await sleep(wait);
  }
  return { delivered: false, delivery_id: deliveryId, attempts: log };
}
