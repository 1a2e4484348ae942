// A2A errors over the HTTP+JSON binding (v1.0 §11.6, §5.4): an HTTP status and a google.rpc.Status body whose
// details carry an ErrorInfo naming the A2A error (reason TASK_NOT_FOUND…, domain a2a-protocol.org), which is
// what clients map back to a typed error; invalid input adds a google.rpc.BadRequest with each field at fault.
import { asRpcError, RPC } from './jsonrpc.js';

const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';
const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';
const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';
const DOMAIN = 'a2a-protocol.org';

/** The A2A errors: JSON-RPC code → [HTTP status, google.rpc code name, ErrorInfo reason]. */
const A2A_ERRORS: Record<number, [number, string, string]> = {
  [RPC.TASK_NOT_FOUND]: [404, 'NOT_FOUND', 'TASK_NOT_FOUND'],
  [RPC.TASK_NOT_CANCELABLE]: [400, 'FAILED_PRECONDITION', 'TASK_NOT_CANCELABLE'],
  [RPC.PUSH_NOTIFICATION_NOT_SUPPORTED]: [400, 'FAILED_PRECONDITION', 'PUSH_NOTIFICATION_NOT_SUPPORTED'],
  [RPC.UNSUPPORTED_OPERATION]: [400, 'FAILED_PRECONDITION', 'UNSUPPORTED_OPERATION'],
  [RPC.CONTENT_TYPE_NOT_SUPPORTED]: [400, 'INVALID_ARGUMENT', 'CONTENT_TYPE_NOT_SUPPORTED'],
  [RPC.VERSION_NOT_SUPPORTED]: [400, 'FAILED_PRECONDITION', 'VERSION_NOT_SUPPORTED'],
};

/** The rest: input that is not valid, credentials, a route that is not there, the gateway's own failure. */
const OTHER: Record<number, [number, string]> = {
  [RPC.PARSE_ERROR]: [400, 'INVALID_ARGUMENT'],
  [RPC.INVALID_REQUEST]: [400, 'INVALID_ARGUMENT'],
  [RPC.INVALID_PARAMS]: [400, 'INVALID_ARGUMENT'],
  [RPC.METHOD_NOT_FOUND]: [404, 'NOT_FOUND'],
};

export interface RestError {
  status: number;
  body: { error: { code: number; status: string; message: string; details: Record<string, unknown>[] } };
  /** Seconds a rate-limited client should wait: the response's Retry-After. */
  retryAfter?: number;
}

const metadataOf = (data: Record<string, unknown> | undefined): Record<string, string> | undefined => {
  const entries = Object.entries(data ?? {}).filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean');
  return entries.length ? Object.fromEntries(entries.map(([k, v]) => [k, String(v)])) : undefined;
};

export function restError(err: unknown): RestError {
  const e = asRpcError(err);
  const details: Record<string, unknown>[] = [];
  let status: number;
  let name: string;
  let retryAfter: number | undefined;
  const a2a = A2A_ERRORS[e.code];
  if (a2a) {
    [status, name] = a2a;
    const metadata = metadataOf(e.data);
    details.push({ '@type': ERROR_INFO, reason: a2a[2], domain: DOMAIN, ...(metadata ? { metadata } : {}) });
  } else if (e.code === RPC.RATE_LIMITED && e.data?.code === 'rate_limited') {
    // 429 as over REST, with Retry-After and the same wait as a google.rpc.RetryInfo.
    [status, name] = [429, 'RESOURCE_EXHAUSTED'];
    const wait = Number(e.data.retryAfter);
    details.push({ '@type': ERROR_INFO, reason: 'RATE_LIMITED', domain: 'agent-gateway', metadata: metadataOf(e.data) });
    if (wait > 0) {
      retryAfter = wait;
      details.push({ '@type': RETRY_INFO, retryDelay: `${wait}s` });
    }
  } else if (e.data?.reason === 'body_too_large') {
    // 413 as on every other route (GATEWAY_MAX_BODY_BYTES); no A2A error names it.
    [status, name] = [413, 'INVALID_ARGUMENT'];
    details.push({ '@type': ERROR_INFO, reason: 'BODY_TOO_LARGE', domain: 'agent-gateway', metadata: metadataOf(e.data) });
  } else if (e.code === RPC.AUTHENTICATION) {
    // An unknown secret or key is 403 as over REST; a missing one 401.
    status = e.data?.status === 401 ? 401 : 403;
    name = status === 401 ? 'UNAUTHENTICATED' : 'PERMISSION_DENIED';
    // Which refusal it is (AGENT_SUSPENDED, FORBIDDEN…), as JSON-RPC's data.code says it: no A2A error names them.
    if (typeof e.data?.code === 'string') details.push({ '@type': ERROR_INFO, reason: e.data.code.toUpperCase(), domain: 'agent-gateway' });
  } else {
    [status, name] = OTHER[e.code] ?? [500, 'INTERNAL'];
  }
  const issues = e.data?.issues as { path: string[]; message: string }[] | undefined;
  if (issues?.length) details.push({ '@type': BAD_REQUEST, fieldViolations: issues.map((i) => ({ field: i.path.join('.'), description: i.message })) });
  return { status, body: { error: { code: status, status: name, message: e.message, details } }, ...(retryAfter ? { retryAfter } : {}) };
}
