// Tasks waiting for durable work (a job, a handoff) follow it through the bus events `job:updated` and
// `handoff:updated`: progress is streamed, the end completes the task with the job's or handoff's result.
// At start-up, and right after a task starts waiting, the current status is read once, so an end that
// happened while nobody listened (a restart, a job faster than the write) is not missed.
import type { Bus } from '../bus.js';
import type { Logger } from '../log.js';
import type { Registry } from '../registry/registry.js';
import type { Caller } from '../registry/types.js';
import * as store from '../store/a2a-tasks.js';
import type { Db } from '../store/db.js';
import { WAITING_STATE, waitingText, type Outcome, type Waiting } from './perform.js';
import type { TaskService } from './task-service.js';
import type { TaskState } from './types.js';

/** Tool that reads each kind of durable work, and the field with its id. */
const READERS: Record<Waiting['kind'], { tool: string; field: string }> = {
  job: { tool: 'job_get', field: 'job_id' },
  handoff: { tool: 'handoff_get', field: 'handoff_id' },
};

/** How each end of the work ends the task. */
const ENDS: Record<string, TaskState> = {
  'job:succeeded': 'completed',
  'job:failed': 'failed',
  'job:canceled': 'canceled',
  'handoff:completed': 'completed',
  'handoff:rejected': 'rejected',
  'handoff:expired': 'failed',
};

export class DurableFollower {
  private internal?: Promise<Caller>;

  constructor(
    private readonly service: TaskService,
    private readonly registry: Registry,
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  attach(bus: Bus): void {
    const run = (kind: Waiting['kind'], ref: string, status: string) =>
      void this.update({ kind, ref }, status).catch((err: unknown) => this.log.warn({ err, kind, ref }, 'a2a: could not follow durable work'));
    bus.on('job:updated', (e) => run('job', e.jobId, e.status));
    bus.on('handoff:updated', (e) => run('handoff', e.handoffId, e.status));
    this.service.onWaiting = (taskId) => this.checkTask(taskId);
  }

  /** Reads the work's state now (job_get / handoff_get) and applies it. */
  private async read(w: Waiting): Promise<Record<string, unknown> | null> {
    const r = READERS[w.kind];
    if (!this.registry.get(r.tool)) return null;
    this.internal ??= this.registry.resolve({ ip: 'internal', transport: 'internal' });
    try {
      return (await this.registry.invoke(r.tool, { [r.field]: w.ref }, await this.internal)).result as Record<string, unknown>;
    } catch {
      return null;
    }
  }

  private outcome(w: Waiting, status: string, detail: Record<string, unknown> | null): Outcome {
    const end = ENDS[`${w.kind}:${status}`];
    const label = `${w.kind === 'job' ? 'Job' : 'Handoff'} ${w.ref}`;
    if (!end) {
      // The first status (queued, parked) reads as the task said when it started waiting: nothing new.
      const text = status === 'queued' || status === 'parked' ? waitingText(w) : `${label} is ${status}.`;
      return { state: WAITING_STATE[w.kind], parts: [{ kind: 'text', text }], artifacts: [], waiting: w };
    }
    const why = typeof detail?.error === 'string' ? `: ${detail.error}` : typeof detail?.reason === 'string' ? `: ${detail.reason}` : '';
    const data = detail ?? { [READERS[w.kind].field]: w.ref, status };
    const text = { kind: 'text' as const, text: `${label} ${status}${why}.` };
    // A result goes in an artifact; an unhappy end keeps its details in the reply.
    if (end === 'completed') return { state: end, parts: [text], artifacts: [{ artifactId: `${w.kind}-${w.ref}`, name: `${w.kind}_result`, parts: [{ kind: 'data', data }] }], waiting: null };
    return { state: end, parts: [text, { kind: 'data', data }], artifacts: [], waiting: null };
  }

  /** Applies a status of the work to every open task waiting for it. */
  async update(w: Waiting, status: string, known?: Record<string, unknown> | null): Promise<void> {
    const rows = await store.tasksWaitingOn(this.db, w.kind, w.ref);
    if (rows.length === 0) return;
    const detail = known !== undefined ? known : ENDS[`${w.kind}:${status}`] ? await this.read(w) : null;
    for (const row of rows) await this.service.settleWaiting(row, this.outcome(w, status, detail));
  }

  private async check(w: Waiting): Promise<void> {
    const now = await this.read(w);
    if (now && typeof now.status === 'string') await this.update(w, now.status, now);
  }

  async checkTask(taskId: string): Promise<void> {
    const row = await store.taskById(this.db, taskId);
    if (row?.waiting_kind && row.waiting_ref) await this.check({ kind: row.waiting_kind, ref: row.waiting_ref });
  }

  /** Start-up: catches up with work that changed while no gateway listened. */
  async reconcile(): Promise<void> {
    const seen = new Set<string>();
    for (const row of await store.waitingTasks(this.db, 10_000)) {
      const key = `${row.waiting_kind}:${row.waiting_ref}`;
      if (seen.has(key) || !row.waiting_kind || !row.waiting_ref) continue;
      seen.add(key);
      await this.check({ kind: row.waiting_kind, ref: row.waiting_ref }).catch((err: unknown) => this.log.warn({ err, key }, 'a2a: reconcile failed'));
    }
  }
}
