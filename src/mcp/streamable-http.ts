// Streamable HTTP at POST/GET/DELETE /mcp: 2025-era stateful sessions (Mcp-Session-Id) in a bounded map with
// idle expiry. With a session store (the database, shared by every gateway instance) a session this instance
// does not hold is rebuilt from its row, so no sticky load balancing is needed (docs/decisions/mcp-sessions-shared.md).
// Validation follows the MCP transport spec: Accept (406), Content-Type (415), JSON (400 -32700),
// session header (400) and unknown session (404), protocol version header (400). A POST that claims the
// 2026-07-28 era goes to the stateless modern endpoint instead (modern-http.ts).
import { depthWithin, JsonTooDeepError } from '../json-depth.js';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Credentials } from '../registry/types.js';
import { readBody } from '../http/read-body.js';
import type { Refusal } from './scope-preflight.js';
import { sendJsonText } from '../http/send.js';
import { HttpSessionTransport, isRequest, type ResumeOptions } from './http-transport.js';
import { parseEventId } from './sse-replay.js';
import { namesModernRevision, type ModernHttpEndpoint } from './modern-http.js';
import { plainToolCallOf, type SessionState } from './server.js';
import type { PlainCall } from './plain-call.js';
import { mayAsk } from './input-requests.js';
import { answerOnSession, plainSessionCall } from './session-direct.js';
import { SessionChanges } from './session-changes.js';
import { initializeTooLarge } from './initialize-size.js';
import type { McpSessionStore, StoredSession } from '../store/mcp-sessions.js';
import { requestIdOf, rpcError } from './http-rpc-error.js';
import { storedSessionState } from './stored-session-state.js';
import { clientBlock } from '../auth/client-key.js';
import { ClientShares, tooManyOpening } from '../client-share.js';

export interface SessionFactory {
  /** A fresh MCP server for a new session, seeing `toolsets` (tool-surface.ts), with its shared state when stored. */
  (toolsets: string[], state?: SessionState): Server;
}

/**
 * How long a held session is served from memory before its row is read again (closed or expired elsewhere, a
 * login or subscription made through another instance) and marked seen: one awaited read (and a write not
 * waited for) per session per this interval, never one per request; sooner after a change was signalled
 * (session-changes.ts).
 */
export const SHARED_CHECK_MS = 1000;
/** The ids this endpoint mints (UUIDs): any other id is unknown without a lookup. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The id of the replayed initialize request of a rebuilt session (its answer is discarded). */
const REPLAY_ID = 'gateway-rebuild-initialize';

export interface StreamableOptions {
  maxSessions: number;
  /** Sessions one client address holds here; past it, its new session closes its own least recently used. */
  perClient: number;
  idleMs: number;
  maxBodyBytes: number;
  maxJsonDepth: number;
  credentials(req: IncomingMessage): Credentials;
  /** SSE resumability of the sessions' streams (SEP-1699). */
  resume?: ResumeOptions;
  /** Serves the 2026-07-28 era beside the sessions. */
  modern?: ModernHttpEndpoint;
  /** Session state in the database, shared by the instances; without it sessions live in this process only. */
  store?: McpSessionStore;
  /** Hears failures of background store writes (seen_at, pruning). */
  onStoreError?: (err: unknown) => void;
  /** Answers a request before any MCP server sees it (a signed-in call outside its token's scopes: scope-preflight.ts). */
  refuse?(req: IncomingMessage, raw: unknown): Refusal | null;
}

interface Session {
  transport: HttpSessionTransport;
  server: Server;
  state?: SessionState;
  /** When its row was last confirmed open (and marked seen). */
  checkedAt: number;
}

/** A session this instance would rebuild for a client past its share, with nothing of its own to close. */
const REFUSED = Symbol('refused');

const isInitialize = (m: JSONRPCMessage): boolean => 'method' in m && m.method === 'initialize' && 'id' in m;

export class StreamableHttpEndpoint {
  private readonly sessions = new Map<string, Session>();
  /** Who opened (or, for a session rebuilt here, first used) each held session. */
  private readonly shares: ClientShares<string>;
  /** Rebuilds under way, so concurrent first requests on this instance share one. */
  private readonly restoring = new Map<string, Promise<Session | null | typeof REFUSED>>();
  private readonly sweeper: NodeJS.Timeout;
  /** Session changes made through other instances, heard while copies are held here. */
  private readonly changes?: SessionChanges;

