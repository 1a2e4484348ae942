// One A2A event stream: every `data:` line is a full JSON-RPC response carrying the request's id; the stream
// ends after a status-update with final: true, after an error, or when the client goes away.
import type { ServerResponse } from 'node:http';
import { rpcError, rpcResult, type RpcId } from './jsonrpc.js';
import type { StreamEvent } from './types.js';

/** A comment line now and then keeps proxies from cutting a stream that waits for a long job. */
const KEEP_ALIVE_MS = 15_000;

export class SseStream {
  private closed = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly res: ServerResponse,
    private readonly id: RpcId,
    private readonly shape: (e: StreamEvent) => unknown,
    onClose: () => void,
  ) {
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
    res.flushHeaders();
    this.timer = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    this.timer.unref();
    res.on('close', () => {
      this.closed = true;
      clearInterval(this.timer);
      onClose();
    });
  }

  get open(): boolean {
    return !this.closed;
  }

  event(e: StreamEvent): void {
    if (this.closed) return;
    this.res.write(`data: ${JSON.stringify(rpcResult(this.id, this.shape(e)))}\n\n`);
    if (e.kind === 'status-update' && e.final) this.end();
  }

  error(err: unknown): void {
    if (this.closed) return;
    this.res.write(`data: ${JSON.stringify(rpcError(this.id, err))}\n\n`);
    this.end();
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.res.end();
  }

  /** The gateway is stopping: end the stream and drop its connection, which would otherwise idle on. */
  shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    // res.socket is detached once the response is done: keep hold of it now.
    const socket = this.res.socket;
    this.res.end(() => socket?.destroy());
  }
}
