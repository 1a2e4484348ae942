// Node 22.1+ keeps the bytecode of the modules it compiles in a cache directory (module.enableCompileCache), so
// a later start skips parsing and compiling them: most of start-up is loading modules (docs/decisions/startup.md).
// Node 20 has no such API and starts as before. NODE_DISABLE_COMPILE_CACHE=1 turns it off; NODE_COMPILE_CACHE=<dir>
// chooses the directory (Node's own variables), else it is Node's default under the system's temporary directory.
import module from 'node:module';

type CacheApi = { enableCompileCache?: (dir?: string) => unknown; flushCompileCache?: () => void };

/** Caches what this thread compiles from now on; a cache it cannot write costs only the speed-up. */
export function enableCompileCache(): void {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return;
  (module as CacheApi).enableCompileCache?.();
}

/** Writes what was compiled so far (Node 23+; earlier ones write at exit), so a gateway killed later still left it. */
export function flushCompileCache(): void {
  (module as CacheApi).flushCompileCache?.();
}
