// A2A v1.0's HTTP+JSON binding (§11) beside JSON-RPC: resource URLs under /a2a (POST /a2a/message:send, GET
// /a2a/tasks/{id}, POST /a2a/tasks/{id}:cancel…) reaching the same v1.0 handlers as the JSON-RPC methods, with the
// same bodies (SendMessageRequest in, StreamResponse events out), errors as google.rpc.Status (rest-errors.ts)
// and streams whose `data:` is the StreamResponse itself. It speaks 1.0 only: v0.3 clients have JSON-RPC.
import { depthWithin, JsonTooDeepError } from '../json-depth.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import { a2aCaller } from './caller.js';
import { readBody } from '../http/read-body.js';
import { httpRequestIdOf } from '../http/request.js';
import type { Matched, Router } from '../http/router.js';
import { sendJsonText } from '../http/send.js';
import type { Logger } from '../log.js';
import type { Registry } from '../registry/registry.js';
import { isInternal, RPC, RpcError } from './jsonrpc.js';
import { STREAMED, type Handler, type MethodTables } from './methods.js';
import { restError } from './rest-errors.js';
import type { SseFraming } from './sse.js';
import { isV1, requestedVersion } from './version.js';

const A2A_JSON = 'application/a2a+json';
const BASE = '/a2a';

interface RestDeps {
  registry: Registry;
  config: Config;
  log: Logger;
  tables: MethodTables;
}

function sendRestError(res: ServerResponse, err: unknown): void {
  const { status, body, retryAfter } = restError(err);
  const headers: Record<string, string> | undefined = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : retryAfter ? { 'Retry-After': String(retryAfter) } : undefined;
  sendJsonText(res, status, JSON.stringify(body), headers, A2A_JSON);
}

const FRAMING: SseFraming = {
  event: (payload) => `data: ${JSON.stringify(payload)}\n\n`,
  error: (err) => `event: error\ndata: ${JSON.stringify(restError(err).body)}\n\n`,
  refuse: sendRestError,
};

/** A query value as the number it spells; anything else is passed on for the parameter check to name. */
const numberOf = (v: string | null): number | string | undefined => (v === null ? undefined : /^-?\d+$/.test(v) ? Number(v) : v);
const booleanOf = (v: string | null): boolean | string | undefined => (v === null ? undefined : v === 'true' ? true : v === 'false' ? false : v);
const textOf = (v: string | null): string | undefined => v ?? undefined;

/** `{id}:cancel` → ['{id}', 'cancel']; a bare id has no action. */
function taskAction(segment: string): [string, string | undefined] {
  const cut = segment.lastIndexOf(':');
  return cut < 0 ? [segment, undefined] : [segment.slice(0, cut), segment.slice(cut + 1)];
}

/** The JSON body of a POST: application/json or application/a2a+json (or none given); empty is `{}`. */
async function bodyOf(req: IncomingMessage, maxBytes: number, maxDepth: number): Promise<unknown> {
  const type = req.headers['content-type']?.split(';', 1)[0].trim().toLowerCase();
  if (type && type !== 'application/json' && type !== A2A_JSON) {
    throw new RpcError(RPC.CONTENT_TYPE_NOT_SUPPORTED, `Content-Type ${type} is not supported: send application/a2a+json or application/json.`);
  }
  const text = await readBody(req, maxBytes);
  if (text === null) throw new RpcError(RPC.INVALID_REQUEST, `Invalid request: the body is larger than ${maxBytes} bytes.`, { reason: 'body_too_large', limit: maxBytes });
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RpcError(RPC.PARSE_ERROR, 'The body is not valid JSON.');
  }
  if (depthWithin(body, maxDepth) === null) throw new RpcError(RPC.INVALID_PARAMS, new JsonTooDeepError(maxDepth).message);
  return body;
}

interface Request {
  req: IncomingMessage;
  params: Record<string, string>;
  query: URLSearchParams;
}

