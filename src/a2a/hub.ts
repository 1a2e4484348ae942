// Fan-out of task events to the SSE streams listening to a task (message/stream and tasks/resubscribe). The
// database is the record; this carries what happens while someone listens. Events published in this process
// reach its listeners at once. A task may also move in another gateway instance on the same database (issue 25:
// a job finished there, a stream reopened here), so while anyone listens the hub polls the listened tasks' rows
// and publishes what changed that its listeners were not told: new artifacts, then the new status. Each
// listened task remembers the statuses and artifacts its listeners were shown, so an event published locally
// and also read back from the row reaches them once. On PostgreSQL a NOTIFY from the writing instance wakes the
// poll at once; the interval is what is left when a signal is lost.
import type { StreamEvent, Task } from './types.js';

type Listener = (e: StreamEvent) => void;

/** The row of a listened task as the poll reads it (a2a_tasks). */
export interface PolledTask {
  id: string;
  context_id: string;
  state: string;
  status: string;
  artifacts: string;
  waiting_ref: string | null;
}

export interface TaskPoller {
  read(ids: string[]): Promise<PolledTask[]>;
  /** Whether a status ends the streams (task-service.ts isFinal). */
  final(row: PolledTask): boolean;
  intervalMs: number;
  onError(err: unknown): void;
  /** Wakes the poll at once when another instance changed a task (PostgreSQL's NOTIFY); returns its stop. */
  signal?(wake: () => void): Promise<() => void>;
}

interface Shown {
  statuses: Set<string>;
  artifacts: Set<string>;
}

const statusKey = (s: unknown): string => JSON.stringify(s);

export class TaskHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Per listened task, what its listeners were shown (only once a stream showed them the task). */
  private readonly shown = new Map<string, Shown>();
  private timer: NodeJS.Timeout | null = null;
  private unsignal: Promise<() => void> | null = null;
  private polling = false;

  constructor(private readonly poller?: TaskPoller) {}

  /** Returns the function that stops listening. */
  subscribe(taskId: string, l: Listener): () => void {
    let set = this.listeners.get(taskId);
    if (!set) this.listeners.set(taskId, (set = new Set()));
    set.add(l);
    if (this.poller && !this.timer) {
      this.timer = setInterval(() => void this.poll(), this.poller.intervalMs);
      this.timer.unref();
      this.unsignal = this.poller.signal?.(() => void this.poll()).catch((err) => (this.poller!.onError(err), () => undefined)) ?? null;
    }
    return () => {
      set.delete(l);
      if (set.size === 0 && this.listeners.get(taskId) === set) {
        this.listeners.delete(taskId);
        this.shown.delete(taskId);
        if (this.listeners.size === 0 && this.timer) {
          clearInterval(this.timer);
          this.timer = null;
          void this.unsignal?.then((stop) => stop());
          this.unsignal = null;
        }
      }
    };
  }

  private shownOf(taskId: string): Shown {
    let k = this.shown.get(taskId);
    if (!k) this.shown.set(taskId, (k = { statuses: new Set(), artifacts: new Set() }));
    return k;
  }

  /** A task its listeners were shown outside the hub (tasks/resubscribe's snapshot): polls report what follows it. */
  saw(task: Task): void {
    if (!this.listeners.has(task.id)) return;
    const k = this.shownOf(task.id);
    k.statuses.add(statusKey(task.status));
    for (const a of task.artifacts) k.artifacts.add(a.artifactId);
  }

  publish(taskId: string, e: StreamEvent): void {
    const set = this.listeners.get(taskId);
    if (!set) return;
    const k = this.shownOf(taskId);
    if (e.kind === 'task') this.saw(e);
    else if (e.kind === 'status-update') {
      const key = statusKey(e.status);
      if (k.statuses.has(key)) return;
      k.statuses.add(key);
    } else {
      if (k.artifacts.has(e.artifact.artifactId)) return;
      k.artifacts.add(e.artifact.artifactId);
    }
    for (const l of [...set]) {
      try {
        l(e);
      } catch {
        // A broken listener must not stop the others.
      }
    }
  }

  listening(taskId: string): boolean {
    return this.listeners.has(taskId);
  }

  /** One poll at a time: the rows of the listened tasks whose listeners were shown them, for what moved elsewhere. */
  private async poll(): Promise<void> {
    const p = this.poller;
    if (!p || this.polling) return;
    const ids = [...this.shown.keys()].filter((id) => this.listeners.has(id));
    if (ids.length === 0) return;
    this.polling = true;
    try {
      for (let i = 0; i < ids.length; i += 500) {
        for (const row of await p.read(ids.slice(i, i + 500))) this.apply(row, p);
      }
    } catch (err) {
      p.onError(err);
    } finally {
      this.polling = false;
    }
  }

  private apply(row: PolledTask, p: TaskPoller): void {
    const k = this.shown.get(row.id);
    if (!k || !this.listeners.has(row.id)) return;
    const status = JSON.parse(row.status) as Task['status'];
    if (k.statuses.has(statusKey(status))) return;
    for (const artifact of JSON.parse(row.artifacts) as Task['artifacts']) {
      if (!k.artifacts.has(artifact.artifactId)) this.publish(row.id, { kind: 'artifact-update', taskId: row.id, contextId: row.context_id, artifact, append: false, lastChunk: true });
    }
    this.publish(row.id, { kind: 'status-update', taskId: row.id, contextId: row.context_id, status, final: p.final(row) });
  }
}
