// The legacy HTTP+SSE transport (protocol 2024-11-05): GET /mcp/sse opens the stream and announces
// POST /mcp/messages?sessionId=… for the client's messages. Each stream gets its own MCP server. At most
// `maxSessions` streams are held (GATEWAY_MCP_MAX_SSE_SESSIONS): a new one closes the least recently used, whose
// client sees its stream end (and its next message answered 404), as after a dropped connection, and reconnects.
// One client address holds at most `perClient` of them (GATEWAY_SESSIONS_PER_CLIENT): past that, its new stream
// closes its own least recently used one, never another client's.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Credentials } from '../registry/types.js';
import { DepthBoundTransport } from './depth-bound-transport.js';
import { clientBlock } from '../auth/client-key.js';
import { ClientShares, tooManyOpening } from '../client-share.js';

export interface LegacySseOptions {
  maxSessions: number;
  perClient: number;
  messagesPath: string;
  maxJsonDepth: number;
  credentials(req: IncomingMessage): Credentials;
}

const plain = (res: ServerResponse, status: number, text: string): void => {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(text);
};

export class LegacySseEndpoint {
  private readonly streams = new Map<string, { transport: SSEServerTransport; server: Server }>();
  private readonly shares: ClientShares<string>;

  constructor(
    private readonly factory: (toolsets: string[]) => Server,
    private readonly opts: LegacySseOptions,
  ) {
    this.shares = new ClientShares(opts.perClient);
  }

  async open(req: IncomingMessage, res: ServerResponse, toolsets: string[]): Promise<void> {
    // Its client left already, while the endpoint loaded: its 'close' fired before a listener could hear it.
    if (res.destroyed) return;
    const transport = new SSEServerTransport(this.opts.messagesPath, res);
    const id = transport.sessionId;
    // Counted for its client before anything is awaited, so concurrent opens of one client see each other.
    const claim = this.shares.claim(id, clientBlock(this.opts.credentials(req).ip), this.streams.keys());
    if (!claim) return plain(res, 429, tooManyOpening('streams', this.shares.perClient));
    // The stream's end (its client gone, or closed here) leaves the table. Not through transport.onclose: the
    // depth-bound wrapper below takes that hook over, which once kept every closed stream held until evicted.
    let gone = false;
    res.on('close', () => {
      gone = true;
      void this.close(id);
    });
    if (claim.close) await this.close(claim.close);
    while (this.streams.size >= this.opts.maxSessions) await this.close(this.streams.keys().next().value!);
    if (gone) return; // its client left meanwhile, and was uncounted
    const server = this.factory(toolsets);
    this.streams.set(id, { transport, server });
    await server.connect(new DepthBoundTransport(transport, this.opts.maxJsonDepth) as unknown as SSEServerTransport);
  }

  async message(req: IncomingMessage, res: ServerResponse, sessionId: string | null): Promise<void> {
    const s = sessionId ? this.streams.get(sessionId) : undefined;
    if (!s) return plain(res, 404, 'Unknown or expired sessionId: open GET /mcp/sse first.');
    // Most recently used last, so the cap closes the least recently used.
    this.streams.delete(sessionId!);
    this.streams.set(sessionId!, s);
    (req as IncomingMessage & { auth?: unknown }).auth = {
      token: '',
      clientId: 'agent-gateway',
      scopes: [],
      extra: { credentials: this.opts.credentials(req) },
    };
    await s.transport.handlePostMessage(req, res);
  }

  private async close(id: string): Promise<void> {
    const s = this.streams.get(id);
    this.streams.delete(id);
    this.shares.remove(id);
    await s?.server.close().catch(() => undefined);
  }

  get size(): number {
    return this.streams.size;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.streams.values()].map((s) => s.server.close().catch(() => undefined)));
    this.streams.clear();
  }
}
