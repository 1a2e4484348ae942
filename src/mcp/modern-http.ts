// The 2026-07-28 era on the Streamable HTTP endpoint (/mcp), beside the 2025-era sessions. A request that claims
// the modern era (the `io.modelcontextprotocol/protocolVersion` envelope in `_meta`, or a modern
// MCP-Protocol-Version header) is served statelessly by SDK v2's createMcpHandler, which owns the revision's
// HTTP rules (the header checks, HeaderMismatch -32020, UnsupportedProtocolVersion -32022, 404 for an unknown
// method, server/discover). Whether a request is modern is the SDK's own classifier (classifyInboundRequest), asked
// only of requests that carry a claim, so 2025-era traffic pays nothing for the second era.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { SUPPORTED_PROTOCOL_VERSIONS as LEGACY_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { classifyInboundRequest, createMcpHandler, type InboundClassificationOutcome, type McpHttpHandler, type Server } from '@modelcontextprotocol/server';
import type { Credentials } from '../registry/types.js';
import { sendJsonText } from '../http/send.js';
import { EnvelopeMemo } from './envelope-memo.js';
import { HEADER_MISMATCH, headerDeclarations, paramHeaderMismatch } from './param-headers.js';
import { plainToolCall, type DirectToolCalls } from './modern-direct.js';
import type { ResourceFeed } from './resource-feed.js';
import { clientBlock } from '../auth/client-key.js';
import { ClientShares } from '../client-share.js';
import { CheckedListenBus } from './checked-listen-bus.js';
import { keepWatchable, type Hearing } from './listen-filter.js';

/** The per-request server: the toolsets the URL asks for and the caller's credentials. */
export type ModernServerFactory = (toolsets: string[], credentials: Credentials) => Server;

interface RequestScope {
  toolsets: string[];
  credentials: Credentials;
}

const ENVELOPE = 'io.modelcontextprotocol/protocolVersion';

