// The safe fetch: one request, redirects followed by hand with every hop re-checked, a byte cap, connect and
// total timeouts, credentials dropped when a redirect leaves the origin, and a fixed User-Agent.
import type { Dispatcher } from 'undici';
import { undici } from '../lazy-undici.js';
import type { AddressPolicy } from './address-policy.js';
import { EgressError, describeOrigin } from './errors.js';
import { checkLiteral, parseTarget } from './resolve.js';
import { tracing } from '../tracing/state.js';

export interface SafeFetchOptions {
  /** Default GET. */
  method?: string;
  /** Header names are case-insensitive. User-Agent, Host and hop-by-hop headers from the caller are ignored. */
  headers?: Record<string, string>;
  /** Only re-sendable bodies (redirects 307/308 send it again); ignored for GET and HEAD. */
  body?: string | Uint8Array;
  /** Response body cap in bytes; more is a `too_large` error. Default 5 MB. */
  maxBytes?: number;
  /** Default 5 s (DNS + TCP + TLS). */
  connectTimeoutMs?: number;
  /** Whole exchange, all hops and the body. Default 15 s. */
  totalTimeoutMs?: number;
  /** Default 5; one more redirect is `too_many_redirects`. */
  maxRedirects?: number;
  /** Default true; when false a 3xx is returned as it is. */
  followRedirects?: boolean;
  /** Extra header names (besides Authorization, Cookie, Proxy-Authorization) dropped on a cross-origin redirect. */
  sensitiveHeaders?: string[];
  /** Whether a redirect may go to this URL (the call-through's allowed_hosts); one it may not is `redirect_refused`. */
  redirectAllowed?: (next: URL) => boolean;
  /** The caller's cancellation (a canceled tool call): aborts the exchange with a `canceled` error. */
  signal?: AbortSignal;
  /** Do not read the body (it is drained up to maxBytes or dropped) and return an empty one; for callers that only need the status. */
  discardBody?: boolean;
}

export interface SafeResponse {
  status: number;
  /** The final URL, after redirects. */
  url: string;
  /** Lower-case names; repeated headers are joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** The URLs redirected to, in order (the final URL is the last one when there were redirects). */
  redirects: string[];
}

export interface FetchDefaults {
  maxBytes: number;
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  maxRedirects: number;
}

export const FETCH_DEFAULTS: FetchDefaults = {
  maxBytes: 5 * 1024 * 1024,
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 15_000,
  maxRedirects: 5,
};

export const DEFAULT_USER_AGENT = 'AgentGateway/1.6 (+https://github.com/agent-gateway)';

/** What safeFetch needs from its owner (the Egress): the policy, the UA and a pinned dispatcher. */
export interface FetchContext {
  policy: AddressPolicy;
  userAgent: string;
  defaults: FetchDefaults;
  /** A dispatcher whose connections resolve through the policy-checked lookup. */
  dispatcher(connectTimeoutMs: number): Promise<Dispatcher>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ALWAYS_SENSITIVE = ['authorization', 'cookie', 'proxy-authorization'];
/** Set by the gateway or by undici, never by callers. */
const DROPPED_REQUEST_HEADERS = new Set([
  'user-agent',
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'content-length',
  'accept-encoding',
]);
/** Headers that describe a request body; dropped when a redirect turns the request into a bodiless GET. */
const BODY_HEADERS = ['content-type', 'content-encoding', 'content-language', 'content-location'];

function cleanHeaders(input: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(input ?? {})) {
    const key = name.toLowerCase();
    if (DROPPED_REQUEST_HEADERS.has(key) || value === undefined) continue;
    out[key] = String(value);
  }
  return out;
}

function plainHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(h)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Finds an EgressError raised inside undici (e.g. by the lookup hook), following `cause`. */
function findEgressError(err: unknown): EgressError | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof EgressError) return e;
    const errors = (e as { errors?: unknown[] }).errors; // AggregateError from happy-eyeballs connects
    if (Array.isArray(errors)) for (const inner of errors) if (inner instanceof EgressError) return inner;
  }
  return undefined;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'ENODATA']);

function toEgressError(err: unknown, url: URL, ctx: { timedOut: boolean; canceled: boolean; totalTimeoutMs: number; connectTimeoutMs: number }): EgressError {
  const origin = describeOrigin(url);
  if (ctx.canceled) return new EgressError('canceled', `The request to ${origin} was canceled.`);
  if (ctx.timedOut) return new EgressError('timeout', `The request to ${origin} timed out after ${ctx.totalTimeoutMs} ms.`);
  const own = findEgressError(err);
  if (own) return own;
  const code = String((err as { code?: unknown } | undefined)?.code ?? '');
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new EgressError('timeout', `Connecting to ${origin} timed out after ${ctx.connectTimeoutMs} ms.`);
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new EgressError('timeout', `The request to ${origin} timed out.`);
  }
  if (DNS_CODES.has(code)) return new EgressError('dns', `Could not resolve ${url.hostname} (${code}).`);
  if (code === 'UND_ERR_INVALID_ARG' || code === 'ERR_INVALID_ARG_TYPE' || code === 'ERR_INVALID_ARG_VALUE') {
    return new EgressError('bad_url', `The request to ${origin} is not valid (its method, a header or the body was rejected).`);
  }
  // Only the error code, never undici's message: it is short anyway and keeps request details out.
  return new EgressError('connect', `Could not complete the request to ${origin}${code ? ` (${code})` : ''}.`);
}

