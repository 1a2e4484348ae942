// What each MCP method answers, independent of the protocol era and of the SDK line serving it: the 2025-era
// sessions (SDK v1 Server, server.ts) and the stateless 2026-07-28 requests (SDK v2 Server, v2-server.ts)
// register these same functions, so the two eras cannot drift apart. Errors are McpMethodError; each server
// turns them into its SDK's error type.
import { scopeFor } from '../auth/oauth-scopes.js';
import { EXTENSION_ID as UI_EXTENSION_ID, RESOURCE_MIME_TYPE as UI_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { GatewayError } from '../errors.js';
import type { PromptMessage } from '../registry/prompt-defs.js';
import type { Registry } from '../registry/registry.js';
import { outputJsonSchemaOf } from '../registry/define-tool.js';
import type { Confirmation, Confirmer, Credentials, InputAnswers, InputKind, InputRound, McpSession, ProgressReporter, Tool } from '../registry/types.js';
import { CONFIRM_KEY, confirmationForm } from './confirmations.js';
import { requiredCapabilities, wireInputRequests, type WireInputRequest } from './input-requests.js';
import { gatherInputs } from '../registry/ask-step.js';
import { blockJson, isFileResult, textOf } from '../registry/content-result.js';
import { paymentResult, textResult, toolResult, type CallToolResult } from './tool-result.js';
import { complete, type CompletionRef } from './completions.js';
import type { McpCatalog } from './mcp-catalog.js';

export type { McpCatalog } from './mcp-catalog.js';
import { matchTemplate } from './uri-template.js';
import { tracing } from '../tracing/state.js';
import { callable, effectiveSelection, listed } from './tool-surface.js';
import type { Hearing } from './listen-filter.js';

export const SERVER_NAME = 'agent-gateway';
export const SERVER_VERSION = '1.6.0';
export const SERVER_INFO = { name: SERVER_NAME, title: 'Agent Gateway', version: SERVER_VERSION };
export const INSTRUCTIONS =
  'Agent Gateway: a persistent home for stateless agents. Register with agent_register (the secret is shown ' +
  'once), then send it as Authorization: Bearer on owner tools. Call gateway_info for an overview, and tools_find when no listed tool fits: the list is short, the gateway has about 150 more tools.';


/**
 * The extensions both eras declare in the server's capabilities: MCP Apps (`io.modelcontextprotocol/ui`), whose
 * views are `ui://` resources in `text/html;profile=mcp-app` named by a tool's `_meta.ui.resourceUri`.
 */
export const SERVER_EXTENSIONS = { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } };

/** JSON-RPC error codes the methods answer with. */
export const INVALID_PARAMS = -32602;
/** Resource not found: -32002 in the 2025 era; the 2026-07-28 revision answers it as invalid params. */
export const LEGACY_RESOURCE_NOT_FOUND = -32002;

export class McpMethodError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    /** Set when the error is "resource not found", whose code depends on the era. */
    readonly resourceNotFound = false,
  ) {
    super(message);
  }
}

/** MissingRequiredClientCapability: the call needs what the client did not declare (2026-07-28, SEP-2575). */
export const MISSING_CLIENT_CAPABILITY = -32021;

/**
 * A call waits for answers (a confirmation, or the tool's or prompt's questions), which the 2026-07-28 era asks
 * for with an input_required result: `requests` are the embedded requests by key; `answers`, for questions, are
 * those of the earlier rounds, carried (signed) to the retry in its requestState.
 */
export class NeedsInput extends Error {
  constructor(
    readonly requests: Record<string, WireInputRequest>,
    readonly answers?: InputAnswers,
  ) {
    super('input required');
  }
}

function needsInput(extra: Record<string, unknown>): NeedsInput {
  if (extra.round) return new NeedsInput(wireInputRequests(extra.round as InputRound), extra.answers as InputAnswers);
  return new NeedsInput({ [CONFIRM_KEY]: { method: 'elicitation/create', params: confirmationForm(extra.confirmation as Confirmation) } as WireInputRequest });
}

/** A registry error that is the protocol's to answer: a question to put (NeedsInput) or a capability to declare. */
function protocolOutcome(ge: GatewayError): Error | undefined {
  if (ge.code === 'confirmation_required') return needsInput(ge.extra);
  if (ge.code === 'capability_required') {
    return new McpMethodError(MISSING_CLIENT_CAPABILITY, ge.message, { requiredCapabilities: requiredCapabilities(ge.extra.needs as InputKind[]) });
  }
  return undefined;
}