const claimsEnvelope = (m: unknown): boolean => {
  const meta = (m as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  return typeof meta === 'object' && meta !== null && ENVELOPE in meta;
};

/** The request's MCP-Protocol-Version header names a revision the 2025-era sessions (SDK v1) do not speak. */
export function namesModernRevision(req: IncomingMessage): boolean {
  const version = req.headers['mcp-protocol-version'];
  return typeof version === 'string' && !LEGACY_VERSIONS.includes(version);
}

/**
 * A cheap first look: could this request be a modern one? (The SDK decides for those that could.) A header
 * naming a revision the 2025-era sessions (SDK v1) do not speak, or the envelope in a message, claims it.
 */
function mayBeModern(req: IncomingMessage, body: unknown): boolean {
  if (namesModernRevision(req)) return true;
  return Array.isArray(body) ? body.some(claimsEnvelope) : claimsEnvelope(body);
}

export class ModernHttpEndpoint {
  private readonly handler: McpHttpHandler;
  private readonly serve: ReturnType<typeof toNodeHandler>;
  /** The SDK's classifications of plain tools/call envelopes (envelope-memo.ts). */
  readonly envelopes = new EnvelopeMemo();
  /** Open subscriptions/listen streams, by client: a held connection each, so bounded like the 2025 sessions. */
  private readonly listens: ClientShares<ServerResponse>;
  private readonly maxListens: number;
  /** The feed, with each change checked for the stream it goes to (checked-listen-bus.ts). */
  private readonly bus: CheckedListenBus;

  constructor(
    factory: ModernServerFactory,
    { maxBodyBytes, keepAliveMs, maxListens, listensPerClient }: { maxBodyBytes: number; keepAliveMs: number; maxListens: number; listensPerClient: number },
    /** The changes subscriptions/listen streams hear of (the SDK owns the streams: ack, filter, keep-alive). */
    private readonly feed: ResourceFeed,
    private readonly watching: {
      mayWatch(uri: string, credentials: Credentials): Promise<boolean>;
      hears(uri: string, credentials: Credentials): Promise<Hearing>;
    },
    /** Answers plain tools/call requests without the SDK's per-request server (modern-direct.ts). */
    private readonly direct?: DirectToolCalls,
    /** The listed input schema of a tool, whose `x-mcp-header` properties a call's Mcp-Param-* headers must match. */
    private readonly inputSchemaOf?: (tool: string) => Record<string, unknown> | undefined,
  ) {
    this.bus = new CheckedListenBus(feed);
    this.handler = createMcpHandler(
      (ctx) => {
        const scope = ctx.authInfo?.extra as RequestScope | undefined;
        return factory(scope?.toolsets ?? [], scope?.credentials ?? { ip: 'unknown', transport: 'mcp' });
      },
      { legacy: 'reject', maxRequestBodySize: maxBodyBytes, bus: this.bus, keepAliveMs },
    );
    this.serve = toNodeHandler(this.handler, { maxRequestBodySize: maxBodyBytes });
    this.listens = new ClientShares(listensPerClient);
    this.maxListens = maxListens;
  }

  /**
   * The SDK's classification when it routes this request (its body already parsed) to the modern era, else
   * undefined: its own classifier, the one behind isLegacyRequest, asked with the headers and body as they are
   * (building the web Request that isLegacyRequest wants cost about a tenth of a modern call).
   */
  claims(req: IncomingMessage, body: unknown): InboundClassificationOutcome | undefined {
    if (!mayBeModern(req, body)) return undefined;
    const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined);
    const outcome = this.envelopes.classify(req, body, () =>
      classifyInboundRequest({
        httpMethod: 'POST',
        body,
        protocolVersionHeader: header('mcp-protocol-version'),
        mcpMethodHeader: header('mcp-method'),
        mcpNameHeader: header('mcp-name'),
      }),
    );
    return outcome.kind === 'legacy' ? undefined : outcome;
  }

  /**
   * Serves one modern request: a plain tools/call directly, anything else through the SDK, where the credentials
   * reach the tools through the request's pass-through authInfo.
   */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown, scope: RequestScope, outcome: InboundClassificationOutcome): Promise<void> {
    if (this.refuseParamHeaders(req, res, outcome)) return;
    const call = this.direct && plainToolCall(req, outcome, (tool) => this.direct!.asks(tool));
    if (call) return this.direct!.answer(res, call, scope.toolsets, scope.credentials);
    const m = body as { method?: unknown; id?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | null;
    const withAuth = Object.assign(req, { auth: { token: '', clientId: 'agent-gateway', scopes: [], extra: { ...scope } } });
    if (m?.method !== 'subscriptions/listen') return this.serve(withAuth, res, body);
    if (!this.holdListen(res, scope.credentials, m.id)) return;
    await this.feed.prepare();
    const uris = new Set(await keepWatchable(m.params?.notifications, (uri) => this.watching.mayWatch(uri, scope.credentials)));
    const hears = (uri: string) => this.watching.hears(uri, scope.credentials);
    await this.bus.within({ hears, uris, end: () => res.destroy() }, () => this.serve(withAuth, res, body));
  }

  /** A tools/call whose Mcp-Param-* headers disagree with its arguments is answered 400 HeaderMismatch (param-headers.ts). */
  private refuseParamHeaders(req: IncomingMessage, res: ServerResponse, outcome: InboundClassificationOutcome): boolean {
    if (outcome.kind !== 'modern' || outcome.messageKind !== 'request' || outcome.message.method !== 'tools/call' || !this.inputSchemaOf) return false;
    const params = outcome.message.params as { name?: unknown; arguments?: unknown } | undefined;
    const schema = typeof params?.name === 'string' ? this.inputSchemaOf(params.name) : undefined;
    const declarations = schema ? declarationsOf(schema) : [];
    const mismatch = declarations.length > 0 ? paramHeaderMismatch(declarations, params?.arguments, req.headers) : undefined;
    if (!mismatch) return false;
    const error = { code: HEADER_MISMATCH, message: `Bad Request: the request headers and body disagree: ${mismatch.body}`, data: { mismatch } };
    sendJsonText(res, 400, JSON.stringify({ jsonrpc: '2.0', id: outcome.message.id, error }), undefined, 'application/json');
    return true;
  }

  /**
   * Counts a listen stream until its response closes; past GATEWAY_MCP_MAX_SESSIONS open ones, or the client's share
   * (GATEWAY_SESSIONS_PER_CLIENT), answers 429 instead, since closing someone else's stream would lose its notifications.
   */
  private holdListen(res: ServerResponse, credentials: Credentials, id: unknown): boolean {
    // Its client left already (its 'close' fired before this): nothing to hold.
    if (res.destroyed) return false;
    const client = clientBlock(credentials.ip);
    const full = this.listens.refusal(client, this.listens.size, this.maxListens);
    if (full) {
      const error = { code: -32000, message: `${full.whose} ${full.limit} subscriptions/listen streams open, the most it may: close one (one stream can listen to many resources), or retry later.`, data: { reason: 'too_many_streams', limit: full.limit } };
      sendJsonText(res, 429, JSON.stringify({ jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error }), undefined, 'application/json');
      return false;
    }
    this.listens.add(res, client);
    res.once('close', () => this.listens.remove(res));
    return true;
  }

  async close(): Promise<void> {
    await this.handler.close();
  }
}

/** A listed schema's declarations, found once per schema (tools list the same object every time). */
const declared = new WeakMap<object, ReturnType<typeof headerDeclarations>>();
function declarationsOf(schema: Record<string, unknown>): ReturnType<typeof headerDeclarations> {
  let d = declared.get(schema);
  if (!d) declared.set(schema, (d = headerDeclarations(schema)));
  return d;
}
