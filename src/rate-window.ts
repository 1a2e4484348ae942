// An in-process sliding-window counter (per key): how many events in the last `windowMs`. Used for
// per-client and per-handle limits where a small overshoot across gateway processes is acceptable.
import type { Clock } from './clock.js';

export class RateWindow {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** Records an event for `key` if allowed; returns 0 when allowed, else the seconds to wait. */
  take(key: string): number {
    const now = this.clock.now();
    const since = now - this.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (list.length >= this.limit) {
      this.hits.set(key, list);
      return Math.max(1, Math.ceil((list[0] + this.windowMs - now) / 1000));
    }
    list.push(now);
    this.hits.set(key, list);
    if (this.hits.size > 50_000) this.prune(since);
    return 0;
  }

  private prune(since: number): void {
    for (const [k, v] of this.hits) if (v.every((t) => t <= since)) this.hits.delete(k);
  }
}
