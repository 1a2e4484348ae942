// How a failing OpenAI-compatible upstream is told to our caller. Client mistakes the upstream reports (bad
// request, unknown model) pass through with its status and error object; its own troubles (5xx, refused
// operator credentials) become 502, a timeout 504, its rate limit 429 with Retry-After.
import { GatewayError, type ErrorCode } from '../errors.js';

/** The OpenAI error object the upstream sent, when it sent one. */
export interface OpenAiErrorObject {
  message: string;
  type?: string | null;
  param?: string | null;
  code?: string | null;
}

const PASS_THROUGH: Record<number, ErrorCode> = {
  400: 'bad_request',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_error',
};

function errorObjectOf(text: string): OpenAiErrorObject | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    const e = body.error;
    if (e && typeof e === 'object' && typeof (e as OpenAiErrorObject).message === 'string') return e as OpenAiErrorObject;
    if (typeof e === 'string') return { message: e };
  } catch {
    // not JSON: described by status only
  }
  return undefined;
}

/**
 * An upstream's error text as it may be shown to our caller: without the operator's key should the upstream echo it
 * (some echo the Authorization header they refused), and any other OpenAI-style key shortened to its prefix.
 */
export function withoutKey(text: string, apiKey: string | undefined): string {
  const t = apiKey ? text.split(apiKey).join('[redacted]') : text;
  return t.replace(/\b(sk-[A-Za-z0-9_-]{6})[A-Za-z0-9_*-]{8,}/g, '$1…');
}

/** The error for an upstream answer with a non-2xx status; `apiKey` is the key the gateway sent it. */
export function upstreamStatusError(status: number, bodyText: string, retryAfter: string | undefined, apiKey: string | undefined): GatewayError {
  const upstream = errorObjectOf(withoutKey(bodyText, apiKey));
  const pass = PASS_THROUGH[status];
  if (pass) {
    const openai = upstream ?? { message: `The upstream model server answered ${status}.`, type: 'invalid_request_error' };
    return new GatewayError(pass, openai.message, { extra: { upstream_status: status, openai } });
  }
  if (status === 429) {
    return new GatewayError('rate_limited', upstream?.message ?? 'The upstream model server is rate limiting; retry later.', {
      headers: { 'Retry-After': retryAfter && /^\d+$/.test(retryAfter) ? retryAfter : '1' },
      extra: { upstream_status: status },
    });
  }
  const why = status === 401 || status === 403 ? ` (it refused the gateway's configured credentials: LLM_API_KEY)` : '';
  return new GatewayError('upstream_error', `The upstream model server answered ${status}${why}.`, { extra: { upstream_status: status } });
}

/** The error for a request that never got a complete answer (timeout, refused connection, reset). */
export function upstreamTransportError(err: unknown): GatewayError {
  if (err instanceof GatewayError) return err;
  const e = err as { name?: string; code?: string };
  const timedOut =
    e?.name === 'TimeoutError' || e?.code === 'UND_ERR_HEADERS_TIMEOUT' || e?.code === 'UND_ERR_BODY_TIMEOUT' || e?.code === 'UND_ERR_CONNECT_TIMEOUT';
  if (timedOut) return new GatewayError('upstream_error', 'The upstream model server timed out.', { extra: { timeout: true } });
  return new GatewayError('upstream_error', 'The upstream model server is unreachable or closed the connection.');
}
