// The 2025-era MCP server for one connection (stdio process, HTTP session or SSE stream), on SDK v1's low-level
// Server. The answers come from methods.ts, shared with the 2026-07-28 path (v2-server.ts); this file only
// binds them to v1's request schemas and error type.
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Credentials, McpSession } from '../registry/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ParamsCheckedServer } from './params-checked-server.js';
import { confirmAboveOf, elicitingConfirmer } from './confirmations.js';
import { answersAny } from './input-requests.js';
import { boundCredentials, INSTRUCTIONS, INVALID_PARAMS, McpMethodError, mcpMethods, SERVER_EXTENSIONS, SERVER_INFO, type CallToolOptions, type McpCatalog } from './methods.js';
import { progressReporter } from './progress.js';
import type { ResourceFeed } from './resource-feed.js';
import { SessionSubscriptions } from './session-subscriptions.js';
import { effectiveSelection } from './tool-surface.js';

export { SERVER_NAME, SERVER_VERSION, type McpCatalog } from './methods.js';

export interface McpConnectionOptions {
  /** The toolsets this connection sees (tool-surface.ts; empty = the default surface). */
  toolsets: string[];
  /** Credentials for a message: from the HTTP request (authInfo.extra) or fixed for stdio. */
  credentials(extra: { authInfo?: { extra?: Record<string, unknown> } }): Credentials;
  /** Resource changes, for resources/subscribe. */
  feed: ResourceFeed;
  /** A shared Streamable HTTP session's state: what it starts with and where its changes are written. */
  state?: SessionState;
}

/**
 * The state of a 2025-era session that outlives this process's copy of it (streamable-http.ts, stored in the
 * database): restored when another instance rebuilds the session, saved (and awaited before the answer) when it
 * changes, so the session's next request finds it wherever it lands.
 */
export interface SessionState {
  login?: string;
  subscriptions?: string[];
  saveLogin(login: string | undefined): Promise<void>;
  saveSubscriptions(uris: string[]): Promise<void>;
  /** Stores the session's selection once tools_find has widened it (tool-surface.ts). */
  saveToolsets(toolsets: readonly string[]): Promise<void>;
  /** Set by buildMcpServer: resolves once the restored subscriptions are heard. */
  ready?: Promise<unknown>;
  /**
   * Set by buildMcpServer: adds subscriptions made through another instance's copy of the session (the endpoint
   * calls it for sessions whose GET stream is open here, the stream their notifications go out on).
   */
  adopt?: (uris: string[]) => Promise<void>;
  /**
   * The credentials of the latest request to this copy of the session, its GET stream's too (set by the endpoint):
   * whom its notifications are checked for, also for subscriptions restored from the store or made elsewhere.
   */
  seenAs?: Credentials;
  /** Set by buildMcpServer: takes the login binding as stored (changed by a call on another instance). */
  syncLogin?: (login: string | undefined) => void;
  /** Set by buildMcpServer: takes the selection as stored (widened by tools_find on another instance). */
  syncToolsets?: (toolsets: string[]) => void;
}

/**
 * A tools/call on one connection's server as its handler runs it, for a client that cannot be asked anything and
 * wants no progress: what session-direct.ts answers without the SDK's Protocol layer.
 */
export type PlainToolCall = (
  name: string,
  args: Record<string, unknown> | undefined,
  meta: Record<string, unknown> | undefined,
  credentials: Credentials,
  signal: AbortSignal,
) => Promise<CallToolResult>;

/** A server's plain tools/call, and whether a tool has questions of its own for the client (registry `inputs`). */
export interface PlainCalls {
  run: PlainToolCall;
  asks(tool: string): boolean;
}

const plainCalls = new WeakMap<Server, PlainCalls>();

/** The plain tools/call of a server built here. */
export const plainToolCallOf = (server: Server): PlainCalls | undefined => plainCalls.get(server);

/** URIs one session may subscribe to: what a session holds stays bounded, so the session cap bounds them all. */
export const MAX_SUBSCRIPTIONS = 1000;

/** Runs a method, turning its error into v1's McpError (the 2025 era keeps -32002 for a missing resource). */
const v1 = async <T>(fn: () => T | Promise<T>): Promise<T> => {
  try {
    return await fn();
  } catch (err) {
    // v1's McpError prefixes its message ("MCP error -32602: …") and the SDK sends that message as is, so the
    // client, which prefixes again, would show it twice: the wire carries the bare message.
    if (err instanceof McpMethodError) throw Object.assign(new McpError(err.code, err.message, err.data), { message: err.message });
    throw err;
  }
};

