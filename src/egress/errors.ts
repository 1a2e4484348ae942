// The single error type of the egress module. Messages name the host and the reason, never request headers,
// URL credentials or query strings, so they are safe to log and to return to agents.

export type EgressErrorCode =
  | 'bad_url'
  | 'scheme'
  | 'blocked_address'
  | 'dns'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'redirect_refused'
  | 'connect'
  | 'canceled';

export class EgressError extends Error {
  override name = 'EgressError';
  readonly code: EgressErrorCode;
  /** The refused address, for `blocked_address`. */
  readonly address?: string;
  /** For `too_large`: the body bytes downloaded before it was refused (0 when its Content-Length refused it). */
  readonly received?: number;

  constructor(code: EgressErrorCode, message: string, opts: { address?: string; received?: number } = {}) {
    super(message);
    this.code = code;
    if (opts.address !== undefined) this.address = opts.address;
    if (opts.received !== undefined) this.received = opts.received;
  }
}

export const isEgressError = (err: unknown): err is EgressError => err instanceof EgressError;

/** `scheme://host[:port]` of a URL, for messages: no credentials, path or query. */
export function describeOrigin(url: URL): string {
  return `${url.protocol}//${url.host}`;
}