  constructor(
    private readonly factory: SessionFactory,
    private readonly opts: StreamableOptions,
  ) {
    this.shares = new ClientShares(opts.perClient);
    this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, Math.max(1000, opts.idleMs / 2)));
    this.sweeper.unref();
    if (opts.store) this.changes = new SessionChanges(opts.store, this.sessions, opts.onStoreError);
  }

  get size(): number {
    return this.sessions.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse, toolsets: string[]): Promise<void> {
    switch (req.method) {
      case 'POST':
        return this.post(req, res, toolsets);
      case 'GET':
        // The 2026-07-28 revision has no GET stream: its notifications come over POST (subscriptions/listen).
        if (namesModernRevision(req)) return rpcError(res, 405, -32000, 'Method Not Allowed: this protocol revision opens no GET stream; use POST.', { Allow: 'POST' });
        return this.get(req, res);
      case 'DELETE':
        return this.delete(req, res);
      default:
        return rpcError(res, 405, -32000, 'Method not allowed.', { Allow: 'GET, POST, DELETE' });
    }
  }

  private async session(req: IncomingMessage, res: ServerResponse): Promise<Session | null> {
    const id = req.headers['mcp-session-id'];
    if (typeof id !== 'string' || id === '') {
      rpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      return null;
    }
    const s = await this.find(id, req);
    if (s === REFUSED) {
      rpcError(res, 429, -32000, tooManyOpening('sessions', this.opts.perClient));
      return null;
    }
    if (!s) {
      rpcError(res, 404, -32001, 'Session not found');
      return null;
    }
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      rpcError(res, 400, -32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
      return null;
    }
    // Most recently used last, so eviction takes the least recently used.
    if (this.sessions.get(id) === s) {
      this.sessions.delete(id);
      this.sessions.set(id, s);
    }
    // Whom its notifications are checked for (server.ts): the caller as of this request, its GET stream's too.
    if (s.state) s.state.seenAs = this.opts.credentials(req);
    return s;
  }

  /**
   * The session of `id`: held here (its row checked at most every SHARED_CHECK_MS, so one closed or expired on
   * another instance ends here too), or rebuilt from the store; null when there is none.
   */
  private async find(id: string, req: IncomingMessage): Promise<Session | null | typeof REFUSED> {
    const { store } = this.opts;
    const held = this.sessions.get(id);
    if (held) {
      const now = Date.now();
      if (!store || (this.changes?.trusted && now - held.checkedAt < SHARED_CHECK_MS)) return held;
      held.checkedAt = now;
      try {
        // Closed or expired elsewhere ends it here; a login or subscription made through another copy reaches this one.
        const stored = await store.load(id);
        if (!stored) {
          await this.drop(id, false);
          return null;
        }
        held.state?.syncLogin?.(stored.login);
        held.state?.syncToolsets?.(stored.toolsets);
        await held.state?.adopt?.(stored.subscriptions);
      } catch (err) {
        // The database is unreachable: the copy held here goes on serving.
        this.opts.onStoreError?.(err);
      }
      return held;
    }
    if (!store || !SESSION_ID.test(id)) return null;
    let p = this.restoring.get(id);
    if (!p) {
      p = this.rebuild(id, store, req).finally(() => this.restoring.delete(id));
      this.restoring.set(id, p);
    }
    return p;
  }

  /**
   * A session opened on another instance (or before a restart): a fresh server under the same id, initialized by
   * replaying the stored initialize request and the initialized notification, with its login and subscriptions.
   */
  private async rebuild(id: string, store: McpSessionStore, req: IncomingMessage): Promise<Session | null | typeof REFUSED> {
    const heard = this.changes?.heard;
    const stored = await store.load(id);
    if (!stored || this.sessions.has(id)) return this.sessions.get(id) ?? null;
    const s = await this.openFor(req, id, stored.toolsets, stored, false);
    // Its client past its share with nothing of its own to close: not served here now (429; the session lives on).
    if (!s) return REFUSED;
    // A change heard while the row was read may be newer than what was read.
    if (this.changes?.heard !== heard) s.checkedAt = 0;
    try {
      await s.transport.replayInternally([
        { jsonrpc: '2.0', id: REPLAY_ID, method: 'initialize', params: stored.init as never },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
      ]);
      await s.state?.ready;
    } catch (err) {
      await this.drop(id, false);
      throw err;
    }
    return s;
  }

  private async post(req: IncomingMessage, res: ServerResponse, toolsets: string[]): Promise<void> {
    const ct = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (ct !== 'application/json') {
      return rpcError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    }
    const body = await readBody(req, this.opts.maxBodyBytes);
    if (body === null) return rpcError(res, 413, -32000, `Payload Too Large: the body exceeds ${this.opts.maxBodyBytes} bytes`);
    let raw: unknown;
    try {
      raw = JSON.parse(body);
    } catch {
      return rpcError(res, 400, -32700, 'Parse error: Invalid JSON');
    }
    if (depthWithin(raw, this.opts.maxJsonDepth) === null) return rpcError(res, 400, -32602, `Invalid params: ${new JsonTooDeepError(this.opts.maxJsonDepth).message}`, {}, requestIdOf(raw));
    const refused = this.opts.refuse?.(req, raw);
    if (refused) return sendJsonText(res, refused.status, refused.body, refused.headers, 'application/json');
    const { modern } = this.opts;
    const claimed = modern?.claims(req, raw);
    if (claimed) return modern!.handle(req, res, raw, { toolsets, credentials: this.opts.credentials(req) }, claimed);
    const accept = req.headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return rpcError(res, 406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
    }
    const plain = plainSessionCall(raw);
    if (plain) return this.callOnSession(req, res, plain, raw as JSONRPCMessage);
    const batch = Array.isArray(raw);
    const list = batch ? (raw as unknown[]) : [raw];
    if (list.length === 0 || list.length > 100) return rpcError(res, 400, -32600, 'Invalid Request: empty or oversized batch');
    const messages: JSONRPCMessage[] = [];
    for (const m of list) {
      const parsed = JSONRPCMessageSchema.safeParse(m);
      if (!parsed.success) return rpcError(res, 400, -32700, 'Parse error: Invalid JSON-RPC message');
      messages.push(parsed.data);
    }

    if (messages.some(isInitialize)) {
      if (messages.length > 1) return rpcError(res, 400, -32600, 'Invalid Request: Only one initialization request is allowed');
      if (req.headers['mcp-session-id']) return rpcError(res, 400, -32600, 'Invalid Request: Server already initialized');
      // A malformed initialize opens no session (the server would refuse it, after the session was stored).
      const params = (messages[0] as { params?: unknown }).params;
      if (params === null || typeof params !== 'object' || typeof (params as { protocolVersion?: unknown }).protocolVersion !== 'string') {
        return rpcError(res, 400, -32602, 'Invalid params for initialize: params must be an object with protocolVersion, capabilities and clientInfo');
      }
      const tooLarge = initializeTooLarge(messages[0] as { method: string; params: unknown });
      if (tooLarge) return rpcError(res, 400, -32602, tooLarge, {}, requestIdOf(messages[0]));
      const id = randomUUID();
      const init = ((messages[0] as { params?: Record<string, unknown> }).params ?? {}) as Record<string, unknown>;
      const s = await this.openFor(req, id, toolsets, this.opts.store ? { toolsets, init, subscriptions: [] } : undefined, true);
      if (!s) return rpcError(res, 429, -32000, tooManyOpening('sessions', this.opts.perClient), {}, requestIdOf(messages[0]));
      s.transport.handlePost(messages, batch, res, this.extra(req));
      return;
    }
    const s = await this.session(req, res);
    if (!s) return;
    this.dispatch(s, req, res, messages, batch);
  }

  /** What the SDK's handlers get with a message: the request's credentials (server.ts reads them there). */
  private extra(req: IncomingMessage) {
    return { authInfo: { token: '', clientId: 'agent-gateway', scopes: [], extra: { credentials: this.opts.credentials(req) } } };
  }

  /** Messages of one POST on an open session, through the SDK. */
  private dispatch(s: Session, req: IncomingMessage, res: ServerResponse, messages: JSONRPCMessage[], batch: boolean): void {
    for (const m of messages) {
      if (isRequest(m) && s.transport.hasPending((m as { id: string | number }).id)) {
        return rpcError(res, 400, -32600, 'Invalid Request: a request with this id is already in progress');
      }
    }
    s.transport.handlePost(messages, batch, res, this.extra(req));
  }

  /** One plain tools/call: answered beside the SDK (session-direct.ts) unless its client may be asked something. */
  private async callOnSession(req: IncomingMessage, res: ServerResponse, call: PlainCall, message: JSONRPCMessage): Promise<void> {
    const s = await this.session(req, res);
    if (!s) return;
    const plain = plainToolCallOf(s.server);
    if (!plain || mayAsk(s.server.getClientCapabilities() as Record<string, unknown> | undefined, plain.asks(call.name))) return this.dispatch(s, req, res, [message], false);
    if (s.transport.hasPending(call.id)) return rpcError(res, 400, -32600, 'Invalid Request: a request with this id is already in progress');
    await answerOnSession(s.transport, res, plain.run, call, this.opts.credentials(req));
  }

  private async get(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) {
      return rpcError(res, 406, -32000, 'Not Acceptable: Client must accept text/event-stream');
    }
    const s = await this.session(req, res);
    if (!s) return;
    const last = req.headers['last-event-id'];
    if (typeof last === 'string' && last !== '') {
      if (!s.transport.resumeStream(res, parseEventId(last))) rpcError(res, 400, -32000, `Bad Request: no stream of this session sent event ${last.slice(0, 40)}`);
      return;
    }
    if (!s.transport.openStream(res)) rpcError(res, 409, -32000, 'Conflict: Only one SSE stream is allowed per session');
  }

  private async delete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const id = req.headers['mcp-session-id'];
    if (typeof id !== 'string' || id === '') return rpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    const { store } = this.opts;
    if (this.sessions.has(id)) await this.drop(id, true);
    // Not held here: closed in the store without rebuilding it first.
    else if (!store || !SESSION_ID.test(id) || !(await store.close(id))) return rpcError(res, 404, -32001, 'Session not found');
    res.writeHead(200).end();
  }

  /**
   * Serves session `id` here for the request's client: counted before any await (so concurrent opens see each other), past its
   * share ending the client's own least recently used session (never another client's), a new one stored before the
   * answer (so its next request finds it on any instance). Null: refused, nothing counted or stored.
   */
  private async openFor(req: IncomingMessage, id: string, toolsets: string[], stored: StoredSession | undefined, isNew: boolean): Promise<Session | null> {
    const claim = this.shares.claim(id, clientBlock(this.opts.credentials(req).ip), this.sessions.keys());
    if (!claim) return null;
    try {
      if (claim.close) await this.drop(claim.close, true);
      if (isNew && stored) await this.opts.store?.create(id, toolsets, stored.init);
      return await this.open(id, toolsets, stored);
    } catch (err) {
      this.shares.remove(id);
      throw err;
    }
  }

  private async open(id: string, toolsets: string[], stored?: StoredSession): Promise<Session> {
    while (this.sessions.size >= this.opts.maxSessions) {
      const oldest = this.sessions.keys().next().value as string;
      // The cap ends the session (for every instance), as it did when sessions lived in one process.
      await this.drop(oldest, true);
    }
    const { store } = this.opts;
    const state = store && stored ? storedSessionState(store, id, stored) : undefined;
    const transport = new HttpSessionTransport(id, this.opts.resume);
    const server = this.factory(toolsets, state);
    const s = { transport, server, checkedAt: Date.now(), state };
    this.sessions.set(id, s);
    this.changes?.start();
    transport.onclose = () => {
      if (this.sessions.get(id) !== s) return;
      this.sessions.delete(id);
      this.shares.remove(id);
    };
    try {
      await server.connect(transport);
    } catch (err) {
      if (this.sessions.get(id) === s) this.sessions.delete(id);
      throw err;
    }
    return s;
  }

  /** Drops this instance's copy of a session; `end` also closes it in the store (DELETE, the cap). */
  private async drop(id: string, end: boolean): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    this.shares.remove(id);
    if (end) await this.opts.store?.close(id).catch((err: unknown) => this.opts.onStoreError?.(err));
    await s.server.close().catch(() => undefined);
  }

  /**
   * Drops copies idle here (the row lives on: another instance may be serving the session, and this one rebuilds
   * it if it comes back); marks sessions with an open stream seen, so a session that only listens stays alive.
   */
  private sweep(): void {
    const now = Date.now();
    const cutoff = now - this.opts.idleMs;
    const { store } = this.opts;
    for (const [id, s] of this.sessions) {
      if (s.transport.lastSeen < cutoff && !s.transport.busy) void this.drop(id, false);
      else if (store && s.transport.busy && now - s.checkedAt >= SHARED_CHECK_MS) {
        void store.touch(id).catch((err: unknown) => this.opts.onStoreError?.(err));
      }
    }
    this.changes?.idle();
    void store?.prune().catch((err: unknown) => this.opts.onStoreError?.(err));
  }

  /** Stops this instance's copies; the sessions themselves live on in the store (a restart keeps them). */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    this.changes?.close();
    await this.opts.modern?.close();
    await Promise.all([...this.sessions.keys()].map((id) => this.drop(id, false)));
  }
}
