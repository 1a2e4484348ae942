// What a caller without credentials may create, per client and hour, of each kind that stores a row or a file and
// outlives the request (handoffs, jobs, artifacts, OAuth client registrations): a shared rate window per kind, keyed by
// the client, so that no anonymous caller grows the database without bound (docs/decisions/limits.md). An agent's
// creations are bounded by its storage budget instead. Agent registrations are counted the same way, with their own
// allowance: each new agent brings a storage budget of its own.
import type { Clock } from './clock.js';
import type { ToolContext } from './registry/types.js';
import { GatewayError } from './errors.js';
import { rateWindowOf, sharedRateWindow } from './shared-rate-window.js';
import type { Db } from './store/db.js';

export type AnonymousKind = 'handoffs' | 'jobs' | 'artifacts' | 'oauth-clients' | 'agents';

export interface AnonymousCreates {
  db: Db;
  clock: Clock;
  /** GATEWAY_ANONYMOUS_CREATES_PER_HOUR for each kind apart, or GATEWAY_REGISTRATIONS_PER_HOUR for agents. */
  perHour: number;
  /** The keys an in-process window tracks (GATEWAY_RATE_WINDOW_KEYS). */
  maxKeys: number;
}

/** A tool's anonymous caller, counted by its client key. */
export const takeAnonymousCreateOf = (ctx: Pick<ToolContext, 'db' | 'clock' | 'config' | 'services' | 'caller'>, kind: AnonymousKind, what: string): Promise<void> =>
  takeAnonymousCreate(
    { db: ctx.db, clock: ctx.clock, perHour: kind === 'agents' ? ctx.config.registrationsPerHour : ctx.config.anonymousCreatesPerHour, maxKeys: ctx.config.caches.rateWindowKeys },
    kind,
    ctx.services.clientKey(ctx.caller.credentials.ip),
    what,
  );

/** Counts one creation of `kind` by the client; past the hour's allowance, a 429 naming it with Retry-After. */
export async function takeAnonymousCreate(d: AnonymousCreates, kind: AnonymousKind, clientKey: string, what: string): Promise<void> {
  const name = `anonymous-${kind}`;
  const wait = await rateWindowOf(d.db, name, () => sharedRateWindow(d.db, name, d.perHour, 3600_000, d.clock, d.maxKeys)).take(clientKey);
  if (wait) {
    const message =
      kind === 'agents'
        ? `${what} are limited to ${d.perHour} an hour per client (GATEWAY_REGISTRATIONS_PER_HOUR); retry in ${wait} s.`
        : `${what} without credentials are limited to ${d.perHour} an hour per client (GATEWAY_ANONYMOUS_CREATES_PER_HOUR). Register (POST /agents/register) and send the agent's secret for more.`;
    throw new GatewayError(
      'rate_limited',
      message,
      { headers: { 'Retry-After': String(wait) }, extra: { limit: d.perHour, retry_after: wait } },
    );
  }
}
