// The one adapter that mounts rest/ route tables on the router: build the tool input from the request,
// call the registry, send the result. No capability logic here.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatewayError, validationError } from '../errors.js';
import type { Registry } from '../registry/registry.js';
import type { Upload } from '../registry/types.js';
import { coerceQuery } from './coerce-query.js';
import { credentialsOf } from './credentials.js';
import { readBody, readContent } from './read-body.js';
import type { RequestParts, Route } from './route.js';
import { isPlainObject } from '../plain-object.js';
import { depthWithin, JsonTooDeepError } from '../json-depth.js';
import { readAliases, withoutUnknownQueryFields } from './query-fields.js';
import { parseQuery, type Router } from './router.js';
import { contentJson, isContentResult } from '../registry/content-result.js';
import { isFileResult, sendError, sendHtml, sendJson } from './send.js';
import { sendFile } from './send-file.js';

export interface MountOptions {
  trustProxy: number;
  maxBodyBytes: number;
  maxJsonDepth: number;
}

const isJsonType = (ct: string | undefined): boolean => {
  const t = (ct ?? '').split(';')[0].trim().toLowerCase();
  return t === 'application/json' || (t.startsWith('application/') && t.endsWith('+json'));
};

const hasBody = (req: IncomingMessage) => req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
const tooLarge = (maxBytes: number) => new GatewayError('payload_too_large', `The request body is larger than ${maxBytes} bytes.`);

/** The JSON body, or undefined when there is none. 413 over the cap, 415 for another type, 422 if malformed or nested too deep. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number, maxDepth: number): Promise<unknown> {
  if (!hasBody(req)) return undefined;
  const text = await readBody(req, maxBytes);
  if (text === null) throw tooLarge(maxBytes);
  if (text.trim() === '') return undefined;
  if (!isJsonType(req.headers['content-type'])) throw new GatewayError('unsupported_media_type');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw validationError([{ loc: ['body'], msg: 'The body is not valid JSON.', type: 'json_invalid' }]);
  }
  if (depthWithin(body, maxDepth) === null) throw validationError([{ loc: ['body'], msg: new JsonTooDeepError(maxDepth).message, type: 'json_too_deep' }]);
  return body;
}

const bodyNotObject = () =>
  new GatewayError('validation_error', 'The body must be a JSON object.', {
    detail: [{ loc: ['body'], msg: 'The body must be a JSON object.', type: 'model_attributes_type' }],
  });

function buildInput(r: Route, parts: RequestParts): unknown {
  if (typeof r.input === 'function') return r.input(parts);
  const body = parts.body;
  if (body !== undefined && !isPlainObject(body)) throw bodyNotObject();
  // A tool named by the path gets only its own input, not the parameter that named it.
  const path = typeof r.tool === 'string' ? parts.path : {};
  if (r.input === 'body') return { ...(body ?? {}), ...path };
  return { ...parts.query, ...(body ?? {}), ...path };
}

/** Prefixes validation locations with where the field came from (FastAPI style: path, query, body). */
function locate(err: GatewayError, r: Route, parts: RequestParts): GatewayError {
  if (err.code !== 'validation_error' || !err.detail) return err;
  const readsBody = r.method !== 'GET' && r.method !== 'DELETE';
  for (const d of err.detail) {
    if (d.loc[0] === 'body' || d.loc[0] === 'query' || d.loc[0] === 'path') continue;
    const field = String(d.loc[0] ?? '');
    // A field sent in the body is the body's even when the query has it too (the body wins the merge).
    const where = field in parts.path ? 'path' : isPlainObject(parts.body) && field in parts.body ? 'body' : field in parts.query || !readsBody ? 'query' : 'body';
    d.loc.unshift(where);
  }
  return err;
}

/** A non-JSON body of a route that takes uploads: its bytes and type. Undefined for JSON or no body. */
async function readUpload(r: Route, req: IncomingMessage, maxBytes: number): Promise<Upload | undefined> {
  const contentType = req.headers['content-type'];
  if (!r.upload || !hasBody(req) || contentType === undefined || isJsonType(contentType)) return undefined;
  // A form upload would store its multipart envelope, not the file: say how to send it instead.
  if (/^multipart\//i.test(contentType.trim())) {
    req.resume();
    throw new GatewayError('unsupported_media_type', 'Multipart forms are not taken: send the file itself as the body (curl --data-binary @file) or JSON with base64.');
  }
  const content = await readContent(req, maxBytes);
  if (content === null) throw tooLarge(maxBytes);
  return { content, contentType };
}

/** The tool a request names: fixed, or from a path parameter when the route admits it. */
function toolName(r: Route, parts: RequestParts, registry: Registry): string {
  if (typeof r.tool === 'string') return r.tool;
  const name = parts.path[r.tool.param];
  const tool = registry.get(name);
  if (!tool || !r.tool.admits(tool)) throw new GatewayError('not_found', `No tool named "${name}" here.`);
  return name;
}

/** True when the client ranks text/html above JSON (browsers do; API clients and curl do not). */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = accept.indexOf('text/html');
  if (html === -1) return false;
  const json = accept.indexOf('application/json');
  return json === -1 || html < json;
}

export function mountRoutes(router: Router, routes: Route[], registry: Registry, opts: MountOptions): void {
  for (const r of routes) {
    if (typeof r.tool === 'string' && !registry.get(r.tool)) throw new Error(`route ${r.method} ${r.path} names unknown tool ${r.tool}`);
    const status = r.status ?? 200;
    const readsBody = r.method !== 'GET';
    router.add(r.method, r.path, async (req: IncomingMessage, res: ServerResponse, m, rawQuery) => {
      const parts: RequestParts = { path: m.params, query: parseQuery(rawQuery), body: undefined, headers: req.headers };
      try {
        const upload = readsBody ? await readUpload(r, req, opts.maxBodyBytes) : undefined;
        if (readsBody && !upload) parts.body = await readJsonBody(req, opts.maxBodyBytes, opts.maxJsonDepth);
        const name = toolName(r, parts, registry);
        const tool = registry.get(name)!;
        parts.query = coerceQuery(readAliases(parts.query, r.queryAliases), tool.inputJsonSchema);
        const input = withoutUnknownQueryFields(buildInput(r, parts), parts, tool);
        const out = await registry.call(name, input, credentialsOf(req, 'rest', opts.trustProxy), { upload });
        const ok = r.statusOf?.(out.result) ?? status;
        if (isFileResult(out.result)) sendFile(res, out.result, out.meta.headers, req.headers);
        // Images, audio and embedded resources as JSON: the blocks with their bytes in base64, beside the data.
        else if (isContentResult(out.result)) sendJson(res, ok, contentJson(out.result), out.meta.headers);
        else if (r.html && prefersHtml(req.headers.accept)) sendHtml(res, ok, r.html(out.result), out.meta.headers);
        else sendJson(res, ok, out.result, out.meta.headers);
      } catch (err) {
        sendError(res, err instanceof GatewayError ? locate(err, r, parts) : err);
      }
    });
  }
}
