// Commercial accounts (issue 23): one per email, with a revenue key (prefix agr_live_) shown once and stored as
// SHA-256, looked up through a short cache like the gateway's API keys (GATEWAY_CREDENTIAL_CACHE_ENTRIES; 0: none).
import { hashSecret, newId, newSecret, REVENUE_KEY_PREFIX } from '../auth/secrets.js';
import type { AccountRef } from '../registry/call-types.js';
import type { Db, TxOptions } from '../store/db.js';
import * as store from '../store/accounts.js';

export { REVENUE_KEY_PREFIX };

export type { AccountRef };

const TTL_MS = 30_000;
/** Signups are few: one key serialises them all, across instances too (a keyed transaction). */
const SIGNUP_LOCK: TxOptions = { lockKey: 'accounts:signup' };

const hintOf = (key: string) => `${key.slice(0, REVENUE_KEY_PREFIX.length + 4)}…`;

export class Accounts {
  private readonly cache = new Map<string, { account: AccountRef | null; at: number }>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly maxCache = 10_000,
  ) {}

  /**
   * Opens an account unless the client address opened `perClient.limit` since `perClient.since` ('client') or the
   * email has one already ('email'). The key is returned once and never stored.
   */
  async open(
    o: { email: string; name: string; clientHash: string },
    perClient: { limit: number; since: number },
  ): Promise<{ key: string; hint: string; account: AccountRef; createdAt: number } | { refused: 'client' | 'email' }> {
    const key = newSecret(REVENUE_KEY_PREFIX);
    const account = { id: newId('acct'), email: o.email, name: o.name };
    const createdAt = this.now();
    const row: store.AccountRow = { ...account, key_hash: hashSecret(key), key_hint: hintOf(key), client_hash: o.clientHash, created_at: createdAt };
    // Count then insert under one lock for every signup, so concurrent signups cannot all pass the count
    // (docs/decisions/limits.md); the email's uniqueness is the index's.
    const refused = await this.db.transaction(async (tx) => {
      if ((await store.countSignups(tx, o.clientHash, perClient.since)) >= perClient.limit) return 'client' as const;
      return (await store.insertAccount(tx, row)) ? null : ('email' as const);
    }, SIGNUP_LOCK);
    return refused ? { refused } : { key, hint: row.key_hint, account, createdAt };
  }

  /** A new key for the account of `email` (the operator's recovery of a lost key); null when there is none. */
  async replaceKey(email: string): Promise<{ key: string; hint: string; account: AccountRef } | null> {
    const row = await store.accountByEmail(this.db, email);
    if (!row) return null;
    const key = newSecret(REVENUE_KEY_PREFIX);
    await store.replaceKey(this.db, row.id, hashSecret(key), hintOf(key));
    this.cache.clear();
    return { key, hint: hintOf(key), account: { id: row.id, email: row.email, name: row.name } };
  }

  /** The account behind a presented key, or null for an unknown or malformed one. */
  async resolve(presented: string): Promise<AccountRef | null> {
    if (!presented.startsWith(REVENUE_KEY_PREFIX) || presented.length > 128) return null;
    const hash = hashSecret(presented);
    const hit = this.cache.get(hash);
    if (hit && this.now() - hit.at < TTL_MS) return hit.account;
    const row = await store.accountByKeyHash(this.db, hash);
    const account = row ? { id: row.id, email: row.email, name: row.name } : null;
    if (this.maxCache === 0) return account;
    if (this.cache.size >= this.maxCache) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(hash, { account, at: this.now() });
    return account;
  }
}