/** Stops a response body; undici then emits an AbortError on it, which nobody needs to see. */
function discard(body: Dispatcher.ResponseData['body']): void {
  if (body.destroyed) return;
  body.on('error', () => undefined);
  body.destroy();
}

async function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number, origin: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      discard(body);
      throw new EgressError('too_large', `The response from ${origin} is larger than ${maxBytes} bytes.`, { received: total });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/**
 * Fetches a URL under the egress policy. Every failure is an EgressError. While tracing is on the exchange is an
 * `egress <METHOD> <host>` span; no trace context is sent: these URLs are third parties' (docs/decisions/tracing.md).
 */
export function safeFetch(ctx: FetchContext, input: string | URL, opts: SafeFetchOptions = {}): Promise<SafeResponse> {
  const t = tracing;
  return t === null ? fetchUnderPolicy(ctx, input, opts) : t.egress(opts.method ?? 'GET', input, () => fetchUnderPolicy(ctx, input, opts));
}

async function fetchUnderPolicy(ctx: FetchContext, input: string | URL, opts: SafeFetchOptions): Promise<SafeResponse> {
  const maxBytes = opts.maxBytes ?? ctx.defaults.maxBytes;
  const connectTimeoutMs = opts.connectTimeoutMs ?? ctx.defaults.connectTimeoutMs;
  const totalTimeoutMs = opts.totalTimeoutMs ?? ctx.defaults.totalTimeoutMs;
  const maxRedirects = opts.maxRedirects ?? ctx.defaults.maxRedirects;
  const follow = opts.followRedirects ?? true;
  const sensitive = new Set([...ALWAYS_SENSITIVE, ...(opts.sensitiveHeaders ?? []).map((h) => h.toLowerCase())]);

  let target = parseTarget(input);
  let method = (opts.method ?? 'GET').toUpperCase();
  let body: string | Uint8Array | undefined = opts.body;
  const headers = cleanHeaders(opts.headers);
  const redirects: string[] = [];
  const dispatcher = await ctx.dispatcher(connectTimeoutMs);
  const { request } = await undici();

  const state = { timedOut: false, canceled: false, totalTimeoutMs, connectTimeoutMs };
  const controller = new AbortController();
  const timer = setTimeout(() => {
    state.timedOut = true;
    controller.abort();
  }, totalTimeoutMs);
  const cancel = () => {
    state.canceled = true;
    controller.abort();
  };
  if (opts.signal?.aborted) cancel();
  else opts.signal?.addEventListener('abort', cancel, { once: true });

  try {
    for (;;) {
      checkLiteral(target, ctx.policy);
      const url = target.url;
      const origin = describeOrigin(url);
      let res: Dispatcher.ResponseData;
      try {
        res = await request(url, {
          method: method as Dispatcher.HttpMethod,
          headers: { ...headers, 'user-agent': ctx.userAgent, 'accept-encoding': 'identity' },
          body: method === 'GET' || method === 'HEAD' ? undefined : body,
          dispatcher,
          signal: controller.signal,
        });
      } catch (err) {
        throw toEgressError(err, url, state);
      }

      try {
        const location = res.headers.location;
        if (follow && REDIRECTS.has(res.statusCode) && typeof location === 'string' && location !== '') {
          await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
          if (redirects.length >= maxRedirects) {
            throw new EgressError('too_many_redirects', `Stopped after ${maxRedirects} redirects (last from ${origin}).`);
          }
          let next: URL;
          try {
            next = new URL(location, url);
          } catch {
            throw new EgressError('bad_url', `${origin} redirected to an invalid URL.`);
          }
          const nextTarget = parseTarget(next);
          if (opts.redirectAllowed && !opts.redirectAllowed(nextTarget.url)) {
            throw new EgressError('redirect_refused', `${origin} redirected to ${describeOrigin(nextTarget.url)}, where this request may not go.`);
          }
          if (nextTarget.url.origin !== url.origin) for (const name of sensitive) delete headers[name];
          const s = res.statusCode;
          if ((s === 303 && method !== 'HEAD') || ((s === 301 || s === 302) && method === 'POST')) {
            method = 'GET';
            body = undefined;
            for (const name of BODY_HEADERS) delete headers[name];
          }
          target = nextTarget;
          redirects.push(target.url.href);
          continue;
        }

        if (opts.discardBody || method === 'HEAD') {
          await res.body.dump({ limit: maxBytes }).catch(() => undefined);
          return { status: res.statusCode, url: url.href, headers: plainHeaders(res.headers), body: Buffer.alloc(0), redirects };
        }
        const contentLength = Number(res.headers['content-length']);
        if (Number.isFinite(contentLength) && contentLength > maxBytes) {
          discard(res.body);
          throw new EgressError('too_large', `The response from ${origin} is ${contentLength} bytes, over the ${maxBytes}-byte limit.`, { received: 0 });
        }
        const data = await readCapped(res.body, maxBytes, origin);
        return { status: res.statusCode, url: url.href, headers: plainHeaders(res.headers), body: data, redirects };
      } catch (err) {
        discard(res.body);
        if (err instanceof EgressError && !state.timedOut && !state.canceled) throw err;
        throw toEgressError(err, url, state);
      }
    }
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', cancel);
  }
}
