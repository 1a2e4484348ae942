// Node 22.1+ keeps the bytecode of the modules it compiles in a cache directory (module.enableCompileCache), so
// a later start skips parsing and compiling them: most of start-up is loading modules (docs/decisions/startup.md).
// Node 20 has no such API and starts as before. NODE_DISABLE_COMPILE_CACHE=1 turns it off; NODE_COMPILE_CACHE=<dir>
// chooses the directory (Node's own variables). Node's default directory is shared by every user of the machine
// (under the temporary directory), and bytecode read from it runs as the gateway: it is used only when it is this
// user's own and nobody else may write to it, so another local user cannot plant code there.
import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

type CacheApi = { enableCompileCache?: (dir?: string) => unknown; flushCompileCache?: () => void };

/** True when `dir` is (or is now made as) a directory of this user's that no one else may write to. */
function privateDirectory(dir: string): boolean {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
  }
  try {
    const st = fs.lstatSync(dir);
    return st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** Caches what this thread compiles from now on; a cache it cannot use costs only the speed-up. */
export function enableCompileCache(): void {
  const api = module as CacheApi;
  if (!api.enableCompileCache || process.env.NODE_DISABLE_COMPILE_CACHE) return;
  // A directory the operator named is theirs to choose (Node has already turned the cache on for it).
  if (process.env.NODE_COMPILE_CACHE) return;
  const dir = path.join(os.tmpdir(), 'node-compile-cache');
  if (privateDirectory(dir)) api.enableCompileCache(dir);
}

/** Writes what was compiled so far (Node 23+; earlier ones write at exit), so a gateway killed later still left it. */
export function flushCompileCache(): void {
  (module as CacheApi).flushCompileCache?.();
}
