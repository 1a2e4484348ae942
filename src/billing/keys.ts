// API keys: issued with a fixed live prefix, shown once, stored as SHA-256, looked up through a short cache of at
// most `maxCache` keys (GATEWAY_CREDENTIAL_CACHE_ENTRIES; 0: none).
import { hashSecret, KEY_PREFIX, newId, newSecret } from '../auth/secrets.js';
import { GatewayError } from '../errors.js';
import type { Db, TxOptions } from '../store/db.js';
import * as store from '../store/keys.js';
import type { KeyLimits } from '../store/keys.js';
import type { Tier } from './tiers.js';

export { KEY_PREFIX };
const TTL_MS = 30_000;

/**
 * Every issue counts and inserts under this lock (a keyed transaction): the limits of an issue span two scopes (an
 * email, a client address) that other issues share, and issues are few, so one key serialises them all
 * (docs/decisions/limits.md).
 */
const ISSUE_LOCK: TxOptions = { lockKey: 'api-keys:issue' };

export interface KeyOwner {
  tier: Tier;
  emailHash: string;
  clientHash: string;
  agentId: string | null;
}

export interface IssuedKey {
  key: string;
  id: string;
  hint: string;
}

export interface ApiKey {
  id: string;
  tier: Tier;
  hint: string;
  /** The agent that issued it, if any: while that agent is suspended, the key is refused with it. */
  agentId: string | null;
}

/** A looked-up key (cached): the key, or null when unknown or revoked; whether its agent is suspended. */
interface Hit {
  key: ApiKey | null;
  suspended: boolean;
  at: number;
}

export class KeyService {
  private readonly cache = new Map<string, Hit>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly maxCache = 10_000,
  ) {}

  /** Creates a key; the plaintext is returned to the caller once and never stored. */
  async issue(o: KeyOwner): Promise<IssuedKey> {
    const { issued, row } = this.make(o);
    // Under the issue lock too: a limited issue's counts must see every key inserted before it.
    await this.db.transaction((tx) => store.insertKey(tx, row), ISSUE_LOCK);
    return issued;
  }

  /** Creates a key unless one of `limits` is reached: then the limit that refused it, and nothing is stored. */
  async issueWithin(o: KeyOwner, limits: KeyLimits): Promise<IssuedKey | { refused: 'email' | 'client' }> {
    const { issued, row } = this.make(o);
    const refused = await this.db.transaction((tx) => store.insertKeyWithin(tx, row, limits), ISSUE_LOCK);
    return refused ? { refused } : issued;
  }

  /** A new key for `o`: what its caller is shown, and the row that stores it (hashed). */
  private make(o: KeyOwner): { issued: IssuedKey; row: store.NewKey } {
    const key = newSecret(KEY_PREFIX);
    const issued = { key, id: newId('key'), hint: `${key.slice(0, KEY_PREFIX.length + 4)}…` };
    return { issued, row: { id: issued.id, hash: hashSecret(key), hint: issued.hint, ...o, now: this.now() } };
  }

  /**
   * Drops a revoked key from this instance's cache, so it is refused here at once; other instances refuse it when
   * their entry expires (TTL_MS).
   */
  forget(id: string): void {
    for (const [hash, hit] of this.cache) if (hit.key?.id === id) this.cache.delete(hash);
  }

  /** Drops the cached keys an agent issued (its suspension began or ended), so this instance sees the change at once. */
  forgetAgent(agentId: string): void {
    for (const [hash, hit] of this.cache) if (hit.key?.agentId === agentId) this.cache.delete(hash);
  }

  /**
   * The key behind a presented value, or null for an unknown, malformed or revoked one. A key its agent issued is
   * refused with 403 agent_suspended while that agent is suspended, like the agent's own credentials.
   */
  async resolve(presented: string): Promise<ApiKey | null> {
    if (!presented.startsWith(KEY_PREFIX) || presented.length > 128) return null;
    const hit = await this.lookup(hashSecret(presented));
    if (hit.suspended) throw new GatewayError('agent_suspended');
    return hit.key;
  }

  private async lookup(hash: string): Promise<Hit> {
    const hit = this.cache.get(hash);
    if (hit && this.now() - hit.at < TTL_MS) return hit;
    const row = await store.keyByHash(this.db, hash);
    const key = row && row.revoked_at === null ? { id: row.id, tier: row.tier, hint: row.hint, agentId: row.agent_id } : null;
    const fresh = { key, suspended: key !== null && row!.suspended_at !== null, at: this.now() };
    if (this.maxCache === 0) return fresh;
    if (this.cache.size >= this.maxCache) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(hash, fresh);
    return fresh;
  }
}
