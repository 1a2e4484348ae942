// GET /openapi.json: OpenAPI 3.1.0 generated from the route tables and the registry's zod schemas.
import type { PaymentSettings } from '../billing/challenge.js';
import { paymentInfo } from '../billing/x402/discovery.js';
import type { Registry } from '../registry/registry.js';
import type { Tool } from '../registry/types.js';
import type { Route } from './route.js';
import { hoistDefs } from './openapi-defs.js';

type Json = Record<string, unknown>;

/** Endpoints served by src/http itself (protocols and operations), documented beside the tool routes. */
/** Paths served outside the route tables (documented by hand). */
export type InfraPath = { method: string; path: string; summary: string; tag: string };

const INFRA: InfraPath[] = [
  { method: 'get', path: '/healthz', summary: 'Liveness', tag: 'operations' },
  { method: 'get', path: '/readyz', summary: 'Readiness (database reachable)', tag: 'operations' },
  { method: 'get', path: '/metrics', summary: 'Prometheus metrics', tag: 'operations' },
  { method: 'get', path: '/openapi.json', summary: 'This document', tag: 'operations' },
  { method: 'post', path: '/mcp', summary: 'MCP Streamable HTTP (JSON-RPC 2.0)', tag: 'protocols' },
  { method: 'get', path: '/mcp', summary: 'MCP Streamable HTTP: server-to-client SSE stream', tag: 'protocols' },
  { method: 'delete', path: '/mcp', summary: 'MCP Streamable HTTP: end the session', tag: 'protocols' },
  { method: 'get', path: '/mcp/sse', summary: 'MCP legacy SSE transport', tag: 'protocols' },
  { method: 'post', path: '/mcp/messages', summary: 'MCP legacy SSE transport: client messages', tag: 'protocols' },
  { method: 'post', path: '/a2a', summary: 'A2A JSON-RPC 2.0 (v0.3; v1.0 with the header A2A-Version: 1.0)', tag: 'protocols' },
  { method: 'post', path: '/a2a/message:send', summary: 'A2A v1.0 HTTP+JSON: send a message (SendMessageRequest → {task})', tag: 'protocols' },
  { method: 'post', path: '/a2a/message:stream', summary: 'A2A v1.0 HTTP+JSON: send a message and stream the task (SSE of StreamResponse)', tag: 'protocols' },
  { method: 'get', path: '/a2a/tasks', summary: "A2A v1.0 HTTP+JSON: the caller's tasks (ListTasks)", tag: 'protocols' },
  { method: 'get', path: '/a2a/tasks/{id}', summary: 'A2A v1.0 HTTP+JSON: a task (GetTask); {id}:subscribe streams it', tag: 'protocols' },
  { method: 'post', path: '/a2a/tasks/{id}', summary: 'A2A v1.0 HTTP+JSON: {id}:cancel (CancelTask) or {id}:subscribe (SubscribeToTask)', tag: 'protocols' },
  { method: 'get', path: '/a2a/extendedAgentCard', summary: 'A2A v1.0 HTTP+JSON: the extended agent card (credentials needed)', tag: 'protocols' },
  { method: 'get', path: '/.well-known/agent-card.json', summary: 'A2A agent card', tag: 'protocols' },
  { method: 'post', path: '/v1/chat/completions', summary: 'OpenAI-compatible chat completions (JSON or SSE stream)', tag: 'protocols' },
];

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** The headers a payable operation takes: an API key, or an x402 payment (v2, or the legacy v1 header). */
const PAYMENT_HEADERS: Json[] = [
  { name: 'X-API-Key', in: 'header', required: false, schema: { type: 'string' }, description: 'API key (free keys: POST /keys/issue); a valid key with quota left pays.' },
  { name: 'PAYMENT-SIGNATURE', in: 'header', required: false, schema: { type: 'string' }, description: 'x402 v2 payment payload (base64 JSON) answering the 402 challenge.' },
  { name: 'X-PAYMENT', in: 'header', required: false, deprecated: true, schema: { type: 'string' }, description: 'Legacy x402 v1 payment payload (base64 JSON).' },
];

