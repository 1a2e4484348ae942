// Worker threads for work that must not hold the event loop (WAL checkpoints with their fsync, NLP). A thread
// serves requests with serveThread(); the main side calls it through a ThreadClient.
import fs from 'node:fs';
import os from 'node:os';
import { parentPort, Worker } from 'node:worker_threads';

/**
 * Starts the thread whose entry module is `entry` (a sibling module's URL). Running from TypeScript sources
 * (tests, tsx), Node 20 applies no loader to a worker's entry, so the thread registers tsx before importing it.
 */
export function spawnThread(entry: URL, workerData?: unknown): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData });
  const boot = `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(boot, { eval: true, workerData });
}

/** The URL of a module next to `from` (import.meta.url), with the extension the caller itself runs with. */
export const siblingModule = (from: string, name: string): URL => new URL(`./${name}${from.endsWith('.ts') ? '.ts' : '.js'}`, from);

type Reply = [id: number, ok: boolean, value: unknown];

/**
 * Gives the calling thread the lowest CPU priority (Linux: nice 19 for this thread alone), so background work
 * takes only CPU that requests leave idle. False where the platform offers no per-thread priority.
 */
export function lowerThreadPriority(): boolean {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    os.setPriority(tid, 19);
    return true;
  } catch {
    return false;
  }
}

/** Answers the main thread's requests with `handle` (called one at a time, in order). */
export function serveThread<Req, Res>(handle: (req: Req) => Res | Promise<Res>, onStop?: () => void): void {
  const port = parentPort!;
  let chain: Promise<unknown> = Promise.resolve();
  port.on('message', (m: [number, Req] | 'stop') => {
    if (m === 'stop') {
      void chain.then(() => {
        onStop?.();
        port.close();
      });
      return;
    }
    const [id, req] = m;
    chain = chain
      .then(() => handle(req))
      .then(
        (v) => port.postMessage([id, true, v] satisfies Reply),
        (e: unknown) => port.postMessage([id, false, e instanceof Error ? e.message : String(e)] satisfies Reply),
      );
  });
  port.postMessage('ready');
}

/** The main side of a thread started with spawnThread and served with serveThread. */
export class ThreadClient<Req, Res> {
  private readonly waiting = new Map<number, { resolve(v: Res): void; reject(e: Error): void }>();
  private seq = 0;
  private failure: Error | null = null;
  private readonly exited: Promise<void>;

  private constructor(private readonly worker: Worker) {
    worker.on('message', ([id, ok, value]: Reply) => {
      const w = this.waiting.get(id);
      if (!w) return;
      this.waiting.delete(id);
      if (ok) w.resolve(value as Res);
      else w.reject(new Error(String(value)));
      if (this.waiting.size === 0) worker.unref();
    });
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    const fail = (err: Error) => {
      this.failure ??= err;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.once('exit', () => fail(new Error('the thread has stopped')));
  }

  /** Resolves once the thread's entry module has loaded and it serves requests. */
  static start<Req, Res>(entry: URL, workerData?: unknown): Promise<ThreadClient<Req, Res>> {
    const worker = spawnThread(entry, workerData);
    return new Promise((resolve, reject) => {
      worker.once('message', () => {
        worker.off('error', reject);
        worker.unref();
        resolve(new ThreadClient<Req, Res>(worker));
      });
      worker.once('error', reject);
    });
  }

  /** True until the thread stops or fails. */
  get alive(): boolean {
    return this.failure === null;
  }

  /** Called when the thread dies without being stopped. */
  onFailure(fn: (err: Error) => void): void {
    this.worker.on('error', fn);
  }

  call(req: Req): Promise<Res> {
    if (this.failure) return Promise.reject(this.failure);
    const id = ++this.seq;
    if (this.waiting.size === 0) this.worker.ref();
    return new Promise<Res>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage([id, req]);
    });
  }

  /** Lets requests in flight finish, then ends the thread. */
  async stop(): Promise<void> {
    if (this.failure) return;
    this.failure = new Error('the thread was stopped');
    this.worker.ref();
    this.worker.postMessage('stop');
    await this.exited;
  }
}
