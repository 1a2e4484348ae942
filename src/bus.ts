// In-process events between areas (a write here, a cache or worker there), so areas stay decoupled.
export interface GatewayEvents {
  /** An agent's memory changed (write, delete, expiry): caches of that owner are stale. */
  'memory:changed': { ownerId: string | null };
  /** A job changed status (queued, running, succeeded, failed, canceled). */
  'job:updated': { jobId: string; status: string };
  /** A handoff changed status (parked, completed, rejected, expired). */
  'handoff:updated': { handoffId: string; status: string };
}

type Listener<K extends keyof GatewayEvents> = (e: GatewayEvents[K]) => void;

export class Bus {
  private readonly listeners = new Map<keyof GatewayEvents, Listener<never>[]>();

  on<K extends keyof GatewayEvents>(name: K, l: Listener<K>): void {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), l as Listener<never>]);
  }

  emit<K extends keyof GatewayEvents>(name: K, e: GatewayEvents[K]): void {
    for (const l of this.listeners.get(name) ?? []) {
      try {
        (l as Listener<K>)(e);
      } catch {
        // A listener must never break the emitter.
      }
    }
  }
}
