// An in-process sliding-window counter (per key): how many events in the last `windowMs`. Used for
// per-client and per-handle limits where a small overshoot across gateway processes is acceptable.
// At most `maxKeys` keys are tracked (GATEWAY_RATE_WINDOW_KEYS): past it, keys whose window has passed go first,
// then the keys seen least recently, whose counts start over (a client unseen while that many others were seen).
import type { Clock } from './clock.js';

/**
 * Drops a Map's oldest keys (insertion order) down to nine tenths of `max`, so the scan that comes first (of keys
 * whose window has passed) runs once per max/10 new keys at most, not on every one.
 */
export function trimOldest<K, V>(map: Map<K, V>, max: number): void {
  const keep = Math.floor(max * 0.9);
  for (const k of map.keys()) {
    if (map.size <= keep) return;
    map.delete(k);
  }
}

export class RateWindow {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
    private readonly maxKeys = 50_000,
  ) {}

  /** Records an event for `key` if allowed; returns 0 when allowed, else the seconds to wait. */
  take(key: string): number {
    const now = this.clock.now();
    const since = now - this.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    // Re-inserted, so the Map's order runs from the key seen least recently to the latest.
    this.hits.delete(key);
    this.hits.set(key, list);
    if (list.length >= this.limit) return Math.max(1, Math.ceil((list[0] + this.windowMs - now) / 1000));
    list.push(now);
    if (this.hits.size > this.maxKeys) this.prune(since);
    return 0;
  }

  /** How many keys are tracked. */
  get size(): number {
    return this.hits.size;
  }

  private prune(since: number): void {
    for (const [k, v] of this.hits) if (v.every((t) => t <= since)) this.hits.delete(k);
    trimOldest(this.hits, this.maxKeys);
  }
}
