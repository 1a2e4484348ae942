// What the gateway knows of each payer's balance: read from the chain when a payment is verified in full, then
// kept for a few seconds (X402_VERIFY_CACHE_SECONDS) together with the amounts claimed but not yet settled.
// A payment that fits this view is verified without a chain round trip. The view only decides how early a bad
// payment is refused: settlement stays the guarantee (a transfer that fails there is answered 402 and the tool
// result is withheld), so a stale view can cost a refused settlement, never an unpaid result.

interface View {
  balance: bigint;
  /** Claimed by calls in flight, not yet settled or released. */
  pending: bigint;
  at: number;
}

const MAX_PAYERS = 10_000;

export class PayerViews {
  private readonly views = new Map<string, View>();

  constructor(private readonly ttlMs: number) {}

  /** Reserves `value` when a fresh view covers it; false sends the payment to the full (chain) check. */
  tryReserve(payer: string, value: bigint, now: number): boolean {
    if (this.ttlMs <= 0) return false;
    const v = this.views.get(payer.toLowerCase());
    if (!v || now - v.at >= this.ttlMs || v.balance - v.pending < value) return false;
    v.pending += value;
    return true;
  }

  /** Records a balance just read from the chain and reserves `value` against it. */
  refreshAndReserve(payer: string, balance: bigint | undefined, value: bigint, now: number): void {
    const key = payer.toLowerCase();
    let v = this.views.get(key);
    if (!v) {
      if (this.views.size >= MAX_PAYERS) this.views.delete(this.views.keys().next().value as string);
      v = { balance: 0n, pending: 0n, at: -Infinity };
      this.views.set(key, v);
    }
    if (balance !== undefined) {
      v.balance = balance;
      v.at = now;
    }
    v.pending += value;
  }

  /** The reserved amount left the payer's balance on chain. */
  settled(payer: string, value: bigint): void {
    const v = this.views.get(payer.toLowerCase());
    if (!v) return;
    v.pending = v.pending > value ? v.pending - value : 0n;
    v.balance = v.balance > value ? v.balance - value : 0n;
  }

  /** The reservation ends without a transfer (tool failed, settlement refused). */
  released(payer: string, value: bigint, stale = false): void {
    const v = this.views.get(payer.toLowerCase());
    if (!v) return;
    v.pending = v.pending > value ? v.pending - value : 0n;
    // After a refused settlement the chain knows better: read it again next time.
    if (stale) v.at = -Infinity;
  }
}
