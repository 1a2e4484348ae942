// The JSON depth bound (src/json-depth.ts) for the MCP transports whose SDK parses the body itself: stdio and the
// legacy HTTP+SSE one, and the bound on what a session keeps of its initialize (initialize-size.ts). A message nested
// deeper than the bound, or an initialize too large to keep, never reaches the server: a request is answered -32602
// with its id on the same transport, a notification is dropped (it gets no answer).
import { depthWithin, JsonTooDeepError } from '../json-depth.js';
import { initializeTooLarge } from './initialize-size.js';

type Message = { jsonrpc: '2.0'; id?: string | number; method?: string };

/** The part of an SDK transport (v1 and v2 have the same shape) that this wrapper uses and passes on. */
export interface WrappedTransport {
  onmessage?: (message: never, extra?: never) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  start(): Promise<void>;
  send(message: never, options?: never): Promise<void>;
  close(): Promise<void>;
  sessionId?: string;
  setProtocolVersion?: (version: string) => void;
}

export class DepthBoundTransport<T extends WrappedTransport> {
  onmessage?: (message: Message, extra?: unknown) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(
    readonly inner: T,
    private readonly maxDepth: number,
  ) {
    const inbound = inner as unknown as { onmessage?: (m: Message, extra?: unknown) => void };
    inbound.onmessage = (message, extra) => {
      const refusal = depthWithin(message, maxDepth) === null ? `Invalid params: ${new JsonTooDeepError(maxDepth).message}` : initializeTooLarge(message);
      if (refusal === null) return this.onmessage?.(message, extra);
      if (message.id === undefined || message.method === undefined) return;
      const error = { code: -32602, message: refusal };
      (inner.send as (m: unknown) => Promise<void>)({ jsonrpc: '2.0', id: message.id, error }).catch((err: unknown) => this.onerror?.(err as Error));
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (err) => this.onerror?.(err);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: unknown, options?: unknown): Promise<void> {
    return (this.inner.send as (m: unknown, o?: unknown) => Promise<void>)(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
