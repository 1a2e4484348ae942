// resources/subscribe and resources/unsubscribe of one 2025-era connection (HTTP session, SSE stream or stdio):
// the URIs it subscribed to, and notifications/resources/updated for each change the feed reports for them, while
// the connection's caller may still read the resource (checked as each change is delivered: a subscription outlives
// a share, a public entry, a handle). It listens to the feed only while it has a subscription.
import type { ServerEvent } from '@modelcontextprotocol/server';
import type { ResourceFeed } from './resource-feed.js';

export class SessionSubscriptions {
  private readonly uris = new Set<string>();
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly feed: ResourceFeed,
    private readonly notify: (uri: string) => Promise<void>,
    private readonly hears: (uri: string) => Promise<boolean>,
  ) {}

  /** Resolves once changes to `uri` will be heard. */
  async add(uri: string): Promise<void> {
    this.uris.add(uri);
    this.unsubscribe ??= this.feed.subscribe((e) => this.onChange(e));
    await this.feed.prepare();
  }

  remove(uri: string): void {
    this.uris.delete(uri);
    if (this.uris.size === 0) this.close();
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private onChange(e: ServerEvent): void {
    if (e.kind !== 'resource_updated' || !this.uris.has(e.uri)) return;
    void this.hears(e.uri)
      .then((yes) => (yes && this.uris.has(e.uri) ? this.notify(e.uri) : undefined))
      .catch(() => undefined);
  }
}
