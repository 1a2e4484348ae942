// API keys: issued with a fixed live prefix, shown once, stored as SHA-256, looked up through a short cache of at
// most `maxCache` keys (GATEWAY_CREDENTIAL_CACHE_ENTRIES; 0: none).
import { hashSecret, KEY_PREFIX, newId, newSecret } from '../auth/secrets.js';
import type { Db } from '../store/db.js';
import * as store from '../store/keys.js';
import type { Tier } from './tiers.js';

export { KEY_PREFIX };
const TTL_MS = 30_000;

export interface ApiKey {
  id: string;
  tier: Tier;
  hint: string;
}

export class KeyService {
  private readonly cache = new Map<string, { key: ApiKey | null; at: number }>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly maxCache = 10_000,
  ) {}

  /** Creates a key; the plaintext is returned to the caller once and never stored. */
  async issue(o: { tier: Tier; emailHash: string; clientHash: string; agentId: string | null }): Promise<{ key: string; id: string; hint: string }> {
    const key = newSecret(KEY_PREFIX);
    const id = newId('key');
    const hint = `${key.slice(0, KEY_PREFIX.length + 4)}…`;
    await store.insertKey(this.db, { id, hash: hashSecret(key), hint, ...o, now: this.now() });
    return { key, id, hint };
  }

  /** The key behind a presented value, or null for an unknown, malformed or revoked one. */
  async resolve(presented: string): Promise<ApiKey | null> {
    if (!presented.startsWith(KEY_PREFIX) || presented.length > 128) return null;
    const hash = hashSecret(presented);
    const hit = this.cache.get(hash);
    if (hit && this.now() - hit.at < TTL_MS) return hit.key;
    const row = await store.keyByHash(this.db, hash);
    const key = row && row.revoked_at === null ? { id: row.id, tier: row.tier, hint: row.hint } : null;
    if (this.maxCache === 0) return key;
    if (this.cache.size >= this.maxCache) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(hash, { key, at: this.now() });
    return key;
  }
}
