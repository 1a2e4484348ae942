// The error catalogue (docs/architecture.md, "Errors and status codes"): one stable code per failure, with its HTTP status and JSON-RPC code.
// Every adapter renders a GatewayError from here; nothing else invents status codes.
import { storageBudgetRefusal } from './storage-budget.js';

export interface ErrorSpec {
  status: number;
  rpc: number;
  message: string;
}

export const ERRORS = {
  validation_error: { status: 422, rpc: -32602, message: 'The request is not valid.' },
  bad_request: { status: 400, rpc: -32600, message: 'The request is malformed.' },
  secret_in_url: {
    status: 400,
    rpc: -32600,
    message: 'Credentials must be sent in a header (Authorization: Bearer or X-API-Key), never in the URL.',
  },
  secret_in_body: { status: 400, rpc: -32600, message: 'Send the agent secret as Authorization: Bearer, never in the body.' },
  unauthorized: { status: 401, rpc: -32001, message: 'Credentials are required: send Authorization: Bearer <AGENT_SECRET>.' },
  forbidden: { status: 403, rpc: -32003, message: 'These credentials may not act on this resource.' },
  insufficient_scope: { status: 403, rpc: -32003, message: 'The access token was not granted the scope this tool needs.' },
  agent_suspended: { status: 403, rpc: -32003, message: 'This agent is suspended by the operator of this gateway; its credentials are refused until the suspension ends.' },
  payment_required: { status: 402, rpc: -32402, message: 'Payment required: send X-API-Key or a PAYMENT-SIGNATURE.' },
  not_found: { status: 404, rpc: -32004, message: 'Not found.' },
  method_not_allowed: { status: 405, rpc: -32601, message: 'Method not allowed.' },
  conflict: { status: 409, rpc: -32009, message: 'The request conflicts with the current state.' },
  confirmation_required: { status: 409, rpc: -32009, message: 'This action needs the person to confirm it first.' },
  declined: { status: 409, rpc: -32009, message: 'The person declined this action; nothing was done.' },
  capability_required: { status: 400, rpc: -32021, message: 'This call needs a client that can answer its questions (MCP elicitation, sampling or roots).' },
  handle_taken: { status: 409, rpc: -32009, message: 'That handle is already taken.' },
  gone: { status: 410, rpc: -32010, message: 'This resource has expired.' },
  payload_too_large: { status: 413, rpc: -32013, message: 'The payload is too large.' },
  unsupported_media_type: { status: 415, rpc: -32600, message: 'Send Content-Type: application/json.' },
  rate_limited: { status: 429, rpc: -32029, message: 'Too many requests; retry later.' },
  upstream_error: { status: 502, rpc: -32050, message: 'The upstream service failed.' },
  unavailable: { status: 503, rpc: -32053, message: 'The service is not available right now.' },
  model_not_configured: { status: 503, rpc: -32053, message: 'This service needs a language model, and none is configured (LLM_BASE_URL, LLM_MODEL).' },
  engine_not_installed: { status: 503, rpc: -32053, message: 'This service needs an optional package that this installation does not include.' },
  integrity_error: { status: 500, rpc: -32603, message: 'Stored data failed its integrity check.' },
  internal_error: { status: 500, rpc: -32603, message: 'Internal error.' },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;

/** One item of a FastAPI-style validation body: `{loc, msg, type}`. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; [extra: string]: unknown };
  detail?: ValidationIssue[];
  [top: string]: unknown;
}

export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly rpcCode: number;
  /** Extra fields merged into the error body (e.g. `suggestion`, `current_version`). */
  readonly extra: Record<string, unknown>;
  /** Fields also put at the top of the body, where the spec tells clients to look (e.g. the 409's `suggestion`). */
  readonly top: Record<string, unknown>;
  /** Response headers the adapter should set (e.g. Retry-After, WWW-Authenticate). */
  readonly headers: Record<string, string>;
  readonly detail?: ValidationIssue[];
  /** An x402 PaymentRequired object: REST sends it as the 402 body, MCP as the tool result's payload. */
  readonly payment?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message?: string,
    opts: {
      extra?: Record<string, unknown>;
      top?: Record<string, unknown>;
      headers?: Record<string, string>;
      detail?: ValidationIssue[];
      payment?: Record<string, unknown>;
    } = {},
  ) {
    // Expected outcomes (401, 404, 422…) need no stack trace, and capturing one is the costliest part of
    // creating an Error on a busy path.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message ?? ERRORS[code].message);
    Error.stackTraceLimit = limit;
    this.name = 'GatewayError';
    this.code = code;
    this.status = ERRORS[code].status;
    this.rpcCode = ERRORS[code].rpc;
    this.extra = opts.extra ?? {};
    this.top = opts.top ?? {};
    this.headers = opts.headers ?? {};
    this.detail = opts.detail;
    this.payment = opts.payment;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { ...this.top, error: { code: this.code, message: this.message, ...this.extra } };
    if (this.detail) body.detail = this.detail;
    return body;
  }
}

export const fail = (code: ErrorCode, message?: string, extra?: Record<string, unknown>): never => {
  throw new GatewayError(code, message, { extra });
};

export function validationError(detail: ValidationIssue[]): GatewayError {
  const first = detail[0];
  const where = first ? `${first.loc.join('.')}: ${first.msg}` : 'invalid input';
  return new GatewayError('validation_error', `Validation failed (${where}).`, { detail });
}

/** Converts anything thrown into a GatewayError; unknown errors become internal_error without internals. */
export function toGatewayError(err: unknown): GatewayError {
  if (err instanceof GatewayError) return err;
  // The storage budget refuses in the database (migration 044): a 413 like the other quotas', whatever the write.
  const budget = storageBudgetRefusal(err);
  if (budget) return new GatewayError('payload_too_large', budget.message, { extra: budget.extra });
  return new GatewayError('internal_error');
}
