// One A2A event stream. How each event is framed is the binding's: over JSON-RPC every `data:` line is a full
// JSON-RPC response carrying the request's id; over HTTP+JSON it is the StreamResponse itself, and an error is an
// `event: error` (or, before the first event, a plain HTTP error response). The stream ends after a status-update
// with final: true or after a Message (an answer that made no task), after an error, or when the client goes away.
import type { ServerResponse } from 'node:http';
import { rpcError, rpcResultText, type RpcId } from './jsonrpc.js';
import type { SseEvent } from './types.js';

/** A comment line now and then keeps proxies from cutting a stream that waits for a long job. */
const KEEP_ALIVE_MS = 15_000;

export interface SseFraming {
  /** The SSE frame of one event, already shaped for the protocol version. */
  event(payload: unknown): string;
  error(err: unknown): string;
  /** An error before anything was streamed, answered as a plain response instead (HTTP+JSON). */
  refuse?(res: ServerResponse, err: unknown): void;
}

export const jsonRpcFraming = (id: RpcId): SseFraming => ({
  event: (payload) => `data: ${rpcResultText(id, payload)}\n\n`,
  error: (err) => `data: ${JSON.stringify(rpcError(id, err))}\n\n`,
});

/**
 * Run before each later event is written: the error that ends the stream instead (its caller's credentials no longer
 * act for the agent that opened it), or null.
 */
export type StreamCheck = () => Promise<unknown>;

export class SseStream {
  private closed = false;
  private begun = false;
  private readonly timer: NodeJS.Timeout;
  /** Once armed, events, errors and the end are written in the order they came, each after the checks before it. */
  private queue: Promise<void> = Promise.resolve();
  private check: StreamCheck | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly framing: SseFraming,
    private readonly shape: (e: SseEvent) => unknown,
    onClose: () => void,
  ) {
    this.timer = setInterval(() => this.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    this.timer.unref();
    const close = () => {
      this.closed = true;
      clearInterval(this.timer);
    };
    // A client gone before the stream began (during the caller's lookup) fired 'close' already: the stream is closed
    // now, and its opener hears so once it has counted it, rather than hold its slot for ever.
    if (res.destroyed) {
      close();
      queueMicrotask(onClose);
    } else res.on('close', () => (close(), onClose()));
  }

  get open(): boolean {
    return !this.closed;
  }

  /**
   * Checks each event from now on. Armed once the request that opened the stream is answered: what it asked for is
   * its due (the new secret a rotation made included), what comes later is checked as the caller is then.
   */
  arm(check: StreamCheck | undefined): void {
    this.check = check;
  }

  event(e: SseEvent): void {
    if (this.closed) return;
    if (!this.check) return this.writeEvent(e);
    const check = this.check;
    this.queue = this.queue.then(async () => {
      if (this.closed) return;
      const lapsed = await check().catch(() => null);
      if (lapsed) this.fail(lapsed);
      else this.writeEvent(e);
    });
  }

  error(err: unknown): void {
    if (!this.check) return this.fail(err);
    this.queue = this.queue.then(() => this.fail(err));
  }

  end(): void {
    if (!this.check) return this.finish();
    this.queue = this.queue.then(() => this.finish());
  }

  private writeEvent(e: SseEvent): void {
    if (this.closed) return;
    this.write(this.framing.event(this.shape(e)));
    // A Message is the whole answer (A2A: the stream holds that one message).
    if ((e.kind === 'status-update' && e.final) || e.kind === 'message') this.finish();
  }

  private fail(err: unknown): void {
    if (this.closed) return;
    if (!this.begun && this.framing.refuse) {
      this.closed = true;
      clearInterval(this.timer);
      this.framing.refuse(this.res, err);
      return;
    }
    this.write(this.framing.error(err));
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.begin();
    this.res.end();
  }

  /** The gateway is stopping: end the stream and drop its connection, which would otherwise idle on. */
  shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.begin();
    // res.socket is detached once the response is done: keep hold of it now.
    const socket = this.res.socket;
    this.res.end(() => socket?.destroy());
  }

  /** The headers go with the first frame, so an error before it can still be a plain response. */
  private write(frame: string): void {
    this.begin();
    this.res.write(frame);
  }

  private begin(): void {
    if (this.begun) return;
    this.begun = true;
    this.res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
    this.res.flushHeaders();
  }
}
