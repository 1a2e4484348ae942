// One client's share of a bounded table of held connections (MCP sessions, legacy SSE, listen and A2A streams): at most
// GATEWAY_SESSIONS_PER_CLIENT entries of the same client address, so one client cannot take every slot and close or
// lock out everybody else's. A client is what `clientBlock` makes of its address (an IPv6 /64: src/auth/client-key.ts),
// held in memory only. A table's own bound (its LRU or its refusal) still applies to all clients together.

/** What a client is told when an open past its share finds nothing of its own to close (a burst of opens). */
export const tooManyOpening = (what: string, perClient: number): string =>
  `Too many ${what} are being opened from your address at once (it may hold ${perClient}, GATEWAY_SESSIONS_PER_CLIENT): retry when they are open.`;

export class ClientShares<K> {
  private readonly owners = new Map<K, string>();
  private readonly counts = new Map<string, number>();

  constructor(readonly perClient: number) {}

  /** Entries counted, of every client. */
  get size(): number {
    return this.owners.size;
  }

  /** Whether `client` holds its whole share already. */
  full(client: string): boolean {
    return (this.counts.get(client) ?? 0) >= this.perClient;
  }

  /** Why a new entry of `client` is refused where a full table refuses: the table (`held` of `max`), or the client's share. */
  refusal(client: string, held: number, max: number): { limit: number; whose: string } | null {
    if (held >= max) return { limit: max, whose: 'This gateway has' };
    return this.full(client) ? { limit: this.perClient, whose: 'Your address has' } : null;
  }

  /**
   * Counts `key` for `client` at once, before the caller's first await, so that concurrent opens of one client see
   * each other. Within the share: `{}`. Past it: `{ close }`, the client's own least recently held entry of `held`
   * to close first (uncounted at once); or null (and `key` is not counted) when every other entry of the client is
   * still opening, as in a burst of concurrent opens, which must not go on to push other clients' entries out.
   */
  claim(key: K, client: string, held: Iterable<K>): { close?: K } | null {
    this.add(key, client);
    if ((this.counts.get(client) ?? 0) <= this.perClient) return {};
    const close = this.oldestOf(client, held);
    if (close !== undefined && close !== key) {
      // No longer counted from now on, so that a concurrent claim picks the next one rather than this one again.
      this.remove(close);
      return { close };
    }
    this.remove(key);
    return null;
  }

  add(key: K, client: string): void {
    if (this.owners.has(key)) this.remove(key);
    this.owners.set(key, client);
    this.counts.set(client, (this.counts.get(client) ?? 0) + 1);
  }

  remove(key: K): void {
    const client = this.owners.get(key);
    if (client === undefined) return;
    this.owners.delete(key);
    const n = (this.counts.get(client) ?? 1) - 1;
    if (n > 0) this.counts.set(client, n);
    else this.counts.delete(client);
  }

  /** The first of `keys` (a table's least recently used first) that `client` holds. */
  oldestOf(client: string, keys: Iterable<K>): K | undefined {
    for (const k of keys) if (this.owners.get(k) === client) return k;
    return undefined;
  }
}
