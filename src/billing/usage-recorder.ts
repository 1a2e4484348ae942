// Records every tool call (tool, UTC day, calls, errors) for /trending and /intelligence. Counts are kept
// in memory and written in one transaction every few seconds, so the call path never waits on a write.
import { isoTime, type Clock } from '../clock.js';
import type { Db } from '../store/db.js';
import { addToolUsage, type UsageDelta } from '../store/tool-usage.js';
import type { Registry } from '../registry/registry.js';

export const utcDay = (ms: number): string => isoTime(ms).slice(0, 10);

const DAY_MS = 86_400_000;

export class UsageRecorder {
  /** Counts by day, then by tool name: a call looks its tool up by name, with no key string built per call. */
  private pending = new Map<string, Map<string, UsageDelta>>();
  private readonly timer: NodeJS.Timeout;
  /** The UTC day of the last call, as a day number and as its date: formatted again only when the day changes. */
  private dayNumber = -1;
  private day = '';

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    flushMs = 5000,
  ) {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), flushMs);
    this.timer.unref();
  }

  attach(registry: Registry): void {
    registry.onCall((e) => this.record(e.tool.name, e.ok));
  }

  record(tool: string, ok: boolean): void {
    const now = this.clock.now();
    const n = Math.floor(now / DAY_MS);
    if (n !== this.dayNumber) {
      this.dayNumber = n;
      this.day = utcDay(now);
    }
    let byTool = this.pending.get(this.day);
    if (!byTool) this.pending.set(this.day, (byTool = new Map()));
    let d = byTool.get(tool);
    if (!d) byTool.set(tool, (d = { tool, day: this.day, calls: 0, errors: 0 }));
    d.calls++;
    if (!ok) d.errors++;
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()].flatMap((byTool) => [...byTool.values()]);
    this.pending = new Map();
    await addToolUsage(this.db, batch);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
