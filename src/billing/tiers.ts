// Key tiers and their monthly quotas (spec "Limits"), counted per UTC calendar month.

export type Tier = 'free' | 'pro' | 'enterprise';

export const TIER_QUOTA: Record<Tier, number> = { free: 10_000, pro: 25_000, enterprise: Number.MAX_SAFE_INTEGER };

/**
 * Per-tool sub-quotas: rate_limit has 500 calls a month on a free key (spec). The MCP verbs that cost the service
 * money upstream have a free key's allowance of their own; above it they are paid per call (x402, credits).
 */
export const TOOL_QUOTA: Record<string, Partial<Record<Tier, number>>> = {
  rate_limit: { free: 500 },
  browse: { free: 1000 },
  research: { free: 50 },
  gen_image: { free: 50 },
};

export const isUnlimited = (tier: Tier): boolean => tier === 'enterprise';

/** The month last asked for and its bounds: every paid call asks, nearly always for the same month. */
let known = { from: 0, to: 0, month: '' };

/** The UTC calendar month of a time, as YYYY-MM. */
export function monthOf(ms: number): string {
  if (ms >= known.from && ms < known.to) return known.month;
  const d = new Date(ms);
  const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  known = { from, to: nextMonthStart(ms), month: d.toISOString().slice(0, 7) };
  return known.month;
}

/** Start of the next UTC month, when counters reset. */
export function nextMonthStart(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}
