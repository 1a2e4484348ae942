// An MCP transport for one Streamable HTTP session, written straight onto node's ServerResponse.
// The SDK's own transport converts every request to a Web Request and every reply to a ReadableStream
// (through @hono/node-server); this one answers a request with plain JSON and switches that exchange to
// SSE only when the server sends something before the response (progress, logging, nested requests), or when
// a long call's connection is let go (polling, below).
//
// Resumability (SEP-1699), for sessions that negotiated 2025-11-25 or later (older clients cannot take an
// event with empty data): an SSE stream opens with a priming event (an id, `retry`, empty data), every event
// has an id, and a GET with Last-Event-ID replays what followed on that stream and carries the rest of it. With
// `pollAfterMs`, a call still running after that long has its stream closed after the priming event, so no
// connection is held by a long call; the client comes back with Last-Event-ID for the answer.
import type { ServerResponse } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { sendJsonText } from '../http/send.js';
import { SseReplay, type EventId } from './sse-replay.js';

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};
const KEEPALIVE_MS = 25_000;
/** The first revision whose clients reconnect to a closed stream and read an empty priming event. */
const RESUMABLE_SINCE = '2025-11-25';
const STANDALONE = 0;

export interface ResumeOptions {
  /** The `retry` of a priming event: how long a client waits before reconnecting. */
  retryMs: number;
  /** Close a call's stream once it has run this long (the client polls); 0 = never. */
  pollAfterMs: number;
  /** Bytes of events kept for replay (GATEWAY_MCP_REPLAY_BYTES); SseReplay's default when absent. */
  replayBytes?: number;
}

interface Exchange {
  /** Where its events go now: the POST's response, a GET that resumed it, or null while the client is away. */
  res: ServerResponse | null;
  waiting: number;
  batch: boolean;
  responses: JSONRPCMessage[];
  sse: boolean;
  done: boolean;
  /** Its stream number once it is a resumable SSE stream. */
  stream?: number;
  poll?: NodeJS.Timeout;
}

const isResponse = (m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId } =>
  'id' in m && ('result' in m || 'error' in m);

export const isRequest = (m: JSONRPCMessage): boolean => 'method' in m && 'id' in m;

const sseEvent = (m: JSONRPCMessage): string => `event: message\ndata: ${JSON.stringify(m)}\n\n`;

/** The negotiated version, read off the server's answer to initialize. */
const negotiatedVersion = (m: JSONRPCMessage): string | undefined => {
  const r = (m as { result?: { protocolVersion?: unknown; serverInfo?: unknown } }).result;
  return r && typeof r.protocolVersion === 'string' && r.serverInfo ? r.protocolVersion : undefined;
};

