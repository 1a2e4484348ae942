// Egress failures as the gateway's errors: each browse failure gets a catalogue code and keeps the egress
// reason (`reason`) so an agent can tell a timeout from a refused address without parsing the message.
import { isEgressError } from '../../src/egress/index.js';
import { GatewayError, type ErrorCode } from '../../src/errors.js';

const CODES: Record<string, ErrorCode> = {
  bad_url: 'validation_error',
  scheme: 'validation_error',
  blocked_address: 'forbidden',
  dns: 'upstream_error',
  timeout: 'upstream_error',
  too_large: 'payload_too_large',
  too_many_redirects: 'upstream_error',
  connect: 'upstream_error',
  canceled: 'upstream_error',
};

export function browseError(err: unknown): GatewayError {
  if (err instanceof GatewayError) return err;
  if (isEgressError(err)) return new GatewayError(CODES[err.code] ?? 'upstream_error', err.message, { extra: { reason: err.code } });
  return new GatewayError('upstream_error', 'The page could not be fetched.', { extra: { reason: 'fetch_failed' } });
}
