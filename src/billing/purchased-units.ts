// The paid calls of a batch bought as one purchase (an x402 payment for their summed price): each call takes
// its unit instead of paying again, and a call that fails gives it back, so the batch knows whether it
// delivered any paid result (and settles the purchase) or none (and releases it).
import type { Charge } from '../registry/call-types.js';

export class PurchasedUnits {
  private readonly left = new Map<string, number>();
  private used = 0;

  constructor(tools: string[]) {
    for (const t of tools) this.left.set(t, (this.left.get(t) ?? 0) + 1);
  }

  /** A charge for one call of `tool` covered by the purchase; null when the purchase has no unit for it. */
  take(tool: string): Charge | null {
    const n = this.left.get(tool) ?? 0;
    if (n === 0) return null;
    this.left.set(tool, n - 1);
    return {
      commit: async () => void this.used++,
      release: async () => void this.left.set(tool, (this.left.get(tool) ?? 0) + 1),
    };
  }

  /** Paid calls that succeeded on the purchase. */
  get delivered(): number {
    return this.used;
  }
}
