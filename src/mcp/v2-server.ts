// The MCP server on SDK v2's low-level Server: for one 2026-07-28 request over HTTP (no handshake and no session,
// so a fresh one answers each request and any gateway process can answer any request), and for a stdio
// connection of either era (the SDK's serveStdio picks the era from the opening exchange). The answers come from
// methods.ts, shared with the 2025-era HTTP sessions. The SDK adds what the revision puts around them: the
// `server/discover` answer, `serverInfo` and `resultType` on results, the cache hints below.
import { inputRequired, ProtocolError, Server, type CacheHint, type InputRequests, type ServerContext } from '@modelcontextprotocol/server';
import type { Confirmer, Credentials, McpSession } from '../registry/types.js';
import { confirmAboveOf, elicitingConfirmer, RoundTripConfirmer } from './confirmations.js';
import { answersAny } from './input-requests.js';
import { carriedState, inputStateCodec, stateBinding } from './input-state.js';
import { boundCredentials, INSTRUCTIONS, McpMethodError, mcpMethods, NeedsInput, SERVER_EXTENSIONS, SERVER_INFO, type McpCatalog } from './methods.js';
import { progressReporter } from './progress.js';
import type { ResourceFeed } from './resource-feed.js';
import { discoverBothEras } from './discover-both-eras.js';
import { SessionSubscriptions } from './session-subscriptions.js';
import { acceptsTasks, serveTasks } from './tasks.js';

/** The 2026-07-28 revision's code for "resource not found"; the 2025 era keeps its own (-32002). */
const MODERN_RESOURCE_NOT_FOUND = -32602;

export type Era = 'legacy' | 'modern';

/** The envelope key of a modern request's client capabilities (the SDK's published envelope type is empty). */
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/**
 * How long a client may keep each list or read. Tool, prompt and template lists change only with a new
 * gateway version and are the same for everyone; resources include a caller's own memory, so they are private
 * and short-lived.
 */
const CACHE_HINTS: Record<string, CacheHint> = {
  'tools/list': { ttlMs: 300_000, cacheScope: 'public' },
  'prompts/list': { ttlMs: 300_000, cacheScope: 'public' },
  'resources/templates/list': { ttlMs: 300_000, cacheScope: 'public' },
  'resources/list': { ttlMs: 10_000, cacheScope: 'private' },
  'resources/read': { ttlMs: 10_000, cacheScope: 'private' },
};

/**
 * `session` is given for a connection that lasts (stdio): vault_login binds it, and its later requests act as that
 * agent. A 2026-07-28 HTTP request is a server of its own, with no session to bind.
 */
