// The event bus that SDK v2's subscriptions/listen streams over HTTP (2026-07-28) subscribe to, with each resource
// change checked as it is delivered: the caller that opened a stream hears of a change to a URI it listens to only
// while it may still read the resource (a share revoked, an entry made private, the owner's handle taken by a new
// agent end it). When the stream's credentials no longer act for anyone (an access token expired or revoked, a
// secret rotated, the agent suspended), the stream ends, and its client listens again as it is now. The SDK
// subscribes while it serves the listen request, which runs inside `within`: that is how a subscription knows whose
// stream it feeds.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { ResourceFeed } from './resource-feed.js';
import type { Hearing } from './listen-filter.js';

export interface ListenScope {
  /** Whether the stream's caller hears of a change to `uri` now (McpMethods.hears with the stream's credentials). */
  hears(uri: string): Promise<Hearing>;
  /** The URIs the stream listens to (as acknowledged). */
  uris: ReadonlySet<string>;
  /** Ends the stream. */
  end(): void;
}

export class CheckedListenBus implements ServerEventBus {
  private readonly scopes = new AsyncLocalStorage<ListenScope>();

  constructor(private readonly feed: ResourceFeed) {}

  /** Serves one listen request, so that the stream it opens is checked for `scope`. */
  within<T>(scope: ListenScope, serve: () => T): T {
    return this.scopes.run(scope, serve);
  }

  publish(event: ServerEvent): void {
    this.feed.publish(event);
  }

  subscribe(listener: (e: ServerEvent) => void): () => void {
    const scope = this.scopes.getStore();
    if (!scope) return this.feed.subscribe(listener);
    return this.feed.subscribe((e) => {
      if (e.kind !== 'resource_updated') return listener(e);
      if (!scope.uris.has(e.uri)) return;
      void scope.hears(e.uri).then(
        (h) => (h === 'yes' ? listener(e) : h === 'lapsed' ? scope.end() : undefined),
        () => undefined,
      );
    });
  }
}
