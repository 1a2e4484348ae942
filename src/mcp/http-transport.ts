// An MCP transport for one Streamable HTTP session, written straight onto node's ServerResponse.
// The SDK's own transport converts every request to a Web Request and every reply to a ReadableStream
// (through @hono/node-server); this one answers a request with plain JSON and switches that exchange to
// SSE only when the server sends something before the response (progress, logging, nested requests).
import type { ServerResponse } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};
const KEEPALIVE_MS = 25_000;

interface Exchange {
  res: ServerResponse;
  waiting: number;
  batch: boolean;
  responses: JSONRPCMessage[];
  sse: boolean;
  done: boolean;
}

const isResponse = (m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId } =>
  'id' in m && ('result' in m || 'error' in m);

export const isRequest = (m: JSONRPCMessage): boolean => 'method' in m && 'id' in m;

const sseEvent = (m: JSONRPCMessage): string => `event: message\ndata: ${JSON.stringify(m)}\n\n`;

export class HttpSessionTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly pending = new Map<RequestId, Exchange>();
  private standalone: ServerResponse | null = null;
  private keepalive: NodeJS.Timeout | null = null;
  private closed = false;
  lastSeen = Date.now();

  constructor(readonly sessionId: string) {}

  async start(): Promise<void> {}

  get busy(): boolean {
    return this.pending.size > 0 || this.standalone !== null;
  }

  /** True when an id of `messages` is still waiting for its response in this session. */
  hasPending(id: RequestId): boolean {
    return this.pending.has(id);
  }

  /** Dispatches validated messages of one POST; replies on `res` once every request in it is answered. */
  handlePost(messages: JSONRPCMessage[], batch: boolean, res: ServerResponse, extra: MessageExtraInfo): void {
    this.lastSeen = Date.now();
    const requests = messages.filter(isRequest) as (JSONRPCMessage & { id: RequestId })[];
    if (requests.length === 0) {
      res.writeHead(202, { 'mcp-session-id': this.sessionId }).end();
      for (const m of messages) this.onmessage?.(m, extra);
      return;
    }
    const ex: Exchange = { res, waiting: requests.length, batch, responses: [], sse: false, done: false };
    for (const r of requests) this.pending.set(r.id, ex);
    res.on('close', () => {
      if (ex.done) return;
      ex.done = true;
      for (const r of requests) {
        if (this.pending.get(r.id) !== ex) continue;
        this.pending.delete(r.id);
        // A client that hangs up no longer wants the answer: the work stops as if it had sent a cancellation.
        this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: r.id, reason: 'The client closed the response stream.' } });
      }
    });
    for (const m of messages) this.onmessage?.(m, extra);
  }

  /** Opens the standalone SSE stream for server-initiated messages; false when one is already open. */
  openStream(res: ServerResponse): boolean {
    if (this.standalone) return false;
    this.lastSeen = Date.now();
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId });
    res.flushHeaders();
    this.standalone = res;
    this.keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    this.keepalive.unref();
    res.on('close', () => {
      if (this.standalone === res) this.dropStream();
    });
    return true;
  }

  private dropStream(): void {
    if (this.keepalive) clearInterval(this.keepalive);
    this.keepalive = null;
    this.standalone = null;
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.closed) return;
    if (isResponse(message)) {
      const ex = this.pending.get(message.id);
      if (!ex) return; // the client went away; nothing to deliver to
      this.pending.delete(message.id);
      ex.waiting--;
      if (ex.sse) ex.res.write(sseEvent(message));
      else ex.responses.push(message);
      if (ex.waiting === 0) this.finish(ex);
      return;
    }
    const related = options?.relatedRequestId;
    const ex = related !== undefined ? this.pending.get(related) : undefined;
    if (ex && !ex.done) {
      if (!ex.sse) this.switchToSse(ex);
      ex.res.write(sseEvent(message));
      return;
    }
    this.standalone?.write(sseEvent(message));
  }

  private switchToSse(ex: Exchange): void {
    ex.sse = true;
    ex.res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId });
    for (const r of ex.responses) ex.res.write(sseEvent(r));
    ex.responses = [];
  }

  private finish(ex: Exchange): void {
    ex.done = true;
    if (ex.sse) {
      ex.res.end();
      return;
    }
    const body = JSON.stringify(ex.batch ? ex.responses : ex.responses[0]);
    ex.res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'mcp-session-id': this.sessionId,
    });
    ex.res.end(body);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const ex of new Set(this.pending.values())) {
      if (!ex.done) {
        ex.done = true;
        if (ex.sse) ex.res.end();
        else ex.res.destroy();
      }
    }
    this.pending.clear();
    const stream = this.standalone;
    this.dropStream();
    stream?.end();
    this.onclose?.();
  }
}
