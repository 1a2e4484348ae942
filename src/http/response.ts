// The gateway server's response: every response carries its request id (X-Request-Id), added just before its
// head goes out, whichever path sends it (writeHead, or the head that write or end imply). sendJson builds its
// head in one writeHead call with the id in it; setting the id up front with setHeader made every response merge
// its headers one by one (docs/decisions/request-budget.md).
import http from 'node:http';

export class GatewayResponse<Request extends http.IncomingMessage = http.IncomingMessage> extends http.ServerResponse<Request> {
  /** This response's id, sent as X-Request-Id. */
  requestId = '';
  /** Set by a sender whose head already names the id. */
  idInHead = false;
}

const writeHead = http.ServerResponse.prototype.writeHead;

GatewayResponse.prototype.writeHead = function (this: GatewayResponse, ...args: unknown[]) {
  if (!this.idInHead && !this.headersSent) this.setHeader('X-Request-Id', this.requestId);
  return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args);
} as typeof GatewayResponse.prototype.writeHead;