export class HttpSessionTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly pending = new Map<RequestId, Exchange>();
  /** Request streams still to finish, by stream number (for a GET that resumes one). */
  private readonly streams = new Map<number, Exchange>();
  private readonly replay: SseReplay;
  /** Tool calls the gateway answers beside the SDK's Protocol (session-direct.ts), by id: how to stop each. */
  private readonly direct = new Map<RequestId, AbortController>();
  /** Requests fed in by the gateway itself (a session rebuilt on this instance): their answers go nowhere. */
  private readonly internal = new Map<RequestId, () => void>();
  private nextStream = STANDALONE + 1;
  private standalone: ServerResponse | null = null;
  private keepalive: NodeJS.Timeout | null = null;
  private closed = false;
  private version?: string;
  lastSeen = Date.now();

  constructor(
    readonly sessionId: string,
    private readonly resume: ResumeOptions = { retryMs: 1000, pollAfterMs: 0 },
  ) {
    this.replay = new SseReplay(resume.replayBytes);
  }

  async start(): Promise<void> {}

  get busy(): boolean {
    return this.pending.size > 0 || this.standalone !== null;
  }

  /** Whether the standalone GET stream is open on this instance. */
  get streaming(): boolean {
    return this.standalone !== null;
  }

  /** Whether this session's streams carry event ids (the client negotiated a revision that resumes them). */
  get resumable(): boolean {
    return this.version !== undefined && this.version >= RESUMABLE_SINCE;
  }

  /** True when an id of `messages` is still waiting for its response in this session. */
  hasPending(id: RequestId): boolean {
    return this.pending.has(id);
  }

  /**
   * A tool call the gateway answers itself (session-direct.ts), beside the SDK's Protocol: an exchange on `res` like
   * a POST's (pending, let go and resumed as one), whose answer comes to `send`. A hang-up, a cancellation naming it
   * or the session's end aborts the returned signal, where the SDK would abort its handler's.
   */
  handleDirect(id: RequestId, res: ServerResponse): AbortSignal {
    const abort = new AbortController();
    this.direct.set(id, abort);
    this.exchange([id], false, res, () => abort.abort());
    return abort.signal;
  }

  /** A direct call that was aborted ends without an answer, as a cancelled request does in the SDK. */
  dropDirect(id: RequestId): void {
    this.direct.delete(id);
  }

  /**
   * Feeds `messages` to the server as if the client had sent them and resolves once each request among them is
   * answered, discarding the answers: a session rebuilt on this instance replays its initialize request.
   */
  async replayInternally(messages: JSONRPCMessage[]): Promise<void> {
    for (const m of messages) {
      if (isRequest(m)) {
        const id = (m as { id: RequestId }).id;
        await new Promise<void>((resolve) => {
          this.internal.set(id, resolve);
          this.onmessage?.(m);
        });
      } else this.onmessage?.(m);
    }
  }

  /** Dispatches validated messages of one POST; replies on `res` once every request in it is answered. */
  handlePost(messages: JSONRPCMessage[], batch: boolean, res: ServerResponse, extra: MessageExtraInfo): void {
    if (this.direct.size > 0) for (const m of messages) this.cancelDirect(m);
    const requests = messages.filter(isRequest).map((m) => (m as { id: RequestId }).id);
    if (requests.length === 0) {
      this.lastSeen = Date.now();
      res.writeHead(202, { 'mcp-session-id': this.sessionId }).end();
      for (const m of messages) this.onmessage?.(m, extra);
      return;
    }
    // A client that hangs up no longer wants the answer: the work stops as if it had sent a cancellation.
    this.exchange(requests, batch, res, (id) =>
      this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'The client closed the response stream.' } }),
    );
    for (const m of messages) this.onmessage?.(m, extra);
  }

  /** The exchange of a POST carrying `requests`: answered on `res` once each is; `hungUp` stops one whose client left. */
  private exchange(requests: RequestId[], batch: boolean, res: ServerResponse, hungUp: (id: RequestId) => void): void {
    this.lastSeen = Date.now();
    const ex: Exchange = { res, waiting: requests.length, batch, responses: [], sse: false, done: false };
    for (const id of requests) this.pending.set(id, ex);
    res.on('close', () => {
      // The server let go of it (polling), or a GET took it over: the client is coming back, nothing to cancel.
      if (ex.done || ex.res !== res) return;
      if (ex.stream !== undefined) {
        // A resumable stream's connection dropping is not a cancellation (2025-11-25): the client may resume it.
        ex.res = null;
        return;
      }
      ex.done = true;
      for (const id of requests) {
        if (this.pending.get(id) !== ex) continue;
        this.pending.delete(id);
        hungUp(id);
      }
    });
    if (this.resumable && this.resume.pollAfterMs > 0) {
      ex.poll = setTimeout(() => this.letGo(ex), this.resume.pollAfterMs);
      ex.poll.unref();
    }
  }

  /** A cancellation of a call answered beside the SDK aborts it (the SDK's Protocol never saw that call). */
  private cancelDirect(m: JSONRPCMessage): void {
    if (!('method' in m) || m.method !== 'notifications/cancelled') return;
    const id = (m.params as { requestId?: RequestId } | undefined)?.requestId;
    if (id !== undefined) this.direct.get(id)?.abort();
  }

  /** Closes a long call's connection after its priming event; the answer waits for the client's GET. */
  private letGo(ex: Exchange): void {
    if (ex.done || !ex.res) return;
    if (!ex.sse) this.switchToSse(ex);
    const res = ex.res;
    ex.res = null;
    res.end();
  }

  /** Opens the standalone SSE stream for server-initiated messages; false when one is already open. */
  openStream(res: ServerResponse): boolean {
    if (this.standalone) return false;
    this.lastSeen = Date.now();
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId });
    res.flushHeaders();
    if (this.resumable) res.write(this.priming(STANDALONE));
    this.attachStandalone(res);
    return true;
  }

  /**
   * A GET with Last-Event-ID (`id`): replays what followed it on its stream, then carries the rest of it
   * (a request stream until its answer, the standalone stream for good). False when the id is not this session's.
   */
  resumeStream(res: ServerResponse, id: EventId | null): boolean {
    if (!this.resumable || !id || !this.replay.knows(id)) return false;
    this.lastSeen = Date.now();
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId });
    for (const frame of this.replay.since(id)) res.write(frame);
    if (id.stream === STANDALONE) {
      // The client is back on its standalone stream: any old connection to it is dead.
      const old = this.standalone;
      this.dropStream();
      old?.end();
      this.attachStandalone(res);
      return true;
    }
    const ex = this.streams.get(id.stream);
    if (!ex || ex.done) {
      res.end();
      return true;
    }
    const previous = ex.res;
    ex.res = res;
    previous?.end();
    res.on('close', () => {
      if (ex.res === res) ex.res = null;
    });
    return true;
  }

  private attachStandalone(res: ServerResponse): void {
    this.standalone = res;
    this.keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    this.keepalive.unref();
    res.on('close', () => {
      if (this.standalone === res) this.dropStream();
    });
  }

  private dropStream(): void {
    if (this.keepalive) clearInterval(this.keepalive);
    this.keepalive = null;
    this.standalone = null;
  }

  private priming(stream: number): string {
    return this.replay.frame(stream, '', `retry: ${this.resume.retryMs}\n`);
  }

  /** One event of `stream`: with an id (kept for replay) when the session resumes streams. */
  private event(stream: number | undefined, m: JSONRPCMessage): string {
    return stream === undefined ? sseEvent(m) : this.replay.frame(stream, JSON.stringify(m), 'event: message\n');
  }

  /** Kept for replay even while the client is away (its stream let go or dropped), written when it is there. */
  private deliver(ex: Exchange, m: JSONRPCMessage): void {
    const frame = this.event(ex.stream, m);
    ex.res?.write(frame);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.closed) return;
    if (isResponse(message)) {
      this.version ??= negotiatedVersion(message);
      const internal = this.internal.get(message.id);
      if (internal) {
        this.internal.delete(message.id);
        internal();
        return;
      }
      this.direct.delete(message.id);
      const ex = this.pending.get(message.id);
      if (!ex) return; // the client went away; nothing to deliver to
      this.pending.delete(message.id);
      ex.waiting--;
      if (ex.sse) this.deliver(ex, message);
      else ex.responses.push(message);
      if (ex.waiting === 0) this.finish(ex);
      return;
    }
    const related = options?.relatedRequestId;
    const ex = related !== undefined ? this.pending.get(related) : undefined;
    if (ex && !ex.done) {
      if (!ex.sse) this.switchToSse(ex);
      this.deliver(ex, message);
      return;
    }
    if (!this.resumable) {
      this.standalone?.write(sseEvent(message));
      return;
    }
    // Kept while no standalone stream is open too: a client reconnecting with Last-Event-ID gets what it missed.
    const frame = this.event(STANDALONE, message);
    this.standalone?.write(frame);
  }

  private switchToSse(ex: Exchange): void {
    ex.sse = true;
    ex.res!.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId });
    if (this.resumable) {
      ex.stream = this.nextStream++;
      this.streams.set(ex.stream, ex);
      ex.res!.write(this.priming(ex.stream));
    }
    for (const r of ex.responses) ex.res!.write(this.event(ex.stream, r));
    ex.responses = [];
  }

  private finish(ex: Exchange): void {
    ex.done = true;
    if (ex.poll) clearTimeout(ex.poll);
    if (ex.stream !== undefined) {
      this.streams.delete(ex.stream);
      this.replay.finish(ex.stream);
    }
    if (ex.sse) {
      // A client away (polling) reads the answer from the replay when it comes back.
      ex.res?.end();
      return;
    }
    sendJsonText(ex.res!, 200, JSON.stringify(ex.batch ? ex.responses : ex.responses[0]), { 'mcp-session-id': this.sessionId }, 'application/json');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const ex of new Set(this.pending.values())) {
      if (!ex.done) {
        ex.done = true;
        if (ex.poll) clearTimeout(ex.poll);
        if (ex.sse) ex.res?.end();
        else ex.res?.destroy();
      }
    }
    this.pending.clear();
    for (const abort of this.direct.values()) abort.abort();
    this.direct.clear();
    this.streams.clear();
    const stream = this.standalone;
    this.dropStream();
    stream?.end();
    this.onclose?.();
  }
}
