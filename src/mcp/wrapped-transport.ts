// A transport that wraps an SDK transport (v1 and v2 have the same shape) to look at what passes through it: the
// server sees it as the transport itself. A wrapper overrides `receive` (a message from the client) and `send`.

/** A JSON-RPC message as the wrappers read it. */
export type RpcMessage = { jsonrpc?: '2.0'; id?: string | number; method?: string; params?: { requestId?: string | number }; result?: unknown; error?: unknown };

/** The part of an SDK transport that a wrapper uses and passes on. */
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

export class WrappingTransport<T extends WrappedTransport> {
  onmessage?: (message: RpcMessage, extra?: unknown) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(readonly inner: T) {
    (inner as unknown as { onmessage?: (m: RpcMessage, extra?: unknown) => void }).onmessage = (message, extra) => this.receive(message, extra);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (err) => this.onerror?.(err);
  }

  /** A message from the client; passed on as it is unless a wrapper says otherwise. */
  protected receive(message: RpcMessage, extra?: unknown): void {
    this.onmessage?.(message, extra);
  }

  /** Sends straight through the wrapped transport. */
  protected sendInner(message: unknown, options?: unknown): Promise<void> {
    return (this.inner.send as (m: unknown, o?: unknown) => Promise<void>)(message, options);
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
    return this.sendInner(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
