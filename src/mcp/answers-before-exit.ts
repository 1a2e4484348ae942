// The stdio server ends when its host closes stdin, and a host that pipes its requests in may close stdin right after
// the last one. A request already acting (agent_register, whose reply carries the secret shown once) must still be
// answered: this wraps the stdio transport to count the requests received and not yet answered, so the process waits
// for them before it closes. Long-lived requests (a 2026-07-28 listen) have no answer to wait for.
import type { WrappedTransport } from './depth-bound-transport.js';

type RequestId = string | number;
type Message = { id?: RequestId; method?: string; params?: { requestId?: RequestId }; result?: unknown; error?: unknown };

const LONG_LIVED = new Set(['subscriptions/listen']);

export class AnswersBeforeExit<T extends WrappedTransport> {
  onmessage?: (message: Message, extra?: unknown) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly unanswered = new Set<RequestId>();
  private waiters: (() => void)[] = [];

  constructor(readonly inner: T) {
    const inbound = inner as unknown as { onmessage?: (m: Message, extra?: unknown) => void };
    inbound.onmessage = (message, extra) => {
      if (message.id !== undefined && message.method !== undefined && !LONG_LIVED.has(message.method)) this.unanswered.add(message.id);
      // A request the client cancelled may get no answer.
      if (message.method === 'notifications/cancelled' && message.params?.requestId !== undefined) this.answered(message.params.requestId);
      this.onmessage?.(message, extra);
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

  async send(message: Message, options?: unknown): Promise<void> {
    await (this.inner.send as (m: unknown, o?: unknown) => Promise<void>)(message, options);
    if (message.id !== undefined && message.method === undefined && ('result' in message || 'error' in message)) this.answered(message.id);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Resolves once every request received so far is answered, or after `ms`. */
  allAnswered(ms: number): Promise<void> {
    if (this.unanswered.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.waiters.push(done);
    });
  }

  private answered(id: RequestId): void {
    if (!this.unanswered.delete(id) || this.unanswered.size > 0) return;
    for (const w of this.waiters.splice(0)) w();
  }
}
