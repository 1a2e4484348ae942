// Resource changes for MCP subscribers, whichever gateway process made them: while anyone listens, the feed polls
// the database's change logs (store/resource-changes.ts: memory's own change feed, and the log of the rest) and hands each changed URI to its listeners. It is the
// `ServerEventBus` of SDK v2's subscriptions/listen streams (2026-07-28) and the source of the 2025 sessions'
// notifications/resources/updated. It does not poll when no one listens. On PostgreSQL, the writer's NOTIFY wakes
// it at once; the interval is then only the fallback for a lost signal.
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { Db } from '../store/db.js';
import { changeLogEnds, memoryChangesSince, resourceChangesSince, type ChangeCursor } from '../store/resource-changes.js';

const BATCH = 500;
/** The NOTIFY channel of memory_changes and resource_changes writes (pg-migrations/027_change_signals.sql). */
const RESOURCE_CHANGES_CHANNEL = 'gw_resource_changes';

export class ResourceFeed implements ServerEventBus {
  private readonly listeners = new Set<(e: ServerEvent) => void>();
  private cursor: ChangeCursor = { memory: 0, other: 0 };
  private timer: NodeJS.Timeout | null = null;
  /** PostgreSQL: the NOTIFY of a change log write wakes the poll at once (the interval is the fallback). */
  private unsignal: Promise<() => void> | null = null;
  private polling: Promise<void> | null = null;
  private starting: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly pollMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** In-process events (none today: tools, prompts and templates change only with a new gateway version). */
  publish(event: ServerEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  subscribe(listener: (e: ServerEvent) => void): () => void {
    this.listeners.add(listener);
    void this.prepare();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  /**
   * Resolves once the feed watches from the current end of the log. A subscription waits for it before it is
   * confirmed, so a change the client makes after the confirmation is never taken for history. Without a
   * listener by the first poll, the feed stops again.
   */
  prepare(): Promise<void> {
    if (!this.timer && !this.starting) this.start();
    return this.starting ?? Promise.resolve();
  }

  private start(): void {
    // Changes from before the first listener are history, not news.
    this.starting = changeLogEnds(this.db)
      .then((ends) => {
        this.cursor = ends;
        this.timer ??= setInterval(() => void this.poll(), this.pollMs);
        this.timer.unref();
        this.unsignal ??= this.db.listen?.(RESOURCE_CHANGES_CHANNEL, () => void this.poll()).catch((err) => (this.onError(err), () => undefined)) ?? null;
      })
      .catch(this.onError)
      .finally(() => (this.starting = null));
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    void this.unsignal?.then((stop) => stop());
    this.unsignal = null;
  }

  /** One poll at a time; a slow one makes the next tick skip rather than pile up. */
  private poll(): Promise<void> {
    if (this.listeners.size === 0) {
      this.stop();
      return Promise.resolve();
    }
    this.polling ??= (async () => {
      try {
        await this.drain('memory', memoryChangesSince);
        await this.drain('other', resourceChangesSince);
      } catch (err) {
        this.onError(err);
      } finally {
        this.polling = null;
      }
    })();
    return this.polling;
  }

  /** Publishes what one log holds past the cursor, a batch at a time. */
  private async drain(log: keyof ChangeCursor, since: (db: Db, seq: number, limit: number) => Promise<{ seq: number; uri: string }[]>): Promise<void> {
    let rows: { seq: number; uri: string }[];
    do {
      rows = await since(this.db, this.cursor[log], BATCH);
      if (rows.length) this.cursor[log] = rows[rows.length - 1].seq;
      for (const uri of new Set(rows.map((r) => r.uri))) this.publish({ kind: 'resource_updated', uri });
    } while (rows.length === BATCH && this.listeners.size > 0);
  }

  close(): void {
    this.stop();
    this.listeners.clear();
  }
}
