// Worker threads for work that must not hold the event loop (WAL checkpoints with their fsync, NLP). A thread
// serves requests with serveThread(); the main side calls it through a ThreadClient.
import fs from 'node:fs';
import os from 'node:os';
import { parentPort, Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * Starts the thread whose entry module is `entry` (a sibling module's URL). Running from TypeScript sources
 * (tests, tsx), Node 20 applies no loader to a worker's entry, so the thread registers tsx before importing it.
 */
export function spawnThread(entry: URL, workerData?: unknown, resourceLimits?: ResourceLimits): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData, resourceLimits });
  const boot = `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(boot, { eval: true, workerData, resourceLimits });
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

/**
 * Calls waiting on a worker thread, by id. The worker keeps the process alive only while some are waiting; when
 * it fails or exits, every waiting call is rejected and later ones fail at once.
 */
export class PendingCalls {
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private seq = 0;
  failure: Error | null = null;

  constructor(
    private readonly worker: Worker,
    stoppedMessage: string,
  ) {
    const fail = (err: Error) => {
      this.failure ??= err;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.once('exit', () => fail(new Error(stoppedMessage)));
  }

  /** A new call: its id (for the message) and the promise its reply settles. */
  open<T>(): { id: number; reply: Promise<T> } {
    const id = ++this.seq;
    if (this.waiting.size === 0) this.worker.ref();
    const reply = new Promise<T>((resolve, reject) => this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject }));
    return { id, reply };
  }

  settle(id: number, ok: boolean, value: unknown): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    if (ok) w.resolve(value);
    else w.reject(value as Error);
    if (this.waiting.size === 0) this.worker.unref();
  }
}

/** The main side of a thread started with spawnThread and served with serveThread. */
export class ThreadClient<Req, Res> {
  private readonly calls: PendingCalls;
  private readonly exited: Promise<void>;

  private constructor(private readonly worker: Worker) {
    this.calls = new PendingCalls(worker, 'the thread has stopped');
    worker.on('message', ([id, ok, value]: Reply) => this.calls.settle(id, ok, ok ? value : new Error(String(value))));
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
  }

  /** Resolves once the thread's entry module has loaded and it serves requests. */
  static start<Req, Res>(entry: URL, workerData?: unknown, resourceLimits?: ResourceLimits): Promise<ThreadClient<Req, Res>> {
    const worker = spawnThread(entry, workerData, resourceLimits);
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
    return this.calls.failure === null;
  }

  /** Called when the thread dies without being stopped. */
  onFailure(fn: (err: Error) => void): void {
    this.worker.on('error', fn);
  }

  call(req: Req): Promise<Res> {
    if (this.calls.failure) return Promise.reject(this.calls.failure);
    const { id, reply } = this.calls.open<Res>();
    this.worker.postMessage([id, req]);
    return reply;
  }

  /** Lets requests in flight finish, then ends the thread. */
  async stop(): Promise<void> {
    if (this.calls.failure) return;
    this.calls.failure = new Error('the thread was stopped');
    this.worker.ref();
    this.worker.postMessage('stop');
    await this.exited;
  }
}

/**
 * A function that runs on a thread of its own (the module `entry` serving it with serveThread): the thread starts
 * with the first call and is shared by every gateway of the process; one that stopped (a crash on some input) is
 * replaced at the next call. For CPU-heavy work (page extraction, code review) that would stall the event loop.
 */
export function sharedThread<Req, Res>(entry: URL): (req: Req) => Promise<Res> {
  let thread: Promise<ThreadClient<Req, Res>> | null = null;
  const client = async (): Promise<ThreadClient<Req, Res>> => {
    const t = await (thread ??= ThreadClient.start<Req, Res>(entry)).catch((err: unknown) => {
      thread = null;
      throw err;
    });
    if (t.alive) return t;
    thread = null;
    return client();
  };
  return async (req) => (await client()).call(req);
}