export function mountA2aRest(router: Router, d: RestDeps): void {
  const v1 = d.tables.v1;
  /** One route: the version check, the caller from the headers, the handler's params; answers JSON or streams. */
  const route = (method: string, path: string, pick: (r: Request) => Promise<[Handler, unknown]>) =>
    router.add(method, BASE + path, async (req: IncomingMessage, res: ServerResponse, m: Matched, rawQuery: string) => {
      try {
        const asked = requestedVersion(req, rawQuery);
        if (asked !== '' && !isV1(asked)) {
          throw new RpcError(RPC.VERSION_NOT_SUPPORTED, `A2A-Version ${asked} is not served over HTTP+JSON, which speaks 1.0: send 1.0, or use JSON-RPC at POST /a2a for 0.3.`);
        }
        const [handler, params] = await pick({ req, params: m.params, query: new URLSearchParams(rawQuery) });
        const caller = await a2aCaller(d.registry, req, d.config.trustProxy);
        const result = await handler({ id: null, params, caller, res, framing: FRAMING });
        if (result !== STREAMED) sendJsonText(res, 200, JSON.stringify(result), undefined, A2A_JSON);
      } catch (err) {
        if (isInternal(err)) d.log.error({ err, id: httpRequestIdOf(req) }, 'a2a request failed');
        if (res.headersSent) return void res.end();
        sendRestError(res, err);
      }
    });
  const body = (r: Request) => bodyOf(r.req, d.config.maxBodyBytes, d.config.maxJsonDepth);

  route('POST', '/message:send', async (r) => [v1.SendMessage, await body(r)]);
  route('POST', '/message:stream', async (r) => [v1.SendStreamingMessage, await body(r)]);
  route('GET', '/extendedAgentCard', async () => [v1.GetExtendedAgentCard, {}]);
  route('GET', '/tasks', async ({ query: q }) => [
    v1.ListTasks,
    {
      contextId: textOf(q.get('contextId')),
      status: textOf(q.get('status')),
      pageSize: numberOf(q.get('pageSize')),
      pageToken: textOf(q.get('pageToken')),
      historyLength: numberOf(q.get('historyLength')),
      statusTimestampAfter: textOf(q.get('statusTimestampAfter')),
      includeArtifacts: booleanOf(q.get('includeArtifacts')),
    },
  ]);
  // GET /tasks/{id}, GET or POST /tasks/{id}:subscribe (the SDKs send either), POST /tasks/{id}:cancel.
  const task = (allowed: (string | undefined)[]) => async (r: Request): Promise<[Handler, unknown]> => {
    const [id, action] = taskAction(r.params.task);
    if (!allowed.includes(action)) throw new RpcError(RPC.METHOD_NOT_FOUND, `No operation ${action === undefined ? 'here' : `:${action}`} on a task: GET /a2a/tasks/{id}, POST /a2a/tasks/{id}:cancel or :subscribe.`);
    if (action === 'subscribe') return [v1.SubscribeToTask, { id }];
    if (action === 'cancel') return [v1.CancelTask, { id }];
    return [v1.GetTask, { id, historyLength: numberOf(r.query.get('historyLength')) }];
  };
  route('GET', '/tasks/{task}', task([undefined, 'subscribe']));
  route('POST', '/tasks/{task}', task(['cancel', 'subscribe']));
  // Push notifications are not offered (the card says so): each operation answers PUSH_NOTIFICATION_NOT_SUPPORTED.
  route('POST', '/tasks/{task}/pushNotificationConfigs', async () => [v1.CreateTaskPushNotificationConfig, {}]);
  route('GET', '/tasks/{task}/pushNotificationConfigs', async () => [v1.ListTaskPushNotificationConfigs, {}]);
  route('GET', '/tasks/{task}/pushNotificationConfigs/{config}', async () => [v1.GetTaskPushNotificationConfig, {}]);
  route('DELETE', '/tasks/{task}/pushNotificationConfigs/{config}', async () => [v1.DeleteTaskPushNotificationConfig, {}]);
}
