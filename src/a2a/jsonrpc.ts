// JSON-RPC 2.0 for A2A: the envelope check, the error codes (A2A v0.3 §8 and v1.0 §5.4) and the response
// objects. Every error travels with HTTP 200.
import { GatewayError } from '../errors.js';
import { depthWithin, JsonTooDeepError } from '../json-depth.js';
import { servedJson } from './task-record.js';

export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** Not an A2A code (A2A leaves authentication to "a JSON-RPC custom error"): the server-error code outside A2A's -32001…-32099. */
  AUTHENTICATION: -32000,
  /**
   * The same implementation-defined code for a refusal by rate limit (issue 42): `data` tells them apart, as the
   * gateway's REST errors do, with `{code: "rate_limited", status: 429, retryAfter}` (seconds).
   */
  RATE_LIMITED: -32000,
  TASK_NOT_FOUND: -32001,
  TASK_NOT_CANCELABLE: -32002,
  PUSH_NOTIFICATION_NOT_SUPPORTED: -32003,
  UNSUPPORTED_OPERATION: -32004,
  CONTENT_TYPE_NOT_SUPPORTED: -32005,
  VERSION_NOT_SUPPORTED: -32009,
} as const;

export type RpcId = string | number | null;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export interface RpcRequest {
  id: RpcId;
  method: string;
  params: unknown;
}

/**
 * The text of a JSON-RPC response carrying `result`, as JSON.stringify writes it. A result whose JSON was kept when
 * it was written (a finished task) goes in as that text, not serialized again; the envelope around it is written
 * here rather than built as an object with a held field, which cost a dictionary-mode object and a second pass.
 */
export function rpcResultText(id: RpcId, result: unknown): string {
  const text = servedJson(result);
  return text === undefined ? JSON.stringify({ jsonrpc: '2.0', id, result }) : `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${text}}`;
}

/**
 * A thrown error as the A2A error it answers: an RpcError as it is; a gateway error refusing the credentials (401 or
 * 403, such as a suspended agent's API key) as the authentication error, with its code and status in `data` as the
 * gateway's REST errors say them; anything else -32603 (the gateway errors' rpc codes are MCP's, not A2A's).
 */
export function asRpcError(err: unknown): RpcError {
  if (err instanceof RpcError) return err;
  if (err instanceof GatewayError && (err.status === 401 || err.status === 403)) return new RpcError(RPC.AUTHENTICATION, err.message, { code: err.code, status: err.status });
  return new RpcError(RPC.INTERNAL_ERROR, 'Internal error');
}

/** Whether an error is a fault of the gateway's (to log), not an answer to the request. */
export const isInternal = (err: unknown): boolean => asRpcError(err).code === RPC.INTERNAL_ERROR;

export function rpcError(id: RpcId, err: unknown) {
  const e = asRpcError(err);
  return { jsonrpc: '2.0' as const, id, error: { code: e.code, message: e.message, ...(e.data ? { data: e.data } : {}) } };
}

const validId = (id: unknown): id is RpcId => typeof id === 'string' || id === null || (typeof id === 'number' && Number.isInteger(id));

/**
 * The request in a body: -32700 when it is not JSON; -32600 when it is no request object (a string, number,
 * null or array — batches are not part of A2A — or a wrong jsonrpc, method or id). The id travels with the
 * error whenever it could be read. A request without `id` is answered like one with `id: null`, as the
 * @a2a-js/sdk servers (0.3 and 1.x) do, rather than treated as a JSON-RPC notification that gets no reply.
 */
export function parseRequest(text: string, maxDepth: number): RpcRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw Object.assign(new RpcError(RPC.PARSE_ERROR, 'Parse error: the body is not valid JSON.'), { id: null });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw Object.assign(new RpcError(RPC.INVALID_REQUEST, 'Invalid request: the body must be one JSON-RPC 2.0 request object.'), { id: null });
  }
  const o = body as Record<string, unknown>;
  const id = validId(o.id) ? o.id : null;
  const invalid = (why: string) => Object.assign(new RpcError(RPC.INVALID_REQUEST, `Invalid request: ${why}.`), { id });
  if (o.jsonrpc !== '2.0') throw invalid('jsonrpc must be "2.0"');
  if ('id' in o && !validId(o.id)) throw invalid('id must be a string, an integer or null');
  if (typeof o.method !== 'string' || o.method === '') throw invalid('method must be a non-empty string');
  if ('params' in o && o.params !== undefined && (typeof o.params !== 'object' || o.params === null)) throw invalid('params must be an object or an array');
  if (depthWithin(o, maxDepth) === null) throw Object.assign(new RpcError(RPC.INVALID_PARAMS, `Invalid params: ${new JsonTooDeepError(maxDepth).message}`), { id });
  return { id, method: o.method, params: o.params };
}

/** The request id a parse error carries (null when none could be read). */
export const idOfError = (err: unknown): RpcId => ((err as { id?: RpcId }).id ?? null);
