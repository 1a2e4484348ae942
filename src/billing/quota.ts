// Monthly quota counting: atomic in the database (one conditional upsert per scope, all scopes of a call in
// one transaction), so concurrent calls at quota-1 let exactly one through, across processes too.
import type { Clock } from '../clock.js';
import type { Db } from '../store/db.js';
import * as store from '../store/keys.js';
import type { ApiKey } from './keys.js';
import { QuotaBatcher } from './quota-batcher.js';
import { isUnlimited, monthOf, nextMonthStart, TIER_QUOTA, TOOL_QUOTA } from './tiers.js';

export interface QuotaState {
  ok: boolean;
  limit: number;
  used: number;
  remaining: number;
  /** Unix seconds when the counters reset (start of the next UTC month). */
  resetAt: number;
  /** The scope that refused: '*' (the monthly quota) or a tool's sub-quota. */
  refusedBy?: string;
}

class Refused extends Error {
  constructor(readonly scope: string) {
    super(scope);
  }
}

/** Units per scope for a list of tool calls. */
export function scopesFor(key: ApiKey, tools: string[]): Map<string, { n: number; limit: number }> {
  const scopes = new Map<string, { n: number; limit: number }>();
  scopes.set('*', { n: tools.length, limit: TIER_QUOTA[key.tier] });
  for (const t of tools) {
    const sub = TOOL_QUOTA[t]?.[key.tier];
    if (sub === undefined) continue;
    const s = scopes.get(t) ?? { n: 0, limit: sub };
    s.n++;
    scopes.set(t, s);
  }
  return scopes;
}

export class Quota {
  private readonly batcher: QuotaBatcher;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.batcher = new QuotaBatcher(db);
  }

  /** Consumes one unit per listed call, all or nothing. */
  async consume(key: ApiKey, tools: string[]): Promise<QuotaState> {
    const now = this.clock.now();
    const period = monthOf(now);
    const resetAt = Math.floor(nextMonthStart(now) / 1000);
    const limit = TIER_QUOTA[key.tier];
    const scopes = scopesFor(key, tools);
    try {
      let used = 0;
      if (scopes.size === 1) {
        const v =
          tools.length === 1
            ? await this.batcher.consumeOne(key.id, period, limit)
            : await store.consume(this.db, key.id, period, '*', tools.length, limit);
        if (v === null) throw new Refused('*');
        used = v;
      } else {
        used = await this.db.transaction(async (tx) => {
          let total = 0;
          for (const [scope, s] of scopes) {
            const v = await store.consume(tx, key.id, period, scope, s.n, s.limit);
            if (v === null) throw new Refused(scope);
            if (scope === '*') total = v;
          }
          return total;
        });
      }
      return { ok: true, limit, used, remaining: Math.max(0, limit - used), resetAt };
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      const usage = await store.usageOf(this.db, key.id, period);
      const used = usage['*'] ?? 0;
      return { ok: false, limit, used, remaining: Math.max(0, limit - used), resetAt, refusedBy: err.scope };
    }
  }

  /** Gives back units consumed for calls that did not run or failed. */
  async refund(key: ApiKey, tools: string[]): Promise<void> {
    const period = monthOf(this.clock.now());
    for (const [scope, s] of scopesFor(key, tools)) await store.refund(this.db, key.id, period, scope, s.n);
  }

  async usage(key: ApiKey) {
    const now = this.clock.now();
    const period = monthOf(now);
    const usage = await store.usageOf(this.db, key.id, period);
    const limit = TIER_QUOTA[key.tier];
    const used = usage['*'] ?? 0;
    const perTool = Object.fromEntries(
      Object.entries(TOOL_QUOTA)
        .filter(([, byTier]) => byTier[key.tier] !== undefined)
        .map(([tool, byTier]) => [tool, { used: usage[tool] ?? 0, limit: byTier[key.tier]! }]),
    );
    return {
      tier: key.tier,
      period,
      used,
      limit: isUnlimited(key.tier) ? null : limit,
      remaining: isUnlimited(key.tier) ? null : Math.max(0, limit - used),
      resets_at: new Date(nextMonthStart(now)).toISOString(),
      per_tool: perTool,
    };
  }
}

/** X-RateLimit-* headers for a quota state; none for unlimited keys. */
export function rateLimitHeaders(key: ApiKey, q: QuotaState): Record<string, string> {
  if (isUnlimited(key.tier)) return {};
  return { 'X-RateLimit-Limit': String(q.limit), 'X-RateLimit-Remaining': String(q.remaining), 'X-RateLimit-Reset': String(q.resetAt) };
}
