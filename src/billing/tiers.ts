// Key tiers and their monthly quotas (spec "Limits"), counted per UTC calendar month.

export type Tier = 'free' | 'pro' | 'enterprise';

export const TIER_QUOTA: Record<Tier, number> = { free: 10_000, pro: 25_000, enterprise: Number.MAX_SAFE_INTEGER };

/** Per-tool sub-quotas where the spec names one: rate_limit has 500 calls a month on a free key. */
export const TOOL_QUOTA: Record<string, Partial<Record<Tier, number>>> = { rate_limit: { free: 500 } };

export const isUnlimited = (tier: Tier): boolean => tier === 'enterprise';

export const monthOf = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

/** Start of the next UTC month, when counters reset. */
export function nextMonthStart(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}
