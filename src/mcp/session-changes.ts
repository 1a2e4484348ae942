// Changes made to shared 2025-era sessions through other instances (docs/decisions/mcp-sessions-shared.md), taken
// over by the copies held here:
// - on stores with signals (PostgreSQL's NOTIFY, migration 047), while copies are held, a session's login,
//   tools_find's toolsets, subscriptions or DELETE changed anywhere marks every copy to re-read its row on its next
//   request, so a client that changes its session through one instance finds the change on its next request,
//   wherever that lands;
// - the sessions whose GET stream is open here read the subscriptions added elsewhere every ADOPT_MS, and at once
//   on a signal, so resource updates go out on the stream.
import type { McpSessionStore } from '../store/mcp-sessions.js';

/** How often the sessions streaming here read the subscriptions other instances' copies added (one read for all). */
export const ADOPT_MS = 1000;

/** What this needs of a copy held by the endpoint. */
export interface HeldCopy {
  /** When its row was last read; 0 makes the next request read it. */
  checkedAt: number;
  transport: { readonly streaming: boolean };
  state?: { adopt?(subscriptions: string[]): Promise<void> };
}

export class SessionChanges {
  private unlisten: Promise<(() => void) | null> | null = null;
  private readonly adopter: NodeJS.Timeout;
  private adopting: Promise<void> | null = null;
  private adoptAgain = false;
  /**
   * Whether a copy read less than SHARED_CHECK_MS ago may be served without reading its row: always where the
   * store has no signals (SQLite) or its listener failed (the copies then re-read their rows each second), else
   * only once the listener is set up, since a change made before that sent no signal here.
   */
  trusted = false;
  /** How many changes were heard: a copy rebuilt from a row read while this moved may be out of date. */
  heard = 0;
  private closed = false;

  constructor(
    private readonly store: McpSessionStore,
    private readonly held: ReadonlyMap<string, HeldCopy>,
    private readonly onError?: (err: unknown) => void,
  ) {
    this.adopter = setInterval(() => this.adopt(), ADOPT_MS);
    this.adopter.unref();
  }

  /** A change heard: every copy re-reads its row on its next request, and the streams here take over new subscriptions now. */
  private readonly changed = (): void => {
    this.heard++;
    for (const s of this.held.values()) s.checkedAt = 0;
    this.adopt(true);
  };

  /** Listens, unless it already does (called as a copy is opened). */
  start(): void {
    if (this.unlisten || this.closed) return;
    const listen = this.store.onChange(this.changed);
    if (!listen) {
      this.trusted = true;
      return;
    }
    const settled: Promise<(() => void) | null> = listen
      .then(
        (stop) => {
          // A copy read before the listener was set up may have missed a change.
          this.changed();
          return stop;
        },
        (err: unknown) => {
          this.onError?.(err);
          return null;
        },
      )
      // Not if idle() stopped this listener meanwhile (a later start() sets up its own).
      .finally(() => (this.trusted ||= this.unlisten === settled));
    this.unlisten = settled;
  }

  /** Stops listening once no copy is held here. */
  idle(): void {
    const unlisten = this.unlisten;
    if (!unlisten || this.held.size > 0) return;
    this.unlisten = null;
    this.trusted = false;
    void unlisten.then((stop) => stop?.());
  }

  /** Subscriptions made on other instances, for the sessions whose GET stream (their notifications' way out) is here. */
  private adopt(signalled = false): void {
    if (this.adopting) {
      // The read under way may predate the change signalled: one more after it (a timer's tick just waits its turn).
      this.adoptAgain ||= signalled;
      return;
    }
    const streaming = [...this.held].filter(([, s]) => s.transport.streaming && s.state?.adopt);
    if (streaming.length === 0) return;
    this.adopting = (async () => {
      try {
        const subs = await this.store.subscriptionsOf(streaming.map(([id]) => id));
        await Promise.all(streaming.map(([id, s]) => (subs.has(id) ? s.state!.adopt!(subs.get(id)!) : undefined)));
      } catch (err) {
        this.onError?.(err);
      }
    })().finally(() => {
      this.adopting = null;
      if (this.adoptAgain) {
        this.adoptAgain = false;
        this.adopt(true);
      }
    });
  }

  close(): void {
    this.closed = true;
    clearInterval(this.adopter);
    const unlisten = this.unlisten;
    this.unlisten = null;
    void unlisten?.then((stop) => stop?.());
  }
}
