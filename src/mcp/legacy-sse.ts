// The legacy HTTP+SSE transport (protocol 2024-11-05): GET /mcp/sse opens the stream and announces
// POST /mcp/messages?sessionId=… for the client's messages. Each stream gets its own MCP server. At most
// `maxSessions` streams are held (GATEWAY_MCP_MAX_SSE_SESSIONS): a new one closes the least recently used, whose
// client sees its stream end (and its next message answered 404), as after a dropped connection, and reconnects.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Credentials } from '../registry/types.js';
import { DepthBoundTransport } from './depth-bound-transport.js';

export interface LegacySseOptions {
  maxSessions: number;
  messagesPath: string;
  maxJsonDepth: number;
  credentials(req: IncomingMessage): Credentials;
}

const plain = (res: ServerResponse, status: number, text: string): void => {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(text);
};

export class LegacySseEndpoint {
  private readonly streams = new Map<string, { transport: SSEServerTransport; server: Server }>();

  constructor(
    private readonly factory: (toolsets: string[]) => Server,
    private readonly opts: LegacySseOptions,
  ) {}

  async open(res: ServerResponse, toolsets: string[]): Promise<void> {
    while (this.streams.size >= this.opts.maxSessions) {
      const [oldest, s] = this.streams.entries().next().value!;
      this.streams.delete(oldest);
      await s.server.close().catch(() => undefined);
    }
    const transport = new SSEServerTransport(this.opts.messagesPath, res);
    const server = this.factory(toolsets);
    this.streams.set(transport.sessionId, { transport, server });
    transport.onclose = () => this.streams.delete(transport.sessionId);
    res.on('close', () => void server.close().catch(() => undefined));
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

  get size(): number {
    return this.streams.size;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.streams.values()].map((s) => s.server.close().catch(() => undefined)));
    this.streams.clear();
  }
}
