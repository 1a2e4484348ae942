// The gateway server's request: it carries the id its response is sent with (X-Request-Id), so that credentials
// built from it, and any log line about the work it asked for, can name the request an operator sees in the
// access line.
import http from 'node:http';

export class GatewayRequest extends http.IncomingMessage {
  /** Set by the server before any handler runs; '' on a request that did not come through it. */
  requestId = '';
}

/** The request's id, or undefined for a request the gateway's server did not receive (a test's bare request). */
export const httpRequestIdOf = (req: http.IncomingMessage): string | undefined => (req instanceof GatewayRequest && req.requestId !== '' ? req.requestId : undefined);
