// Builds an MCP server from the registry for one connection (stdio process, HTTP session or SSE stream).
// The low-level Server is used rather than McpServer: tools/list is served from precomputed pages (toolset
// filter + cursor) and every call goes through registry.call, so the registry stays the one source of truth.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { GatewayError } from '../errors.js';
import type { Registry } from '../registry/registry.js';
import type { Credentials, Tool } from '../registry/types.js';
import type { PromptDef } from '../registry/prompt-defs.js';
import type { ResourceDef, ResourceListerDef, ResourceTemplateDef } from '../registry/resource-defs.js';
import { matchTemplate } from './uri-template.js';

export const SERVER_NAME = 'agent-gateway';
export const SERVER_VERSION = '1.6.0';

export interface McpCatalog {
  registry: Registry;
  resources: ResourceDef[];
  resourceListers: ResourceListerDef[];
  resourceTemplates: ResourceTemplateDef[];
  prompts: PromptDef[];
  pageSize: number;
}

export interface McpConnectionOptions {
  /** Toolsets this connection sees; empty = all. */
  toolsets: string[];
  /** Credentials for a message: from the HTTP request (authInfo.extra) or fixed for stdio. */
  credentials(extra: { authInfo?: { extra?: Record<string, unknown> } }): Credentials;
}

const INSTRUCTIONS =
  'Agent Gateway: a persistent home for stateless agents. Register with agent_register (the secret is shown ' +
  'once), then send it as Authorization: Bearer on owner tools. Call gateway_info for an overview.';

function toMcpTool(t: Tool): McpTool {
  return {
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    description: t.price ? `${t.description} Price: $${t.price.usd} per call.` : t.description,
    inputSchema: t.inputJsonSchema as McpTool['inputSchema'],
    annotations: t.annotations,
  };
}

/** Tool pages per toolset filter, computed once per filter. */
const pageCache = new WeakMap<Registry, Map<string, McpTool[]>>();

function visibleTools(catalog: McpCatalog, toolsets: string[]): McpTool[] {
  let byFilter = pageCache.get(catalog.registry);
  if (!byFilter) pageCache.set(catalog.registry, (byFilter = new Map()));
  const key = toolsets.join(',');
  let list = byFilter.get(key);
  if (!list) {
    list = catalog.registry
      .list()
      .filter((t) => t.expose.mcp && (toolsets.length === 0 || toolsets.includes(t.toolset)))
      .map(toMcpTool);
    byFilter.set(key, list);
  }
  return list;
}

function page<T>(items: T[], cursor: string | undefined, size: number): { items: T[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    start = Number.parseInt(Buffer.from(cursor, 'base64url').toString(), 10);
    if (!Number.isInteger(start) || start < 0 || start > items.length) {
      throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor');
    }
  }
  const end = start + size;
  return {
    items: items.slice(start, end),
    ...(end < items.length ? { nextCursor: Buffer.from(String(end)).toString('base64url') } : {}),
  };
}

const textResult = (value: unknown, isError: boolean, meta?: Record<string, unknown>): CallToolResult => {
  const structured = typeof value === 'object' && value !== null && !Array.isArray(value);
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    ...(structured ? { structuredContent: value as Record<string, unknown> } : {}),
    ...(isError ? { isError: true } : {}),
    ...(meta && Object.keys(meta).length ? { _meta: meta } : {}),
  };
};

/** x402 over MCP: the payment rides in `_meta["x402/payment"]`; it joins the credentials as a header would. */
function withMetaPayment(c: Credentials, meta: Record<string, unknown> | undefined): Credentials {
  const payment = meta?.['x402/payment'];
  if (!payment || typeof payment !== 'object') return c;
  return { ...c, paymentSignature: Buffer.from(JSON.stringify(payment)).toString('base64') };
}

/** x402 MCP transport convention: isError result, PaymentRequired as structuredContent, wrapped in the text. */
function paymentResult(ge: GatewayError): CallToolResult {
  const pr = ge.payment!;
  const settlement = pr['x402/payment-response'];
  return {
    isError: true,
    structuredContent: pr,
    content: [{ type: 'text', text: JSON.stringify({ 'x402/error': { code: 402, message: ge.message, data: pr } }) }],
    _meta: { 'x402/payment-required': pr, ...(settlement ? { 'x402/payment-response': settlement } : {}) },
  };
}