/** Paid tools, and routes that can be paid although their tool is free to call (a batch of paid calls). */
const payable = (route: Route, tool: Tool): boolean => tool.auth === 'paid' || route.payable === true;

function security(route: Route, tool: Tool): Json[] | undefined {
  // A batch of free calls needs no credential at all.
  if (tool.auth !== 'paid' && route.payable) return [{ apiKey: [] }, { x402: [] }, { bearerAuth: [] }, {}];
  switch (tool.auth) {
    case 'owner':
      return [{ bearerAuth: [] }];
    case 'optional_owner':
      return [{ bearerAuth: [] }, {}];
    case 'paid':
      return [{ apiKey: [] }, { x402: [] }, { bearerAuth: [] }];
    case 'account':
      return [{ revenueKey: [] }, { revenueBearer: [] }];
    default:
      return undefined;
  }
}

function responses(route: Route, tool: Tool): Json {
  const ok = String(route.status ?? 200);
  const content: Json = { 'application/json': { schema: { type: 'object' } } };
  if (route.html) content['text/html'] = { schema: { type: 'string' } };
  const out: Json = {
    [ok]: { description: 'Success', content },
    // A route whose status depends on the result also answers 200 (the operation's description says when).
    ...(route.statusOf && ok !== '200' ? { '200': { description: 'Success (see the description)', content } } : {}),
    '404': { description: 'Not found', content: { 'application/json': { schema: ERROR_REF } } },
    '422': { description: 'Validation error', content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationError' } } } },
  };
  if (tool.auth === 'owner' || tool.auth === 'optional_owner' || tool.auth === 'account' || tool.selfField) {
    out['401'] = { description: 'Missing credentials', content: { 'application/json': { schema: ERROR_REF } } };
    out['403'] = { description: 'Wrong credentials or another handle', content: { 'application/json': { schema: ERROR_REF } } };
  }
  if (payable(route, tool)) out['402'] = { description: 'Payment required (x402 v2 challenge)' };
  return out;
}

function operation(route: Route, tool: Tool, operationId: string, input: Json, payments?: PaymentSettings): Json {
  const schema = input as { properties?: Record<string, Json>; required?: string[]; additionalProperties?: unknown };
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const parameters: Json[] = pathNames.map((name) => ({ name, in: 'path', required: true, schema: props[name] ?? { type: 'string' } }));
  const rest = Object.entries(props).filter(([name]) => !pathNames.includes(name));
  const op: Json = {
    operationId,
    summary: route.summary ?? tool.title ?? tool.name,
    description: tool.description,
    tags: [tool.toolset],
    'x-mcp-tool': tool.expose.mcp ? tool.name : undefined,
    parameters,
    responses: responses(route, tool),
  };
  if (route.method === 'GET' || route.method === 'DELETE') {
    // A field the spec names differently is documented under the spec's name; the field's own name stays an alias.
    const aliasOf = new Map(Object.entries(route.queryAliases ?? {}).map(([alias, field]) => [field, alias]));
    for (const [name, s] of rest) {
      const alias = aliasOf.get(name);
      if (!alias) {
        parameters.push({ name, in: 'query', required: required.has(name), schema: s });
        continue;
      }
      parameters.push({ name: alias, in: 'query', required: required.has(name), schema: s });
      parameters.push({ name, in: 'query', required: false, deprecated: true, description: `Same as ${alias} (${alias} wins when both are sent).`, schema: s });
    }
  } else if (rest.length > 0 || typeof route.input === 'function') {
    const bodyRequired = rest.filter(([n]) => required.has(n)).map(([n]) => n);
    // Unknown body fields answer 422 wherever the tool declares its fields.
    const closed = schema.additionalProperties === false ? { additionalProperties: false } : {};
    op.requestBody = {
      required: bodyRequired.length > 0,
      content: {
        'application/json': {
          schema: { type: 'object', properties: Object.fromEntries(rest), ...(bodyRequired.length ? { required: bodyRequired } : {}), ...closed },
        },
        // An upload route also takes the bytes themselves (any other type); its other fields then go in the query.
        ...(route.upload ? { '*/*': { schema: { type: 'string', format: 'binary' } } } : {}),
      },
    };
  }
  if (payable(route, tool)) parameters.push(...PAYMENT_HEADERS);
  const sec = security(route, tool);
  if (sec) op.security = sec;
  if (tool.price) op['x-price'] = { usd: tool.price.usd };
  if (tool.price && payments) op['x-payment-info'] = paymentInfo(tool, payments);
  return op;
}

/** The document's title and description: the gateway's, or another listener's (the commercial API). */
export interface OpenApiInfo {
  title: string;
  description: string;
  /** Its paths outside the route tables (default: the gateway's). */
  infra?: InfraPath[];
}

const GATEWAY_INFO: OpenApiInfo = {
  title: 'Agent Gateway',
  description: 'A persistent home for stateless AI agents. Every operation is also an MCP tool (x-mcp-tool).',
};

export function buildOpenApi(routes: Route[], registry: Registry, baseUrl: string, version: string, info: OpenApiInfo = GATEWAY_INFO): Json {
  const paths: Record<string, Json> = {};
  const used = new Map<string, number>();
  /** The definitions that tools' input schemas refer to (openapi-defs.ts). */
  const defs: Record<string, Json> = {};
  const add = (r: Route, path: string, tool: Tool) => {
    const n = (used.get(tool.name) ?? 0) + 1;
    used.set(tool.name, n);
    const id = n === 1 ? tool.name : `${tool.name}_${n}`;
    const input = hoistDefs(tool.inputJsonSchema as Json, tool.name, defs);
    (paths[path] ??= {})[r.method.toLowerCase()] = operation({ ...r, path }, tool, id, input, registry.services.payments);
  };
  for (const r of routes) {
    if (r.hidden) continue;
    if (typeof r.tool === 'string') {
      const tool = registry.get(r.tool);
      if (tool) add(r, r.path, tool);
      continue;
    }
    // A route naming its tool by path parameter is documented once per tool it admits.
    const dyn = r.tool;
    for (const tool of registry.list().filter(dyn.admits)) add({ ...r, input: 'body' }, r.path.replace(`{${dyn.param}}`, tool.name), tool);
  }
  for (const i of info.infra ?? INFRA) {
    (paths[i.path] ??= {})[i.method] = {
      operationId: `${i.method}_${i.path.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '')}`,
      summary: i.summary,
      tags: [i.tag],
      ...(i.path.includes('{') ? { parameters: [...i.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })) } : {}),
      responses: { '200': { description: 'Success' } },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version, description: info.description },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The agent secret returned once at registration.' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        x402: { type: 'apiKey', in: 'header', name: 'PAYMENT-SIGNATURE', description: 'x402 v2 payment payload (base64 JSON).' },
        revenueKey: { type: 'apiKey', in: 'header', name: 'X-Revenue-Key', description: 'The commercial API key from POST /signup.' },
        revenueBearer: { type: 'http', scheme: 'bearer', description: 'The revenue key as a Bearer token (commercial API).' },
      },
      schemas: {
        ...defs,
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: { code: { type: 'string' }, message: { type: 'string' } },
            },
          },
        },
        ValidationError: {
          type: 'object',
          required: ['detail'],
          properties: {
            detail: {
              type: 'array',
              items: {
                type: 'object',
                required: ['loc', 'msg', 'type'],
                properties: {
                  loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
                  msg: { type: 'string' },
                  type: { type: 'string' },
                },
              },
            },
            error: ERROR_REF,
          },
        },
      },
    },
  };
}
