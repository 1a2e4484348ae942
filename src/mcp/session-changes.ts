// Hears shared 2025-era sessions change through any instance (a login, tools_find's toolsets, a subscription,
// DELETE), on stores with signals (PostgreSQL's NOTIFY, migration 047), while the endpoint holds copies: a client
// that changes its session through one instance finds the change on its next request, wherever that lands.
import type { McpSessionStore } from '../store/mcp-sessions.js';

export class SessionChanges {
  private unlisten: Promise<(() => void) | null> | null = null;
  /**
   * Whether a copy read less than SHARED_CHECK_MS ago may be served without reading its row: always where the
   * store has no signals (SQLite) or its listener failed (the copies then re-read their rows each second), else
   * only once the listener is set up, since a change made before that sent no signal here.
   */
  trusted = false;

  constructor(
    private readonly store: McpSessionStore,
    /** Marks every copy held here to re-read its row on its next request. */
    private readonly changed: () => void,
    private readonly onError?: (err: unknown) => void,
  ) {}

  /** Listens, unless it already does. */
  start(): void {
    if (this.unlisten) return;
    const listen = this.store.onChange(this.changed);
    if (!listen) {
      this.trusted = true;
      return;
    }
    this.unlisten = listen.then(
      (stop) => {
        // A copy read before the listener was set up may have missed a change.
        this.changed();
        this.trusted = true;
        return stop;
      },
      (err: unknown) => {
        this.onError?.(err);
        this.trusted = true;
        return null;
      },
    );
  }

  /** Stops listening (no copy is held here any more). */
  stop(): void {
    const unlisten = this.unlisten;
    if (!unlisten) return;
    this.unlisten = null;
    this.trusted = false;
    void unlisten.then((stop) => stop?.());
  }
}
