// Records every tool call (tool, UTC day, calls, errors) for /trending and /intelligence. Counts are kept
// in memory and written in one transaction every few seconds, so the call path never waits on a write.
import { isoTime, type Clock } from '../clock.js';
import type { Db } from '../store/db.js';
import { addToolUsage, type UsageDelta } from '../store/tool-usage.js';
import type { Registry } from '../registry/registry.js';

export const utcDay = (ms: number): string => isoTime(ms).slice(0, 10);

export class UsageRecorder {
  private pending = new Map<string, UsageDelta>();
  private readonly timer: NodeJS.Timeout;

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
    const day = utcDay(this.clock.now());
    const k = `${tool}|${day}`;
    let d = this.pending.get(k);
    if (!d) this.pending.set(k, (d = { tool, day, calls: 0, errors: 0 }));
    d.calls++;
    if (!ok) d.errors++;
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    await addToolUsage(this.db, batch);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
