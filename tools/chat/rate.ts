// The free chat tier's limit: completions per minute per client (agent, API key, or else client address),
// GATEWAY_CHAT_RATE_PER_MINUTE. A shared rate window like the wall's and mail's (src/shared-rate-window.ts): on
// PostgreSQL the database counts, so instances sharing it allow the limit together; on SQLite ChatLimiter counts in
// process, an exact sliding log per client whose cost per request stays constant however high the limit is set.
// At most `maxKeys` clients are tracked (GATEWAY_RATE_WINDOW_KEYS), as in src/rate-window.ts.
import { GatewayError } from '../../src/errors.js';
import type { Clock } from '../../src/clock.js';
import { trimOldest } from '../../src/rate-window.js';
import type { ToolContext } from '../../src/registry/types.js';
import { toolRateWindow, type SharedRateWindow } from '../../src/shared-rate-window.js';

const WINDOW_MS = 60_000;

/** Timestamps of one client's requests inside the window, oldest at `head`. */
interface Log {
  times: number[];
  head: number;
}

export class ChatLimiter {
  private readonly logs = new Map<string, Log>();
  private takes = 0;

  constructor(
    readonly perMinute: number,
    private readonly clock: Clock,
    private readonly maxKeys = 50_000,
  ) {}

  /** Counts a request; returns 0 when allowed, else the seconds until one is. */
  take(key: string): number {
    const now = this.clock.now();
    const since = now - WINDOW_MS;
    let log = this.logs.get(key);
    // Re-inserted, so the Map's order runs from the client seen least recently to the latest.
    this.logs.delete(key);
    this.logs.set(key, (log ??= { times: [], head: 0 }));
    while (log.head < log.times.length && log.times[log.head] <= since) log.head++;
    if (log.head > 1024 && log.head * 2 > log.times.length) {
      log.times = log.times.slice(log.head);
      log.head = 0;
    }
    const inWindow = log.times.length - log.head;
    if (inWindow >= this.perMinute) {
      const freesAt = log.times[log.head + inWindow - this.perMinute] + WINDOW_MS;
      return Math.max(1, Math.ceil((freesAt - now) / 1000));
    }
    log.times.push(now);
    if (++this.takes % 10_000 === 0 || this.logs.size > this.maxKeys) this.prune(since);
    return 0;
  }

  /** How many clients are tracked. */
  get size(): number {
    return this.logs.size;
  }

  private prune(since: number): void {
    for (const [k, log] of this.logs) if (log.times.length === 0 || log.times[log.times.length - 1] <= since) this.logs.delete(k);
    trimOldest(this.logs, this.maxKeys);
  }
}

function chatWindow(ctx: ToolContext): SharedRateWindow {
  const { ratePerMinute } = ctx.config.chat;
  return toolRateWindow(ctx, 'chat', ratePerMinute, WINDOW_MS, (keys) => new ChatLimiter(ratePerMinute, ctx.clock, keys));
}

function clientOf(ctx: ToolContext): string {
  const { caller } = ctx;
  if (caller.agent) return `agent:${caller.agent.id}`;
  if (caller.credentials.apiKey) return `key:${ctx.services.clientKey(`key:${caller.credentials.apiKey}`)}`;
  return `ip:${ctx.services.clientKey(caller.credentials.ip)}`;
}

export async function takeChatAllowance(ctx: ToolContext): Promise<void> {
  const wait = await chatWindow(ctx).take(clientOf(ctx));
  if (wait > 0) {
    throw new GatewayError('rate_limited', `The free chat tier allows ${ctx.config.chat.ratePerMinute} completions per minute per client; retry in ${wait} s.`, {
      headers: { 'Retry-After': String(wait) },
    });
  }
}
