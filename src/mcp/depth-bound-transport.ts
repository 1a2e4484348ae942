// The JSON depth bound (src/json-depth.ts) for the MCP transports whose SDK parses the body itself: stdio and the
// legacy HTTP+SSE one, and the bound on what a session keeps of its initialize (initialize-size.ts). A message nested
// deeper than the bound, or an initialize too large to keep, never reaches the server: a request is answered -32602
// with its id on the same transport, a notification is dropped (it gets no answer).
import { depthWithin, JsonTooDeepError } from '../json-depth.js';
import { initializeTooLarge } from './initialize-size.js';
import { WrappingTransport, type RpcMessage, type WrappedTransport } from './wrapped-transport.js';

export class DepthBoundTransport<T extends WrappedTransport> extends WrappingTransport<T> {
  constructor(
    inner: T,
    private readonly maxDepth: number,
  ) {
    super(inner);
  }

  protected override receive(message: RpcMessage, extra?: unknown): void {
    const refusal = depthWithin(message, this.maxDepth) === null ? `Invalid params: ${new JsonTooDeepError(this.maxDepth).message}` : initializeTooLarge(message);
    if (refusal === null) return this.onmessage?.(message, extra);
    if (message.id === undefined || message.method === undefined) return;
    const error = { code: -32602, message: refusal };
    this.sendInner({ jsonrpc: '2.0', id: message.id, error }).catch((err: unknown) => this.onerror?.(err as Error));
  }
}
