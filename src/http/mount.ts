// The one adapter that mounts rest/ route tables on express: build the tool input from the request,
// call the registry, send the result. No capability logic here.
import type { Express, Request, Response } from 'express';
import { GatewayError } from '../errors.js';
import type { Registry } from '../registry/registry.js';
import { credentialsOf } from './credentials.js';
import type { RequestParts, Route } from './route.js';
import { isFileResult, sendError, sendFile, sendJson } from './send.js';

export interface MountOptions {
  trustProxy: boolean;
}

/** Static segments before parameters, so `/agents/templates` wins over `/agents/{handle}`. */
export function sortRoutes(routes: Route[]): Route[] {
  const key = (r: Route) => r.path.split('/').map((s) => (s.startsWith('{') ? '1' : '0')).join('');
  return [...routes].sort((a, b) => key(a).localeCompare(key(b)));
}

export const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function buildInput(r: Route, parts: RequestParts): unknown {
  if (typeof r.input === 'function') return r.input(parts);
  const body = parts.body;
  if (r.input === 'body') {
    if (body !== undefined && !isPlainObject(body)) throw bodyNotObject();
    return { ...(body ?? {}), ...parts.path };
  }
  if (body !== undefined && !isPlainObject(body)) throw bodyNotObject();
  return { ...parts.query, ...(body ?? {}), ...parts.path };
}

const bodyNotObject = () =>
  new GatewayError('validation_error', 'The body must be a JSON object.', {
    detail: [{ loc: ['body'], msg: 'The body must be a JSON object.', type: 'model_attributes_type' }],
  });

/** Prefixes validation locations with where the field came from (FastAPI style: path, query, body). */
function locate(err: GatewayError, r: Route, parts: RequestParts): GatewayError {
  if (err.code !== 'validation_error' || !err.detail) return err;
  const readsBody = r.method !== 'GET' && r.method !== 'DELETE';
  for (const d of err.detail) {
    if (d.loc[0] === 'body' || d.loc[0] === 'query' || d.loc[0] === 'path') continue;
    const field = String(d.loc[0] ?? '');
    const where = field in parts.path ? 'path' : field in parts.query || !readsBody ? 'query' : 'body';
    d.loc.unshift(where);
  }
  return err;
}

export function mountRoutes(app: Express, routes: Route[], registry: Registry, opts: MountOptions): void {
  for (const r of sortRoutes(routes)) {
    if (!registry.get(r.tool)) throw new Error(`route ${r.method} ${r.path} names unknown tool ${r.tool}`);
    const status = r.status ?? 200;
    const handler = async (req: Request, res: Response) => {
      res.locals.route = r.path;
      const parts: RequestParts = {
        path: req.params as Record<string, string>,
        query: req.query as Record<string, unknown>,
        body: req.body,
        headers: req.headers,
      };
      try {
        const input = buildInput(r, parts);
        const out = await registry.call(r.tool, input, credentialsOf(req, 'rest', opts.trustProxy));
        if (isFileResult(out.result)) sendFile(res, out.result, out.meta.headers);
        else sendJson(res, status, out.result, out.meta.headers);
      } catch (err) {
        const ge = sendError(res, err instanceof GatewayError ? locate(err, r, parts) : err);
        res.locals.errorCode = ge.code;
      }
    };
    const path = expressPath(r.path);
    switch (r.method) {
      case 'GET':
        app.get(path, handler);
        break;
      case 'POST':
        app.post(path, handler);
        break;
      case 'PUT':
        app.put(path, handler);
        break;
      case 'DELETE':
        app.delete(path, handler);
        break;
      case 'PATCH':
        app.patch(path, handler);
        break;
    }
  }
}
