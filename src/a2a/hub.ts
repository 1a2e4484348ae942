// In-process fan-out of task events to the SSE streams listening to a task (message/stream and
// tasks/resubscribe). The database is the record; this only carries what happens while someone listens.
import type { StreamEvent } from './types.js';

type Listener = (e: StreamEvent) => void;

export class TaskHub {
  private readonly listeners = new Map<string, Set<Listener>>();

  /** Returns the function that stops listening. */
  subscribe(taskId: string, l: Listener): () => void {
    let set = this.listeners.get(taskId);
    if (!set) this.listeners.set(taskId, (set = new Set()));
    set.add(l);
    return () => {
      set.delete(l);
      if (set.size === 0 && this.listeners.get(taskId) === set) this.listeners.delete(taskId);
    };
  }

  publish(taskId: string, e: StreamEvent): void {
    const set = this.listeners.get(taskId);
    if (!set) return;
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
}
