// Resolves `Authorization: Bearer <secret>` to an agent. Lookups are by SHA-256 of the secret (the only
// form stored) and cached briefly so hot paths skip the database; deletes and rotations evict at once here,
// and the TTL bounds staleness when another gateway process changed the agent. At most `maxEntries` secrets are
// kept (GATEWAY_CREDENTIAL_CACHE_ENTRIES), the oldest out first; 0 looks every secret up.
import { hashSecret } from './secrets.js';
import type { AgentRef } from '../registry/types.js';

const TTL_MS = 30_000;

export class AgentResolver {
  private readonly cache = new Map<string, { agent: AgentRef; at: number }>();

  constructor(
    private readonly lookup: (secretHash: string) => Promise<AgentRef | undefined>,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 10_000,
  ) {}

  async resolve(secret: string): Promise<AgentRef | null> {
    if (secret.length < 8 || secret.length > 512) return null;
    const hash = hashSecret(secret);
    const hit = this.cache.get(hash);
    if (hit && this.now() - hit.at < TTL_MS) return hit.agent;
    const agent = await this.lookup(hash);
    if (!agent) {
      this.cache.delete(hash);
      return null;
    }
    if (this.maxEntries === 0) return agent;
    if (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(hash, { agent: { id: agent.id, handle: agent.handle, suspended_at: agent.suspended_at ?? null }, at: this.now() });
    return agent;
  }

  /** Drops every cached secret of an agent (after delete, secret rotation, suspension or its end). */
  forget(agentId: string): void {
    for (const [k, v] of this.cache) if (v.agent.id === agentId) this.cache.delete(k);
  }
}
