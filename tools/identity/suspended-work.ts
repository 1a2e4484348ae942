// Background work on behalf of a suspended agent (its watches' checks, its jobs and timers, the webhooks to its
// callbacks) waits instead of running: an operator who suspends an abusive agent stops what it set going too. The
// work is kept, with the attempts it used, and runs once the suspension is lifted.
import type { WorkerContext } from '../../src/workers.js';
import type { WorkOutcome } from '../../src/scheduler/scheduler.js';
import { isSuspended } from './store.js';

/** While its owner is suspended, an item is looked at again this much later: a point read a minute. */
export const SUSPENDED_RECHECK_MS = 60_000;

/** The outcome that holds a work item, when `agentId`'s owner is suspended; null when the work may run. */
export async function holdIfSuspended(ctx: Pick<WorkerContext, 'db' | 'clock'>, agentId: string | null | undefined): Promise<WorkOutcome | null> {
  if (!agentId || !(await isSuspended(ctx.db, agentId))) return null;
  return { next: ctx.clock.now() + SUSPENDED_RECHECK_MS, held: true };
}