export function buildMcpServer(catalog: McpCatalog, opts: McpConnectionOptions): Server {
  const { registry } = catalog;
  const server = new Server(
    { name: SERVER_NAME, title: 'Agent Gateway', version: SERVER_VERSION },
    { capabilities: { tools: { listChanged: false }, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );
  const allowed = (name: string): Tool | undefined => {
    const t = registry.get(name);
    if (!t || !t.expose.mcp) return undefined;
    if (opts.toolsets.length > 0 && !opts.toolsets.includes(t.toolset)) return undefined;
    return t;
  };

  server.setRequestHandler(ListToolsRequestSchema, async (req) => {
    const p = page(visibleTools(catalog, opts.toolsets), req.params?.cursor, catalog.pageSize);
    return { tools: p.items, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const tool = allowed(req.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${req.params.name} not found`);
    const credentials = withMetaPayment(opts.credentials(extra), req.params._meta);
    try {
      const out = await registry.call(tool.name, req.params.arguments ?? {}, credentials, { signal: extra.signal });
      return textResult(out.result, false, out.meta.meta);
    } catch (err) {
      const ge = err instanceof GatewayError ? err : new GatewayError('internal_error');
      if (ge.payment) return paymentResult(ge);
      return textResult({ ...ge.toBody(), status: ge.status }, true);
    }
  });

  const readViaTool = async (tool: string, input: Record<string, unknown>, uri: string, mimeType: string, extra: Parameters<McpConnectionOptions['credentials']>[0]) => {
    try {
      const out = await registry.call(tool, input, opts.credentials(extra));
      return { contents: [{ uri, mimeType, text: JSON.stringify(out.result) }] };
    } catch (err) {
      const ge = err instanceof GatewayError ? err : new GatewayError('internal_error');
      const code = ge.status === 404 ? -32002 : ErrorCode.InvalidParams;
      throw new McpError(code, ge.message, { uri, error: ge.toBody().error });
    }
  };

  server.setRequestHandler(ListResourcesRequestSchema, async (req, extra) => {
    const all: { uri: string; name: string; title?: string; description?: string; mimeType?: string }[] = catalog.resources.map(
      ({ uri, name, title, description, mimeType }) => ({ uri, name, title, description, mimeType }),
    );
    for (const l of catalog.resourceListers) {
      try {
        const out = (await registry.call(l.tool, {}, opts.credentials(extra))).result as { resources: typeof all };
        all.push(...out.resources);
      } catch {
        // A caller without credentials (or a failing lister) just sees the static resources.
      }
    }
    const p = page(all, req.params?.cursor, catalog.pageSize);
    return { resources: p.items, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: catalog.resourceTemplates.map(({ uriTemplate, name, title, description, mimeType }) => ({
      uriTemplate,
      name,
      title,
      description,
      mimeType,
    })),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => {
    const uri = req.params.uri;
    const fixed = catalog.resources.find((r) => r.uri === uri);
    if (fixed) return readViaTool(fixed.tool, fixed.input ?? {}, uri, fixed.mimeType, extra);
    for (const t of catalog.resourceTemplates) {
      const vars = matchTemplate(t.uriTemplate, uri);
      if (vars) return readViaTool(t.tool, vars, uri, t.mimeType, extra);
    }
    throw new McpError(-32002, `Resource not found: ${uri}`, { uri });
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: catalog.prompts.map(({ name, title, description, arguments: args }) => ({ name, title, description, arguments: args })),
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    const p = catalog.prompts.find((x) => x.name === req.params.name);
    if (!p) throw new McpError(ErrorCode.InvalidParams, `Prompt ${req.params.name} not found`);
    const args = req.params.arguments ?? {};
    for (const a of p.arguments) {
      if (a.required && !args[a.name]) throw new McpError(ErrorCode.InvalidParams, `Missing required argument: ${a.name}`);
    }
    return {
      description: p.description,
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: p.render(args) } }],
    };
  });

  return server;
}