export function buildV2Server(catalog: McpCatalog, toolsets: string[], credentials: Credentials, feed: ResourceFeed, era: Era = 'modern', session?: McpSession): Server {
  const creds = (): Credentials => boundCredentials(credentials, session);
  /** Runs a method, turning its error into v2's ProtocolError with the era's codes. */
  const v2 = async <T>(fn: () => T | Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof McpMethodError)) throw err;
      throw new ProtocolError(err.resourceNotFound && era === 'modern' ? MODERN_RESOURCE_NOT_FOUND : err.code, err.message, err.data);
    }
  };
  const stateCodec = inputStateCodec(catalog.stateKey);
  const server = new Server(SERVER_INFO, {
    // Modern clients subscribe with subscriptions/listen (served by the SDK from the feed), legacy ones with
    // resources/subscribe below.
    // A lasting connection's list grows when tools_find enables a toolset on it; a modern HTTP request's never changes.
    capabilities: { tools: { listChanged: session !== undefined }, resources: { subscribe: true }, prompts: {}, completions: {}, extensions: SERVER_EXTENSIONS },
    instructions: INSTRUCTIONS,
    // A signed-in caller's tool list depends on its token's scopes: its own to keep.
    cacheHints: credentials.accessToken?.scopes ? { ...CACHE_HINTS, 'tools/list': { ...CACHE_HINTS['tools/list'], cacheScope: 'private' } } : CACHE_HINTS,
    // The state of a multi-round call comes back from the client: its signature is checked before any handler runs.
    requestState: { verify: (state, ctx) => stateCodec.verify(state, ctx) },
  });
  if (era === 'modern') discoverBothEras(server);
  const m = mcpMethods(catalog, toolsets, session);
  // The Tasks extension is negotiated per request, which only the 2026-07-28 era does.
  const tasks = era === 'modern' ? serveTasks(server, catalog, creds) : undefined;
  /** A modern request declares its capabilities in its own envelope; a legacy connection did at initialize. */
  const declaredBy = (ctx: ServerContext): Record<string, unknown> | undefined =>
    (era === 'modern' ? (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES] : server.getClientCapabilities()) as Record<string, unknown> | undefined;
  /**
   * Who asks the client what a call needs: a modern client that can answer something answers on a retried request
   * (input_required, with the earlier rounds' answers in the signed requestState bound to `binding`); a legacy one on
   * this exchange. A client that declares nothing it could answer is asked nothing.
   */
  const askerFor = (ctx: ServerContext, meta: Record<string, unknown> | undefined, binding: () => string): Confirmer | undefined => {
    const declared = declaredBy(ctx);
    if (!answersAny(declared)) return undefined;
    const above = confirmAboveOf(meta);
    if (era === 'modern') {
      const carried = ctx.mcpReq.requestState() === undefined ? undefined : carriedState(ctx, binding());
      return new RoundTripConfirmer(ctx.mcpReq.inputResponses, above, declared, carried && { answers: carried.a, confirmed: carried.c });
    }
    const channel = {
      elicit: (form: Parameters<typeof ctx.mcpReq.elicitInput>[0]) => ctx.mcpReq.elicitInput(form),
      sample: (params: Parameters<typeof ctx.mcpReq.requestSampling>[0]) => ctx.mcpReq.requestSampling(params),
      listRoots: () => ctx.mcpReq.send({ method: 'roots/list' }),
    };
    return elicitingConfirmer(channel, above, declared);
  };
  /** The input_required result for what a call waits for; questions carry the answers so far, signed, to the retry. */
  const inputRound = async (err: NeedsInput, asker: Confirmer | undefined, binding: () => string) => {
    const confirmed = asker instanceof RoundTripConfirmer && asker.confirmed;
    const requestState = err.answers ? await stateCodec.mint({ b: binding(), a: err.answers, ...(confirmed ? { c: true as const } : {}) }) : undefined;
    return inputRequired({ inputRequests: err.requests as InputRequests, ...(requestState ? { requestState } : {}) });
  };
  const toolsChanged = () => server.sendToolListChanged().catch(() => undefined);
  server.setRequestHandler('tools/list', (req) => v2(() => m.listTools(req.params?.cursor, creds())));
  server.setRequestHandler('tools/call', async (req, ctx) => {
    const binding = () => stateBinding(catalog.stateKey, 'tools/call', req.params.name, req.params.arguments, creds());
    const confirm = askerFor(ctx, req.params._meta, binding);
    try {
      const progress = progressReporter(ctx.mcpReq._meta?.progressToken, (n) => ctx.mcpReq.notify(n));
      const followsWork = tasks !== undefined && acceptsTasks(ctx.mcpReq.envelope);
      const result = await v2(() => m.callTool(req.params.name, req.params.arguments, req.params._meta, creds(), { signal: ctx.mcpReq.signal, confirm, progress, followsWork, session, toolsChanged }));
      return tasks ? await tasks.offer(req.params.name, result, ctx.mcpReq.envelope) : result;
    } catch (err) {
      if (!(err instanceof NeedsInput)) throw err;
      return inputRound(err, confirm, binding);
    }
  });
  server.setRequestHandler('resources/list', (req) => v2(() => m.listResources(req.params?.cursor, creds())));
  server.setRequestHandler('resources/templates/list', () => v2(() => m.listResourceTemplates()));
  server.setRequestHandler('resources/read', (req) => v2(() => m.readResource(req.params.uri, creds())));
  if (era === 'legacy') {
    const subscriptions = new SessionSubscriptions(
      feed,
      (uri) => server.sendResourceUpdated({ uri }),
      async (uri) => (await m.hears(uri, creds())) === 'yes',
    );
    server.onclose = () => subscriptions.close();
    server.setRequestHandler('resources/subscribe', (req) =>
      v2(async () => {
        await m.checkSubscribe(req.params.uri, creds());
        await subscriptions.add(req.params.uri);
        return {};
      }),
    );
    server.setRequestHandler('resources/unsubscribe', (req) => {
      subscriptions.remove(req.params.uri);
      return {};
    });
  }
  server.setRequestHandler('prompts/list', () => v2(() => m.listPrompts()));
  server.setRequestHandler('prompts/get', async (req, ctx) => {
    const binding = () => stateBinding(catalog.stateKey, 'prompts/get', req.params.name, req.params.arguments, creds());
    const asker = askerFor(ctx, req.params._meta, binding);
    try {
      return await v2(() => m.getPrompt(req.params.name, req.params.arguments, asker));
    } catch (err) {
      if (!(err instanceof NeedsInput)) throw err;
      return inputRound(err, asker, binding);
    }
  });
  server.setRequestHandler('completion/complete', (req) => v2(() => m.complete(req.params.ref, req.params.argument, req.params.context?.arguments, creds())));
  return server;
}
