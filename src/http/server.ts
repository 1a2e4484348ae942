// The HTTP front: one node:http server. MCP transports are answered straight from node (no framework in
// their hot path); everything else goes to the express app that mounts the rest/ route tables.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { GatewayError } from '../errors.js';
import type { Logger } from '../log.js';
import { mountRoutes } from './mount.js';
import { OriginGuard } from './origin-guard.js';
import { secretInQuery } from './query-secrets.js';
import type { Route } from './route.js';
import { sendError, sendJson } from './send.js';
import type { Config } from '../config.js';
import type { Registry } from '../registry/registry.js';

export interface McpHandlers {
  streamable(req: http.IncomingMessage, res: http.ServerResponse, toolsets: string[]): Promise<void>;
  sseOpen(res: http.ServerResponse, toolsets: string[]): Promise<void>;
  sseMessage(req: http.IncomingMessage, res: http.ServerResponse, sessionId: string | null): Promise<void>;
}

export interface HttpDeps {
  config: Config;
  log: Logger;
  registry: Registry;
  routes: Route[];
  mcp: McpHandlers;
  /** Extra framework-level routes (operations pages) mounted before the route tables. */
  extend(app: Express): void;
}

let counter = 0;
const idBase = `${process.pid.toString(36)}-${Date.now().toString(36)}`;
const requestId = (req: http.IncomingMessage): string => {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,64}$/.test(given) ? given : `${idBase}-${(++counter).toString(36)}`;
};

const toolsetsOf = (query: URLSearchParams): string[] =>
  (query.get('toolsets') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function buildExpressApp(deps: HttpDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', deps.config.trustProxy);
  app.use(express.json({ limit: deps.config.maxBodyBytes, strict: false, type: ['application/json', 'application/*+json'] }));
  deps.extend(app);
  mountRoutes(app, deps.routes, deps.registry, { trustProxy: deps.config.trustProxy });
  app.use((req: Request, res: Response) => {
    sendError(res, new GatewayError('not_found', `No route for ${req.method} ${req.path}.`));
  });
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const ge = sendError(res, err);
    res.locals.errorCode = ge.code;
  });
  return app;
}

export function createHttpServer(deps: HttpDeps, guard: OriginGuard): http.Server {
  const app = buildExpressApp(deps);
  const { log } = deps;
  const server = http.createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    const started = performance.now();
    const id = requestId(req);
    res.setHeader('X-Request-Id', id);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const rawQuery = q === -1 ? '' : url.slice(q + 1);
    res.on('finish', () => {
      // The route template, never the raw URL: paths may hold capability tokens and queries are not logged.
      const r = req as http.IncomingMessage & { route?: { path?: string } };
      const route = (res as http.ServerResponse & { locals?: { route?: string } }).locals?.route ?? r.route?.path ?? (path.startsWith('/mcp') ? path : undefined);
      log.info({ id, method: req.method, route: route ?? '(unmatched)', status: res.statusCode, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
    });
    const leaked = secretInQuery(rawQuery);
    if (leaked) {
      sendError(res, new GatewayError('secret_in_url', `Credentials must not travel in the URL (query parameter "${leaked}"); send them in a header.`));
      return;
    }
    if (path === '/mcp' || path === '/mcp/sse' || path === '/mcp/messages') {
      const refused = guard.check(req);
      if (refused) {
        sendJson(res, 403, { jsonrpc: '2.0', error: { code: -32000, message: refused }, id: null });
        return;
      }
      const query = new URLSearchParams(rawQuery);
      const done = (p: Promise<void>) => p.catch((err) => {
        log.error({ err, id }, 'mcp transport error');
        if (!res.headersSent) sendJson(res, 500, { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null });
        else res.destroy();
      });
      if (path === '/mcp') return void done(deps.mcp.streamable(req, res, toolsetsOf(query)));
      if (path === '/mcp/sse' && req.method === 'GET') return void done(deps.mcp.sseOpen(res, toolsetsOf(query)));
      if (path === '/mcp/messages' && req.method === 'POST') return void done(deps.mcp.sseMessage(req, res, query.get('sessionId')));
      sendError(res, new GatewayError('method_not_allowed'));
      return;
    }
    app(req, res);
  });
  return server;
}
