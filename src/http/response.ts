// The gateway server's response. Every response carries its request id (X-Request-Id) and gets one access line,
// whichever path sends it: both are added when its head is written (writeHead, or the head that write or end
// imply), the line when it finishes. sendJson writes a whole response at once, so it puts the id in its one-call
// head and writes the line itself. Setting the id up front with setHeader made every response merge its headers
// one by one, and a 'finish' listener per request cost more than the line (docs/decisions/request-budget.md).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { writeAccessLine, type Logger } from '../log.js';
import type { GatewayRequest } from './request.js';

export class GatewayResponse<Request extends http.IncomingMessage = http.IncomingMessage> extends http.ServerResponse<Request> {
  /** This response's id, sent as X-Request-Id: its request's (the server sets it there before any handler runs). */
  get requestId(): string {
    return (this.req as unknown as GatewayRequest).requestId;
  }
  /** Set by a sender that writes the whole response at once: its head names the id, and it writes the access line. */
  sentWhole = false;
  /** For the access line: when the request came (performance.now()), the route template it matched, the logger. */
  started = 0;
  route = '(unmatched)';
  log: Logger | null = null;

  /** The access line: the route template, never the raw URL (paths may hold capability tokens; queries are not logged). */
  logAccess(): void {
    if (this.log) writeAccessLine(this.log, this.requestId, this.req.method ?? 'GET', this.route, this.statusCode, Math.round((performance.now() - this.started) * 10) / 10);
  }
}

/** A listener that needs no closure: EventEmitter calls it with the response as `this`. */
function logOnFinish(this: GatewayResponse): void {
  this.logAccess();
}

const writeHead = http.ServerResponse.prototype.writeHead;

GatewayResponse.prototype.writeHead = function (this: GatewayResponse, ...args: unknown[]) {
  if (!this.sentWhole && !this.headersSent) {
    this.setHeader('X-Request-Id', this.requestId);
    this.on('finish', logOnFinish);
  }
  return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args);
} as typeof GatewayResponse.prototype.writeHead;