export interface CallToolOptions {
  signal?: AbortSignal;
  /** Given when the client can be asked (elicitation, or an input_required round trip). */
  confirm?: Confirmer;
  /** Passes the handler's progress on (notifications/progress), when the request asked for it. */
  progress?: ProgressReporter;
  /** The request accepts a task in place of a durable tool's answer (the Tasks extension). */
  followsWork?: boolean;
  /** The lasting connection the call came on (a 2025-era session, stdio), which vault_login may bind. */
  session?: McpSession;
  /** Told (and awaited before the answer) when the call enabled toolsets on the session (tools_find). */
  toolsChanged?: () => Promise<void>;
}

/** A connection's credentials, acting as the agent its vault_login bound it to (when it was bound). */
export const boundCredentials = (c: Credentials, session: McpSession | undefined): Credentials => (session?.login ? { ...c, login: session.login } : c);

export interface McpTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; [k: string]: unknown };
  outputSchema?: { type: 'object'; [k: string]: unknown };
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** A tool that takes a vault_login handle shows the argument on MCP, the only transport that accepts it. */
function mcpInputSchema(t: Tool): McpTool['inputSchema'] {
  const js = t.inputJsonSchema as McpTool['inputSchema'];
  if (!t.acceptsLogin) return js;
  const login = { type: 'string', description: 'A vault_login handle to act with, for hosts that cannot send Authorization and have no session (see vault_login).' };
  return { ...js, properties: { ...(js.properties as object), login } };
}

function toMcpTool(t: Tool): McpTool {
  return {
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    description: t.price ? `${t.description} Price: $${t.price.usd} per call.` : t.description,
    inputSchema: mcpInputSchema(t),
    // A declared output is published so clients can check structuredContent against it.
    ...(t.output ? { outputSchema: outputJsonSchemaOf(t.output) as McpTool['outputSchema'] } : {}),
    ...(t.annotations ? { annotations: t.annotations as Record<string, unknown> } : {}),
    ...(t.mcpMeta ? { _meta: t.mcpMeta } : {}),
  };
}

/**
 * Tool pages per toolset filter, computed once per filter. A client picks its filter (`?toolsets=`), so the key is
 * the filter's set (order and repeats do not make new ones) and at most PAGE_FILTERS are kept, the oldest out first.
 * A signed-in caller (an OAuth token) sees only the tools its scopes allow: the scopes are part of the key.
 */
const pageCache = new WeakMap<Registry, Map<string, McpTool[]>>();
const PAGE_FILTERS = 64;

function visibleTools(catalog: McpCatalog, toolsets: readonly string[], scopes?: readonly string[]): McpTool[] {
  let byFilter = pageCache.get(catalog.registry);
  if (!byFilter) pageCache.set(catalog.registry, (byFilter = new Map()));
  const key = `${[...new Set(toolsets)].sort().join(',')}${scopes ? `|${[...scopes].sort().join(',')}` : ''}`;
  let list = byFilter.get(key);
  if (!list) {
    list = catalog.registry
      .list()
      .filter((t) => t.expose.mcp && listed(t, toolsets) && (!scopes || scopes.includes(scopeFor(t))))
      .map(toMcpTool);
    if (byFilter.size >= PAGE_FILTERS) byFilter.delete(byFilter.keys().next().value!);
    byFilter.set(key, list);
  }
  return list;
}

function page<T>(items: T[], cursor: string | undefined, size: number): { items: T[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    start = Number.parseInt(Buffer.from(cursor, 'base64url').toString(), 10);
    if (!Number.isInteger(start) || start < 0 || start > items.length) throw new McpMethodError(INVALID_PARAMS, 'Invalid cursor');
  }
  const end = start + size;
  return { items: items.slice(start, end), ...(end < items.length ? { nextCursor: Buffer.from(String(end)).toString('base64url') } : {}) };
}

/** x402 over MCP: the payment rides in `_meta["x402/payment"]`; it joins the credentials as a header would. */
function withMetaPayment(c: Credentials, meta: Record<string, unknown> | undefined): Credentials {
  const payment = meta?.['x402/payment'];
  if (!payment || typeof payment !== 'object') return c;
  return { ...c, paymentSignature: Buffer.from(JSON.stringify(payment)).toString('base64') };
}

/**
 * What a resource's tool returned, as read contents: a file as its bytes (a blob, with the file's type) or its
 * text when it is text; a string under a non-JSON type (text/plain) as it is; anything else as JSON text.
 */
function resourceContents(result: unknown, uri: string, mimeType: string) {
  if (isFileResult(result)) {
    const text = textOf(result.bytes, result.contentType);
    return text !== undefined ? { uri, mimeType: result.contentType, text } : { uri, mimeType: result.contentType, blob: result.bytes.toString('base64') };
  }
  const json = mimeType === 'application/json' || mimeType.endsWith('+json');
  return { uri, mimeType, text: typeof result === 'string' && !json ? result : JSON.stringify(result) };
}

