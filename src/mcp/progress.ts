// Progress of a long tool call (ctx.progress in the handler), sent as notifications/progress on the request's own
// stream when the request asked for it with a progressToken in its _meta: a 2026-07-28 response then upgrades to
// an SSE stream, a 2025 session sends it on the POST's stream. Each era's server hands over its way to notify.
import type { ProgressReporter } from '../registry/types.js';

export interface ProgressNotification {
  method: 'notifications/progress';
  params: { progressToken: string | number; progress: number; total?: number; message?: string };
}

/** A reporter for the request's token, or none when the request carried no (valid) token. */
export function progressReporter(token: unknown, notify: (n: ProgressNotification) => Promise<void>): ProgressReporter | undefined {
  if (typeof token !== 'string' && typeof token !== 'number') return undefined;
  let last = Number.NEGATIVE_INFINITY;
  return (done, total, message) => {
    // The revision requires each report to go further than the one before; a repeat or a step back is dropped.
    if (!Number.isFinite(done) || done <= last) return;
    last = done;
    const params = { progressToken: token, progress: done, ...(total !== undefined && Number.isFinite(total) ? { total } : {}), ...(message ? { message } : {}) };
    // A closed stream (the client went away) only loses the report; the call goes on.
    notify({ method: 'notifications/progress', params }).catch(() => undefined);
  };
}
