// Gateway errors in OpenAI's error format ({"error": {message, type, param, code}}), so OpenAI clients raise
// their usual typed errors. Validation failures are 400 invalid_request_error there, not 422.
import type { GatewayError } from '../errors.js';
import type { OpenAiErrorObject } from '../llm/upstream-errors.js';

export interface OpenAiErrorResponse {
  status: number;
  body: { error: { message: string; type: string; param: string | null; code: string | null } };
  headers: Record<string, string>;
}

const paramOf = (ge: GatewayError): string | null => {
  const loc = ge.detail?.[0]?.loc.filter((p) => p !== 'body');
  return loc && loc.length ? loc.map((p) => (typeof p === 'number' ? `[${p}]` : p)).join('.').replace(/\.\[/g, '[') : null;
};

export function toOpenAiError(ge: GatewayError): OpenAiErrorResponse {
  const headers = ge.headers;
  const make = (status: number, type: string, code: string | null, param: string | null = null, message = ge.message): OpenAiErrorResponse => ({
    status,
    body: { error: { message, type, param, code } },
    headers,
  });
  const upstream = ge.extra.openai as OpenAiErrorObject | undefined;
  if (upstream) return make(ge.status, upstream.type ?? 'invalid_request_error', upstream.code ?? null, upstream.param ?? null, upstream.message);
  switch (ge.code) {
    case 'validation_error':
    case 'bad_request':
    case 'secret_in_body':
      return make(400, 'invalid_request_error', null, paramOf(ge));
    case 'not_found':
      return ge.extra.model !== undefined ? make(404, 'invalid_request_error', 'model_not_found', 'model') : make(404, 'invalid_request_error', 'not_found');
    case 'payload_too_large':
    case 'unsupported_media_type':
      return make(ge.status, 'invalid_request_error', ge.code);
    case 'unauthorized':
      return make(401, 'invalid_request_error', 'invalid_api_key');
    case 'forbidden':
      return make(403, 'permission_error', 'forbidden');
    case 'rate_limited':
      return make(429, 'requests', 'rate_limit_exceeded');
    case 'payment_required':
      // OpenAI's own word for an account that cannot pay (its clients raise it as a 402 APIError).
      return make(402, 'insufficient_quota', 'insufficient_quota');
    case 'model_not_configured':
      return make(503, 'server_error', ge.code);
    case 'upstream_error':
      return ge.extra.timeout ? make(504, 'api_error', 'upstream_timeout') : make(502, 'api_error', 'upstream_error');
    default:
      return make(ge.status >= 500 ? ge.status : 500, 'server_error', ge.code === 'internal_error' ? null : ge.code);
  }
}
