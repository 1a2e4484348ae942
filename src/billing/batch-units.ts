// The units a batch holds for its paid calls, one per call: reserved from a key's quota up front, or bought
// together with one x402 payment for their summed price. Each paid call takes its unit instead of paying again,
// and a call that fails gives it back, so the batch knows what it delivered and what is left unused.
import type { Charge } from '../registry/call-types.js';

export class BatchUnits {
  private readonly left = new Map<string, number>();
  private used = 0;

  constructor(tools: string[]) {
    for (const t of tools) this.left.set(t, (this.left.get(t) ?? 0) + 1);
  }

  /** A charge for one call of `tool` covered by a unit; null when no unit for it is left. */
  take(tool: string): Charge | null {
    const n = this.left.get(tool) ?? 0;
    if (n === 0) return null;
    this.left.set(tool, n - 1);
    return {
      commit: async () => void this.used++,
      release: async () => void this.left.set(tool, (this.left.get(tool) ?? 0) + 1),
    };
  }

  /** Paid calls that succeeded on a unit. */
  get delivered(): number {
    return this.used;
  }

  /** The tools whose units no call took (one entry per unit). */
  unused(): string[] {
    return [...this.left].flatMap(([tool, n]) => Array<string>(n).fill(tool));
  }
}