type ResourceEntry = { uri: string; name: string; title?: string; description?: string; mimeType?: string; _meta?: Record<string, unknown> };

/**
 * The methods of one connection (or one modern request), seeing the `selection` (tool-surface.ts; empty = the
 * default surface) and what tools_find enabled on the connection's `session`.
 */
export function mcpMethods(catalog: McpCatalog, selection: string[], session?: McpSession) {
  const { registry } = catalog;
  const toolsetsNow = () => effectiveSelection(selection, session);
  const allowed = (name: string): Tool | undefined => {
    const t = registry.get(name);
    if (!t || !t.expose.mcp) return undefined;
    return callable(t, toolsetsNow()) ? t : undefined;
  };

  const readViaTool = async (tool: string, input: Record<string, unknown>, uri: string, mimeType: string, credentials: Credentials, meta?: Record<string, unknown>) => {
    try {
      const out = await registry.call(tool, input, credentials);
      return { contents: [{ ...resourceContents(out.result, uri, mimeType), ...(meta ? { _meta: meta } : {}) }] };
    } catch (err) {
      const ge = err instanceof GatewayError ? err : new GatewayError('internal_error');
      throw new McpMethodError(ge.status === 404 ? LEGACY_RESOURCE_NOT_FOUND : INVALID_PARAMS, ge.message, { uri, error: ge.toBody().error }, ge.status === 404);
    }
  };

  const callTool = async (
    name: string,
    args: Record<string, unknown> | undefined,
    meta: Record<string, unknown> | undefined,
    credentials: Credentials,
    { signal, confirm, progress, followsWork, session, toolsChanged }: CallToolOptions,
  ): Promise<CallToolResult> => {
    const tool = allowed(name);
    if (!tool) throw new McpMethodError(INVALID_PARAMS, `Tool ${name} not found`);
    // Work only a task can follow is refused to a request that cannot take one, before anything runs.
    if (tool.durable?.followedOnly && !followsWork) {
      throw new McpMethodError(MISSING_CLIENT_CAPABILITY, `${tool.name} answers with a task: declare the ${TASKS_EXTENSION_ID_V2} extension in this request's client capabilities.`, {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID_V2]: {} } },
      });
    }
    try {
      const enabledBefore = session?.enabledToolsets?.length ?? 0;
      const out = await registry.call(tool.name, args ?? {}, withMetaPayment(credentials, meta), { signal, confirm, progress, followsWork, session });
      if ((session?.enabledToolsets?.length ?? 0) !== enabledBefore) await toolsChanged?.();
      return toolResult(out.result, tool.name, out.meta.meta);
    } catch (err) {
      const ge = err instanceof GatewayError ? err : new GatewayError('internal_error');
      const outcome = protocolOutcome(ge);
      if (outcome) throw outcome;
      if (ge.payment) return paymentResult(ge);
      const failed = textResult({ ...ge.toBody(), status: ge.status }, true);
      // SDK v1 clients check structuredContent against a published outputSchema even on errors, so a tool that
      // declares its output carries an error in the text block only.
      if (tool.output) delete failed.structuredContent;
      return failed;
    }
  };

  return {
    listTools(cursor: string | undefined, credentials?: Credentials) {
      const p = page(visibleTools(catalog, toolsetsNow(), credentials?.accessToken?.scopes), cursor, catalog.pageSize);
      return { tools: p.items, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) };
    },

    /**
     * tools/call. While tracing is on it is a `tools/call <tool>` span whose parent is the `traceparent` in the
     * request's `_meta` (the 2026-07-28 revision's convention), else the HTTP request's span.
     */
    callTool(
      name: string,
      args: Record<string, unknown> | undefined,
      meta: Record<string, unknown> | undefined,
      credentials: Credentials,
      opts: CallToolOptions = {},
    ): Promise<CallToolResult> {
      const t = tracing;
      if (t === null) return callTool(name, args, meta, credentials, opts);
      return t.mcpRequest('tools/call', allowed(name) ? name : undefined, meta, () => callTool(name, args, meta, credentials, opts));
    },

    async listResources(cursor: string | undefined, credentials: Credentials) {
      const all: ResourceEntry[] = catalog.resources.map(({ uri, name, title, description, mimeType, meta }) => ({ uri, name, title, description, mimeType, ...(meta ? { _meta: meta } : {}) }));
      for (const l of catalog.resourceListers) {
        try {
          const out = (await registry.call(l.tool, {}, credentials)).result as { resources: ResourceEntry[] };
          all.push(...out.resources);
        } catch {
          // A caller without credentials (or a failing lister) just sees the static resources.
        }
      }
      const p = page(all, cursor, catalog.pageSize);
      return { resources: p.items, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) };
    },

    listResourceTemplates() {
      return {
        resourceTemplates: catalog.resourceTemplates.map(({ uriTemplate, name, title, description, mimeType }) => ({ uriTemplate, name, title, description, mimeType })),
      };
    },

    async readResource(uri: string, credentials: Credentials) {
      const fixed = catalog.resources.find((r) => r.uri === uri);
      if (fixed) return readViaTool(fixed.tool, fixed.input ?? {}, uri, fixed.mimeType, credentials, fixed.meta);
      for (const t of catalog.resourceTemplates) {
        const vars = matchTemplate(t.uriTemplate, uri);
        if (vars) return readViaTool(t.tool, vars, uri, t.mimeType, credentials);
      }
      throw new McpMethodError(LEGACY_RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri }, true);
    },

    /**
     * Whether the caller may hear of changes to `uri` (a subscription): it can read it now, or it is the caller's
     * own resource not written yet. Hearing when a stranger's private memory changes would leak it.
     */
    async mayWatch(uri: string, credentials: Credentials): Promise<boolean> {
      try {
        await this.readResource(uri, credentials);
        return true;
      } catch (err) {
        if (!(err instanceof McpMethodError) || !err.resourceNotFound) return false;
        for (const t of catalog.resourceTemplates) {
          const owner = t.ownerVariable && matchTemplate(t.uriTemplate, uri)?.[t.ownerVariable];
          if (owner) return (await registry.resolve(credentials)).agent?.handle === owner.toLowerCase();
        }
        return false;
      }
    },

    /**
     * Whether a subscriber hears of a change to `uri` now (checked as each change is delivered, not only when it
     * subscribed): 'yes'; 'no' when it may no longer read it (a share revoked, an entry made private, the owner's
     * handle taken by a new agent); 'lapsed' when its credentials no longer act for anyone (a token expired or
     * revoked, a secret rotated, the agent suspended), for a stream that should then end so its client comes back as it is now.
     */
    async hears(uri: string, credentials: Credentials): Promise<Hearing> {
      if (await this.mayWatch(uri, credentials)) return 'yes';
      const caller = await registry.resolve(credentials);
      return caller.badBearer || caller.badLogin || caller.agent?.suspended_at != null ? 'lapsed' : 'no';
    },

    /** resources/subscribe: refused, as a missing resource, for what the caller may not watch. */
    async checkSubscribe(uri: string, credentials: Credentials): Promise<void> {
      if (!(await this.mayWatch(uri, credentials))) throw new McpMethodError(LEGACY_RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri }, true);
    },

    listPrompts() {
      return { prompts: catalog.prompts.map(({ name, title, description, arguments: args }) => ({ name, title, description, arguments: args })) };
    },

    /** prompts/get; `asker` puts the prompt's questions (PromptDef.inputs) to a client that can answer them. */
    async getPrompt(name: string, args: Record<string, string> = {}, asker?: Confirmer) {
      const p = catalog.prompts.find((x) => x.name === name);
      if (!p) throw new McpMethodError(INVALID_PARAMS, `Prompt ${name} not found`);
      for (const a of p.arguments) {
        if (a.required && !args[a.name]) throw new McpMethodError(INVALID_PARAMS, `Missing required argument: ${a.name}`);
      }
      let rendered: string | PromptMessage[];
      try {
        const answers = p.inputs ? await gatherInputs((got) => p.inputs!(args, got), asker, `${p.title ?? p.name} needs your answers first.`) : undefined;
        rendered = await p.render(args, answers);
      } catch (err) {
        const outcome = err instanceof GatewayError ? protocolOutcome(err) : undefined;
        if (outcome) throw outcome;
        if (err instanceof GatewayError && err.status < 500) throw new McpMethodError(INVALID_PARAMS, err.message, { error: err.toBody().error });
        throw err;
      }
      const messages = typeof rendered === 'string' ? [{ role: 'user' as const, content: { type: 'text' as const, text: rendered } }] : rendered.map((m) => ({ role: m.role, content: blockJson(m.content) }));
      return { description: p.description, messages };
    },

    async complete(ref: CompletionRef, argument: { name: string; value: string }, context: Record<string, string> | undefined, credentials: Credentials) {
      return { completion: await complete(catalog, ref, argument, context ?? {}, credentials) };
    },
  };
}

export type McpMethods = ReturnType<typeof mcpMethods>;
