// Streamable HTTP at POST/GET/DELETE /mcp: 2025-era stateful sessions (Mcp-Session-Id) in a bounded map with
// idle expiry. Validation follows the MCP transport spec: Accept (406), Content-Type (415), JSON (400 -32700),
// session header (400) and unknown session (404), protocol version header (400). A POST that claims the
// 2026-07-28 era goes to the stateless modern endpoint instead (modern-http.ts).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { Credentials } from '../registry/types.js';
import { readBody } from '../http/read-body.js';
import { HttpSessionTransport, isRequest, type ResumeOptions } from './http-transport.js';
import { parseEventId } from './sse-replay.js';
import type { ModernHttpEndpoint } from './modern-http.js';

export interface SessionFactory {
  /** A fresh MCP server for a new session, seeing `toolsets` (empty = all). */
  (toolsets: string[]): Server;
}

export interface StreamableOptions {
  maxSessions: number;
  idleMs: number;
  maxBodyBytes: number;
  credentials(req: IncomingMessage): Credentials;
  /** SSE resumability of the sessions' streams (SEP-1699). */
  resume?: ResumeOptions;
  /** Serves the 2026-07-28 era beside the sessions. */
  modern?: ModernHttpEndpoint;
}

interface Session {
  transport: HttpSessionTransport;
  server: Server;
}

function rpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

const isInitialize = (m: JSONRPCMessage): boolean => 'method' in m && m.method === 'initialize' && 'id' in m;

export class StreamableHttpEndpoint {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly factory: SessionFactory,
    private readonly opts: StreamableOptions,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, Math.max(1000, opts.idleMs / 2)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse, toolsets: string[]): Promise<void> {
    switch (req.method) {
      case 'POST':
        return this.post(req, res, toolsets);
      case 'GET':
        return this.get(req, res);
      case 'DELETE':
        return this.delete(req, res);
      default:
        return rpcError(res, 405, -32000, 'Method not allowed.', { Allow: 'GET, POST, DELETE' });
    }
  }

  private session(req: IncomingMessage, res: ServerResponse): Session | null {
    const id = req.headers['mcp-session-id'];
    if (typeof id !== 'string' || id === '') {
      rpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      return null;
    }
    const s = this.sessions.get(id);
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
    this.sessions.delete(id);
    this.sessions.set(id, s);
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
    const { modern } = this.opts;
    if (modern?.claims(req, raw)) return modern.handle(req, res, raw, { toolsets, credentials: this.opts.credentials(req) });
    const accept = req.headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return rpcError(res, 406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
    }
    const batch = Array.isArray(raw);
    const list = batch ? (raw as unknown[]) : [raw];
    if (list.length === 0 || list.length > 100) return rpcError(res, 400, -32600, 'Invalid Request: empty or oversized batch');
    const messages: JSONRPCMessage[] = [];
    for (const m of list) {
      const parsed = JSONRPCMessageSchema.safeParse(m);
      if (!parsed.success) return rpcError(res, 400, -32700, 'Parse error: Invalid JSON-RPC message');
      messages.push(parsed.data);
    }
    const extra = { authInfo: { token: '', clientId: 'agent-gateway', scopes: [], extra: { credentials: this.opts.credentials(req) } } };

    if (messages.some(isInitialize)) {
      if (messages.length > 1) return rpcError(res, 400, -32600, 'Invalid Request: Only one initialization request is allowed');
      if (req.headers['mcp-session-id']) return rpcError(res, 400, -32600, 'Invalid Request: Server already initialized');
      const s = await this.open(toolsets);
      s.transport.handlePost(messages, batch, res, extra);
      return;
    }
    const s = this.session(req, res);
    if (!s) return;
    for (const m of messages) {
      if (isRequest(m) && s.transport.hasPending((m as { id: string | number }).id)) {
        return rpcError(res, 400, -32600, 'Invalid Request: a request with this id is already in progress');
      }
    }
    s.transport.handlePost(messages, batch, res, extra);
  }

  private get(req: IncomingMessage, res: ServerResponse): void {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) {
      return rpcError(res, 406, -32000, 'Not Acceptable: Client must accept text/event-stream');
    }
    const s = this.session(req, res);
    if (!s) return;
    const last = req.headers['last-event-id'];
    if (typeof last === 'string' && last !== '') {
      if (!s.transport.resumeStream(res, parseEventId(last))) rpcError(res, 400, -32000, `Bad Request: no stream of this session sent event ${last.slice(0, 40)}`);
      return;
    }
    if (!s.transport.openStream(res)) rpcError(res, 409, -32000, 'Conflict: Only one SSE stream is allowed per session');
  }

  private async delete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const s = this.session(req, res);
    if (!s) return;
    await this.drop(s.transport.sessionId);
    res.writeHead(200).end();
  }

  private async open(toolsets: string[]): Promise<Session> {
    while (this.sessions.size >= this.opts.maxSessions) {
      const oldest = this.sessions.keys().next().value as string;
      await this.drop(oldest);
    }
    const transport = new HttpSessionTransport(randomUUID(), this.opts.resume);
    const server = this.factory(toolsets);
    const s = { transport, server };
    this.sessions.set(transport.sessionId, s);
    transport.onclose = () => this.sessions.delete(transport.sessionId);
    await server.connect(transport);
    return s;
  }

  private async drop(id: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    await s.server.close().catch(() => undefined);
  }

  private sweep(): void {
    const cutoff = Date.now() - this.opts.idleMs;
    for (const [id, s] of this.sessions) {
      if (s.transport.lastSeen < cutoff && !s.transport.busy) void this.drop(id);
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await this.opts.modern?.close();
    await Promise.all([...this.sessions.keys()].map((id) => this.drop(id)));
  }
}
