// subscriptions/listen (2026-07-28) over stdio. SDK v2's serveStdio answers a listen at its entry and routes the
// pinned instance's own notifications/resources/updated onto the open subscriptions, but it has no event bus: the
// instance must send those notifications itself. This wraps the stdio transport to do the two things the HTTP
// endpoint does for a listen (modern-http.ts keepWatchable): keep only the URIs the caller may watch, and hold the
// listen until the feed watches from the current end of the change logs, so a write after the acknowledgement is
// news. While a listen is open, each change the feed reports to a URI it listens to is sent by the modern instance,
// for the entry to route, if the caller may still read the resource (checked as each change is delivered).
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import type { ServerEvent } from '@modelcontextprotocol/server';
import type { ResourceFeed } from './resource-feed.js';
import { keepWatchable, type Hearing } from './listen-filter.js';

type RequestId = string | number;
interface ListenRequest {
  id: RequestId;
  method: 'subscriptions/listen';
  params?: { notifications?: { resourceSubscriptions?: unknown } };
}

const isListen = (m: JSONRPCMessage): m is JSONRPCMessage & ListenRequest => 'method' in m && m.method === 'subscriptions/listen' && 'id' in m;
const cancelledId = (m: JSONRPCMessage): RequestId | undefined =>
  'method' in m && m.method === 'notifications/cancelled' && !('id' in m) ? (m.params as { requestId?: RequestId } | undefined)?.requestId : undefined;

export class StdioListens implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** Open listens, with the URIs each listens to. */
  private readonly open = new Map<RequestId, string[]>();
  private unsubscribe: (() => void) | null = null;
  private sendUpdate: ((uri: string) => Promise<void>) | null = null;
  /** Inbound messages reach the entry in order, even when a listen waits for the feed. */
  private inbound: Promise<void> = Promise.resolve();

  constructor(
    private readonly inner: Transport,
    private readonly feed: ResourceFeed,
    private readonly watching: { mayWatch(uri: string): Promise<boolean>; hears(uri: string): Promise<Hearing> },
  ) {
    inner.onclose = () => (this.stopListening(), this.onclose?.());
    inner.onerror = (err) => this.onerror?.(err);
    inner.onmessage = (message, extra) => {
      this.inbound = this.inbound.then(() => this.receive(message, extra)).catch((err) => this.onerror?.(err instanceof Error ? err : new Error(String(err))));
    };
  }

  /** The modern instance pinned to this connection sends the updates (serveStdio routes them to the listens). */
  deliverThrough(send: (uri: string) => Promise<void>): void {
    this.sendUpdate = send;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // The entry's empty listen result ends a subscription (graceful close).
    if ('id' in message && ('result' in message || 'error' in message)) this.ended(message.id as RequestId);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    this.stopListening();
    return this.inner.close();
  }

  private async receive(message: JSONRPCMessage, extra?: MessageExtraInfo): Promise<void> {
    if (isListen(message)) await this.opening(message);
    const cancelled = cancelledId(message);
    if (cancelled !== undefined) this.ended(cancelled);
    this.onmessage?.(message, extra);
  }

  private async opening(listen: ListenRequest): Promise<void> {
    this.open.set(listen.id, []);
    this.unsubscribe ??= this.feed.subscribe((e) => this.changed(e));
    await this.feed.prepare();
    const kept = await keepWatchable(listen.params?.notifications, (uri) => this.watching.mayWatch(uri));
    if (this.open.has(listen.id)) this.open.set(listen.id, kept);
  }

  private changed(e: ServerEvent): void {
    if (e.kind !== 'resource_updated' || !this.listensTo(e.uri)) return;
    void this.watching
      .hears(e.uri)
      .then((h) => (h === 'yes' ? this.sendUpdate?.(e.uri) : undefined))
      .catch(() => undefined);
  }

  private listensTo(uri: string): boolean {
    for (const uris of this.open.values()) if (uris.includes(uri)) return true;
    return false;
  }

  private ended(id: RequestId): void {
    if (this.open.delete(id) && this.open.size === 0) this.stopListening();
  }

  private stopListening(): void {
    this.open.clear();
    this.unsubscribe?.();
    this.unsubscribe = null;
  }
}
