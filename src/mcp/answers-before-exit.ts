// The stdio server ends when its host closes stdin, and a host that pipes its requests in may close stdin right after
// the last one. A request already acting (agent_register, whose reply carries the secret shown once) must still be
// answered: this wraps the stdio transport to count the requests received and not yet answered, so the process waits
// for them before it closes. Long-lived requests (a 2026-07-28 listen) have no answer to wait for.
import { WrappingTransport, type RpcMessage, type WrappedTransport } from './wrapped-transport.js';

type RequestId = string | number;

const LONG_LIVED = new Set(['subscriptions/listen']);

export class AnswersBeforeExit<T extends WrappedTransport> extends WrappingTransport<T> {
  private readonly unanswered = new Set<RequestId>();
  private waiters: (() => void)[] = [];

  protected override receive(message: RpcMessage, extra?: unknown): void {
    if (message.id !== undefined && message.method !== undefined && !LONG_LIVED.has(message.method)) this.unanswered.add(message.id);
    // A request the client cancelled may get no answer.
    if (message.method === 'notifications/cancelled' && message.params?.requestId !== undefined) this.answered(message.params.requestId);
    this.onmessage?.(message, extra);
  }

  override async send(message: RpcMessage, options?: unknown): Promise<void> {
    await this.sendInner(message, options);
    if (message.id !== undefined && message.method === undefined && ('result' in message || 'error' in message)) this.answered(message.id);
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
