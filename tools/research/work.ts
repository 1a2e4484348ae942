// What ties a research call to its job while both live in one process: the job's progress (the runner reports,
// a waiting call hears), the call's cancellation (a client that stops waiting stops the reading), and the wait
// for the job to end (the jobs' own 'job:updated' on the bus, with a slow poll of the row for a job that another
// gateway process runs). Nothing here is needed for the job to run or to be read: it only shortens the wait.
import type { Bus } from '../../src/bus.js';
import type { Db } from '../../src/store/db.js';
import { jobById, type JobRow } from '../jobs/store.js';

export type ProgressListener = (done: number, total: number | undefined, message: string) => void;

const listeners = new Map<string, ProgressListener>();
const controllers = new Map<string, AbortController>();

/** The runner's report of how far job `id` has got, to whoever waits for it here. */
export function reportProgress(id: string, done: number, total: number | undefined, message: string): void {
  try {
    listeners.get(id)?.(done, total, message);
  } catch {
    // A listener never breaks the job.
  }
}

/** Hears job `id`'s progress; returns the way to stop. */
export function onProgress(id: string, l: ProgressListener): () => void {
  listeners.set(id, l);
  return () => {
    if (listeners.get(id) === l) listeners.delete(id);
  };
}

/** Job `id` stops its reading when `signal` aborts (the waiting client went away); returns the way to unlink. */
export function linkAbort(id: string, signal: AbortSignal | undefined): () => void {
  if (!signal) return () => undefined;
  const c = new AbortController();
  controllers.set(id, c);
  const abort = () => c.abort(signal.reason);
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  return () => {
    signal.removeEventListener('abort', abort);
    if (controllers.get(id) === c) controllers.delete(id);
  };
}

/** The signal job `id`'s runner honours: aborted when the call that waits for it here has gone. */
export const jobSignal = (id: string): AbortSignal | undefined => controllers.get(id)?.signal;

const ENDED = new Set(['succeeded', 'failed', 'canceled']);
const waiting = new WeakMap<Bus, Map<string, Set<() => void>>>();

/** One bus listener per gateway, waking the waiters of the job that changed. */
function wakeups(bus: Bus): Map<string, Set<() => void>> {
  let m = waiting.get(bus);
  if (!m) {
    const map = new Map<string, Set<() => void>>();
    bus.on('job:updated', (e) => {
      if (ENDED.has(e.status)) for (const w of map.get(e.jobId) ?? []) w();
    });
    waiting.set(bus, (m = map));
  }
  return m;
}

export interface WaitOptions {
  /** Stop waiting (rejecting with the signal's reason) when it aborts. */
  signal?: AbortSignal;
  /** Give up (resolving undefined) after this long, in real time. */
  timeoutMs?: number;
  /** Read the row this often in case the job runs in another process (real time, not the gateway's clock). */
  pollMs?: number;
}

/**
 * The job's row once it has ended (succeeded, failed or canceled), or undefined when `timeoutMs` passed first.
 * Timers are real time and unref'd: a test's manual clock does not have to move, and a wait never keeps the
 * process alive.
 */
export function waitForJob(ctx: { db: Db; services: { bus: Bus } }, id: string, opts: WaitOptions = {}): Promise<JobRow | undefined> {
  const { signal, timeoutMs, pollMs = 1000 } = opts;
  const map = wakeups(ctx.services.bus);
  return new Promise<JobRow | undefined>((resolve, reject) => {
    let done = false;
    let poll: NodeJS.Timeout | undefined;
    let deadline: NodeJS.Timeout | undefined;
    const set = map.get(id) ?? new Set<() => void>();
    map.set(id, set);
    const end = (then: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(poll);
      clearTimeout(deadline);
      set.delete(check);
      if (!set.size && map.get(id) === set) map.delete(id);
      signal?.removeEventListener('abort', aborted);
      then();
    };
    function check(): void {
      jobById(ctx.db, id).then(
        (row) => {
          if (row && ENDED.has(row.status)) end(() => resolve(row));
          else if (!row) end(() => reject(new Error(`job ${id} vanished`)));
        },
        (err: unknown) => end(() => reject(err)),
      );
    }
    function aborted(): void {
      end(() => reject(signal!.reason ?? new Error('aborted')));
    }
    const tick = () => {
      poll = setTimeout(() => {
        if (done) return;
        check();
        tick();
      }, pollMs);
      poll.unref();
    };
    set.add(check);
    if (signal?.aborted) return aborted();
    signal?.addEventListener('abort', aborted, { once: true });
    if (timeoutMs !== undefined) {
      deadline = setTimeout(() => end(() => resolve(undefined)), timeoutMs);
      deadline.unref();
    }
    check(); // it may have ended already
    tick();
  });
}
