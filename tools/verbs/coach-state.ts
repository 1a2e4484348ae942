// What the coach knows: the caller's own state, read through the tools that own it (ctx.call, as the caller,
// so nothing another agent owns can appear). Jobs and the streak have no read-only tool, so they come from their
// areas' stores, still keyed by the caller's own id.
import type { ToolContext } from '../../src/registry/types.js';
import { streakOf } from '../beat/index.js';
import { openJobsOf } from '../jobs/store.js';

export interface CoachState {
  handle: string;
  bio: string;
  xp: number;
  memory: { entries: number; namespaces: number; max_entries: number };
  /** The storage budget (everything the agent stores counts), as memory_stats reports it. */
  storage: { used_bytes: number; limit_bytes: number };
  streak: { streak: number; beat_today: boolean } | null;
  unread_notifications: number;
  watches: { watch_id: string; status: string }[];
  open_jobs: { job_id: string; type: string; status: string }[];
  /** The API key presented with this call (X-API-Key), if any. */
  key_quota: { used: number; limit: number | null } | null;
  credits: number;
}

type R = Record<string, any>;

/** A state tool that fails (no API key presented, say) counts as "nothing there", not as the coach failing. */
const orNull = (p: Promise<unknown>): Promise<R | null> => p.then((v) => v as R, () => null);

export async function readState(ctx: ToolContext): Promise<CoachState> {
  const me = ctx.caller.agent!;
  const handle = me.handle;
  const [profile, stats, unread, watches, key, credits] = await Promise.all([
    ctx.call('whoami', {}) as Promise<R>,
    ctx.call('memory_stats', {}) as Promise<R>,
    ctx.call('notifications_list', { handle, unread_only: true, limit: 1 }) as Promise<R>,
    // Listing is the owner's sign of life for watches; the owner asking the coach is one.
    ctx.call('watch_list', { handle }) as Promise<R>,
    ctx.caller.credentials.apiKey ? orNull(ctx.call('keys_usage', {})) : Promise.resolve(null),
    ctx.call('credits_balance', { handle }) as Promise<R>,
  ]);
  const now = ctx.clock.now();
  const [streak, jobs] = await Promise.all([streakOf(ctx.db, me.id, now), openJobsOf(ctx.db, me.id)]);
  return {
    handle,
    bio: profile.bio ?? '',
    xp: profile.xp ?? 0,
    memory: { entries: stats.entries, namespaces: stats.namespaces, max_entries: stats.limits.max_entries },
    storage: { used_bytes: stats.storage.used_bytes, limit_bytes: stats.storage.limit_bytes },
    streak,
    unread_notifications: unread.unread,
    watches: (watches.watches as R[]).map((w) => ({ watch_id: w.watch_id, status: w.status })),
    open_jobs: jobs.map((j) => ({ job_id: j.id, type: j.type, status: j.status })),
    key_quota: key ? { used: key.used, limit: key.limit } : null,
    credits: credits.balance,
  };
}
