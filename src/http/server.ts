// The HTTP front: one node:http server and one router. Route tables (rest/) are mounted by mount.ts;
// protocol and operations endpoints are raw handlers. Every response gets a request id and one log line.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { GatewayError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Registry } from '../registry/registry.js';
import type { Config } from '../config.js';
import { mountRoutes } from './mount.js';
import { GatewayRequest } from './request.js';
import { GatewayResponse } from './response.js';
import { secretInQuery } from './query-secrets.js';
import type { Route } from './route.js';
import { Router } from './router.js';
import { sendError } from './send.js';
import { tracing } from '../tracing/state.js';

export interface HttpDeps {
  config: Config;
  log: Logger;
  registry: Registry;
  routes: Route[];
  /** Adds protocol and operations handlers (MCP, health, metrics…) to the router. */
  extend(router: Router): void;
}

let counter = 0;
const idBase = `${process.pid.toString(36)}-${Date.now().toString(36)}`;
const requestId = (req: http.IncomingMessage): string => {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,64}$/.test(given) ? given : `${idBase}-${(++counter).toString(36)}`;
};

export function buildRouter(deps: HttpDeps): Router {
  const router = new Router();
  deps.extend(router);
  mountRoutes(router, deps.routes, deps.registry, { trustProxy: deps.config.trustProxy, maxBodyBytes: deps.config.maxBodyBytes, maxJsonDepth: deps.config.maxJsonDepth });
  return router;
}

export function createHttpServer(deps: HttpDeps): http.Server {
  const router = buildRouter(deps);
  const { log } = deps;
  return http.createServer({ keepAliveTimeout: 65_000, IncomingMessage: GatewayRequest, ServerResponse: GatewayResponse }, (req, res) => {
    const r = res as GatewayResponse;
    r.started = performance.now();
    const id = requestId(req);
    (req as GatewayRequest).requestId = id;
    r.log = log;
    // The request's server span, continuing its traceparent, while tracing is on (docs/decisions/tracing.md).
    const span = tracing === null ? undefined : tracing.httpRequest(req, res, id);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const rawQuery = q === -1 ? '' : url.slice(q + 1);
    const leaked = secretInQuery(rawQuery);
    if (leaked) {
      sendError(res, new GatewayError('secret_in_url', `Credentials must not travel in the URL (query parameter "${leaked}"); send them in a header.`));
      return;
    }
    const found = router.lookup(req.method ?? 'GET', path);
    if (found.kind === 'not_found') {
      sendError(res, new GatewayError('not_found', `No route for ${req.method} ${path.length > 200 ? `${path.slice(0, 200)}…` : path}.`));
      return;
    }
    if (found.kind === 'method_not_allowed') {
      sendError(res, new GatewayError('method_not_allowed', `Allowed: ${found.allow.join(', ')}.`, { headers: { Allow: found.allow.join(', ') } }));
      return;
    }
    const template = found.matched.template;
    r.route = template;
    const serve = () =>
      Promise.resolve(found.handler(req, res, found.matched, rawQuery)).catch((err) => {
        log.error({ err, id }, 'unhandled request error');
        sendError(res, err);
      });
    if (span === undefined) serve();
    else {
      span.route(template);
      span.run(serve);
    }
  });
}