export function buildMcpServer(catalog: McpCatalog, opts: McpConnectionOptions): Server {
  const server = new ParamsCheckedServer(SERVER_INFO, {
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, prompts: {}, completions: {}, extensions: SERVER_EXTENSIONS },
    instructions: INSTRUCTIONS,
  });
  // One server per session: what vault_login binds and tools_find enables last as long as it.
  const state = opts.state;
  const session: McpSession = state?.login ? { login: state.login } : {};
  const m = mcpMethods(catalog, opts.toolsets, session);
  /** The credentials of the connection's latest message (a shared session's endpoint notes every request's: seenAs). */
  let latest: Credentials | undefined;
  const creds = (extra: Parameters<McpConnectionOptions['credentials']>[0]): Credentials => boundCredentials((latest = opts.credentials(extra)), session);
  // A change is heard by the session's caller as of its latest request (a refreshed token, not the one it subscribed
  // with), while that caller may still read the resource.
  const caller = () => state?.seenAs ?? latest;
  const subscriptions = new SessionSubscriptions(
    opts.feed,
    (uri) => server.sendResourceUpdated({ uri }),
    async (uri) => {
      const c = caller();
      return c !== undefined && (await m.hears(uri, boundCredentials(c, session))) === 'yes';
    },
  );
  server.onclose = () => subscriptions.close();
  // The subscribed URIs, kept here for the shared state and the limit (SessionSubscriptions keeps its own).
  const subscribed = new Set<string>();
  for (const uri of state?.subscriptions ?? []) subscribed.add(uri);
  if (state) {
    state.ready = Promise.all([...subscribed].map((uri) => subscriptions.add(uri)));
    state.adopt = async (uris) => {
      const added = uris.filter((uri) => !subscribed.has(uri));
      for (const uri of added) subscribed.add(uri);
      await Promise.all(added.map((uri) => subscriptions.add(uri)));
    };
    state.syncLogin = (login) => {
      if (login) session.login = login;
      else delete session.login;
    };
    state.syncToolsets = (toolsets) => {
      const added = toolsets.filter((t) => !effectiveSelection(opts.toolsets, session).includes(t));
      if (!added.length) return;
      session.enabledToolsets = [...(session.enabledToolsets ?? []), ...added];
      void server.sendToolListChanged().catch(() => undefined);
    };
  }
  server.setRequestHandler(SubscribeRequestSchema, (req, extra) =>
    v1(async () => {
      await m.checkSubscribe(req.params.uri, creds(extra));
      if (!subscribed.has(req.params.uri) && subscribed.size >= MAX_SUBSCRIPTIONS) {
        throw new McpMethodError(INVALID_PARAMS, `This session is subscribed to ${MAX_SUBSCRIPTIONS} resources, its limit: unsubscribe from one first.`);
      }
      await subscriptions.add(req.params.uri);
      if (!subscribed.has(req.params.uri)) {
        subscribed.add(req.params.uri);
        await state?.saveSubscriptions([...subscribed]);
      }
      return {};
    }),
  );
  server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    subscriptions.remove(req.params.uri);
    if (subscribed.delete(req.params.uri)) await state?.saveSubscriptions([...subscribed]);
    return {};
  });
  server.setRequestHandler(ListToolsRequestSchema, (req, extra) => v1(() => m.listTools(req.params?.cursor, creds(extra))));
  /** Toolsets tools_find enabled: stored (before the answer) for the session's other copies, and announced. */
  const toolsChanged = async () => {
    await state?.saveToolsets(effectiveSelection(opts.toolsets, session));
    await server.sendToolListChanged().catch(() => undefined);
  };
  /**
   * A tool call with the session's binding; vault_login / vault_logout's change is written before the answer, and
   * toolsets tools_find enabled are stored and announced (on the session's own stream: notifications/tools/list_changed).
   */
  const callTool = async (name: string, args: Record<string, unknown> | undefined, meta: Record<string, unknown> | undefined, credentials: Credentials, callOpts: CallToolOptions) => {
    const before = session.login;
    try {
      return (await m.callTool(name, args, meta, boundCredentials(credentials, session), { ...callOpts, session, toolsChanged })) as CallToolResult;
    } finally {
      // Written before the answer, so the next request sees it on any instance.
      if (state && session.login !== before) await state.saveLogin(session.login);
    }
  };
  /** A client that declared elicitation, sampling or roots is asked on the request's own stream; others keep explicit arguments. */
  const askerFor = (extra: { requestId: string | number }, meta: Record<string, unknown> | undefined) => {
    const declared = server.getClientCapabilities() as Record<string, unknown> | undefined;
    if (!answersAny(declared)) return undefined;
    const related = { relatedRequestId: extra.requestId };
    return elicitingConfirmer(
      {
        elicit: (form) => server.elicitInput(form, related),
        sample: (params) => server.createMessage(params, related),
        listRoots: () => server.listRoots(undefined, related),
      },
      confirmAboveOf(meta),
      declared,
    );
  };
  server.setRequestHandler(CallToolRequestSchema, (req, extra) => {
    const confirm = askerFor(extra, req.params._meta);
    const progress = progressReporter(req.params._meta?.progressToken, (n) => extra.sendNotification(n));
    return v1(() => callTool(req.params.name, req.params.arguments, req.params._meta, (latest = opts.credentials(extra)), { signal: extra.signal, confirm, progress }));
  });
  plainCalls.set(server, { run: (name, args, meta, credentials, signal) => callTool(name, args, meta, credentials, { signal }), asks: (tool) => catalog.registry.get(tool)?.inputs !== undefined });
  server.setRequestHandler(ListResourcesRequestSchema, (req, extra) => v1(() => m.listResources(req.params?.cursor, creds(extra))));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => v1(() => m.listResourceTemplates()));
  server.setRequestHandler(ReadResourceRequestSchema, (req, extra) => v1(() => m.readResource(req.params.uri, creds(extra))));
  server.setRequestHandler(ListPromptsRequestSchema, () => v1(() => m.listPrompts()));
  server.setRequestHandler(GetPromptRequestSchema, (req, extra) => v1(() => m.getPrompt(req.params.name, req.params.arguments, askerFor(extra, req.params._meta))));
  server.setRequestHandler(CompleteRequestSchema, (req, extra) =>
    v1(() => m.complete(req.params.ref, req.params.argument, req.params.context?.arguments, creds(extra))),
  );
  return server;
}
