// Renders off the event loop, in at most two render processes (started on first use, shared by every gateway
// in this process). A spec is untrusted input to Vega's dataflow (a `sequence` transform can ask for a billion
// rows) and to resvg's native code, so each render has a time limit and each process a capped heap; past
// either, the process is killed and replaced, and the call is a 422 naming the limit.
//
// Processes, not worker threads: a worker that reaches its heap limit can take the whole process down with it
// (V8's fatal out-of-memory, seen here with resourceLimits), a worker cannot be stopped inside native code
// (resvg), and it would share the gateway's environment and file access. A render process gets only PATH (no
// secrets) and, built, runs under Node's permission model (see permissionFlags).
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { requireEngine } from '../../src/engines.js';
import { GatewayError } from '../../src/errors.js';
import { siblingModule } from '../../src/threads.js';
import { LIMITS, type RenderReply, type RenderRequest } from './limits.js';

const ENTRY = siblingModule(import.meta.url, 'render-process');
const POOL_SIZE = Math.max(1, Math.min(2, os.availableParallelism()));

const has = (flag: string): boolean => process.allowedNodeEnvironmentFlags.has(flag);
const PERMISSION = has('--permission') ? '--permission' : has('--experimental-permission') ? '--experimental-permission' : null;

/**
 * Node's permission model for the render process of the built gateway, where the node running it has one: it
 * reads only its own directory and node_modules, writes nothing, starts no process or worker, and may load
 * native addons (resvg). Defence in depth should a spec ever escape Vega's expression sandbox; it does not limit
 * the network. Not from TypeScript sources (tests, tsx): tsx itself needs esbuild's process and workers.
 */
function permissionFlags(nodeModules: string): string[] {
  if (!PERMISSION || !has('--allow-addons')) return [];
  return [PERMISSION, `--allow-fs-read=${path.dirname(fileURLToPath(ENTRY))}`, `--allow-fs-read=${nodeModules}`, '--allow-addons'];
}

function spawn(): ChildProcess {
  const require = createRequire(import.meta.url);
  const nodeModules = path.dirname(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')));
  // From TypeScript sources (tests, tsx) the process loads tsx first, found from here rather than the cwd.
  const mode = ENTRY.pathname.endsWith('.ts') ? ['--import', pathToFileURL(require.resolve('tsx')).href] : permissionFlags(nodeModules);
  return fork(fileURLToPath(ENTRY), [], {
    execArgv: [...mode, `--max-old-space-size=${LIMITS.renderHeapMb}`],
    env: { PATH: process.env.PATH ?? '' },
    serialization: 'advanced',
    // Never the parent's stdout: over stdio it is the MCP channel.
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
}

type Outcome = { reply: RenderReply } | { exited: true };

/** One process, one render at a time. */
class RenderProcess {
  readonly ready: Promise<void>;
  dead = false;
  private readonly child = spawn();
  private seq = 0;
  /** The last of its stderr, to tell an out-of-memory death from another. */
  private stderr = '';
  private pending: ((o: Outcome) => void) | null = null;

  constructor() {
    this.child.stderr!.setEncoding('utf8').on('data', (s: string) => {
      this.stderr = (this.stderr + s).slice(-4000);
    });
    this.ready = new Promise((resolve, reject) => {
      this.child.once('error', reject);
      this.child.once('exit', (code, signal) => reject(new Error(`it exited (${signal ?? code}) before it was ready`)));
      this.child.on('message', (m: 'ready' | [number, RenderReply]) => {
        if (m === 'ready') {
          this.idle();
          return resolve();
        }
        if (m[0] === this.seq) this.settle({ reply: m[1] });
      });
    });
    this.ready.catch(() => undefined);
    this.child.on('error', () => undefined); // a failed kill; 'exit' tells the rest
    this.child.once('exit', () => {
      this.dead = true;
      this.settle({ exited: true });
    });
  }

  private idle(): void {
    this.child.unref();
    (this.child.channel as { unref?(): void } | null | undefined)?.unref?.();
  }

  private busy(): void {
    this.child.ref();
    (this.child.channel as { ref?(): void } | null | undefined)?.ref?.();
  }

  private settle(o: Outcome): void {
    const p = this.pending;
    this.pending = null;
    p?.(o);
  }

  kill(): void {
    this.dead = true;
    this.child.kill('SIGKILL');
  }

  async run(req: RenderRequest, timeoutMs: number): Promise<RenderReply> {
    await this.ready;
    this.busy();
    let timedOut = false;
    try {
      const outcome = await new Promise<Outcome>((resolve) => {
        const timer = setTimeout(() => {
          timedOut = true;
          this.kill();
        }, timeoutMs);
        this.pending = (o) => {
          clearTimeout(timer);
          resolve(o);
        };
        if (this.dead) return this.settle({ exited: true });
        this.child.send([++this.seq, req]);
      });
      if ('reply' in outcome) return outcome.reply;
      if (timedOut) {
        return { ok: false, reason: 'render_timeout', message: `The spec took longer than ${timeoutMs / 1000} s to render; make it simpler (fewer rows or marks).` };
      }
      if (/heap out of memory|Allocation failed/i.test(this.stderr)) {
        return { ok: false, reason: 'render_memory', message: `The spec needs more than the ${LIMITS.renderHeapMb} MB a render may use; make it simpler (fewer rows or marks).` };
      }
      // The process died under this spec: the spec's doing, told as such.
      return { ok: false, reason: 'invalid_spec', message: 'The spec could not be rendered: the renderer stopped while drawing it.' };
    } finally {
      if (!this.dead) this.idle();
    }
  }
}

class RenderPool {
  private readonly idle: RenderProcess[] = [];
  private started = 0;
  private readonly waiting: ((p: RenderProcess) => void)[] = [];

  private async acquire(signal?: AbortSignal): Promise<RenderProcess> {
    const p = this.idle.pop();
    if (p) return p;
    if (this.started < POOL_SIZE) {
      this.started++;
      return new RenderProcess();
    }
    if (this.waiting.length >= LIMITS.maxQueued) throw new GatewayError('unavailable', 'Too many images are being rendered; retry in a moment.', { headers: { 'Retry-After': '1' } });
    return new Promise((resolve, reject) => {
      const take = (proc: RenderProcess) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(proc);
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(take);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new GatewayError('unavailable', 'The call was canceled before its image was rendered.'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(take);
    });
  }

  private release(p: RenderProcess): void {
    const next = this.waiting.shift();
    if (p.dead) {
      this.started--;
      if (next) {
        this.started++;
        next(new RenderProcess());
      }
      return;
    }
    if (next) next(p);
    else this.idle.push(p);
  }

  async render(req: RenderRequest, timeoutMs: number, signal?: AbortSignal): Promise<RenderReply> {
    const p = await this.acquire(signal);
    try {
      return await p.run(req, timeoutMs);
    } catch (err) {
      // Only a process that never started gets here (run() answers everything else).
      p.kill();
      throw new GatewayError('unavailable', `The image renderer could not start: ${(err as Error).message}`);
    } finally {
      this.release(p);
    }
  }
}

let pool: RenderPool | undefined;

/**
 * Renders a spec in a render process; a spec's failures are replies ({ok: false}), the pool's are GatewayErrors.
 * Vega, resvg and the fonts are optional packages (src/engines.ts): checked here, before a process starts, so their
 * absence is a 503 engine_not_installed and not a render process dying on its imports.
 */
export async function renderInProcess(req: RenderRequest, timeoutMs: number, signal?: AbortSignal): Promise<RenderReply> {
  requireEngine('image');
  return (pool ??= new RenderPool()).render(req, timeoutMs, signal);
}
