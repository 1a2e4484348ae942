// A Node binary in the bundle's range (package.json engines.node): the server runs only there (its SQLite driver
// needs Node-API 10), so the build lists its tools with one, and the test stands one in for the host's own Node.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './bundle-run.js';

/** Whether `version` (v1.2.3) meets a range of the form >=X[.Y[.Z]], the form engines.node has here. */
export function satisfies(version: string, range: string): boolean {
  const floor = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!floor) throw new Error(`engines.node "${range}" is not of the form >=X.Y.Z: extend satisfies() in scripts/bundle-node.ts`);
  const have = version.replace(/^v/, '').split('.').map(Number);
  const want = floor.slice(1).map((n) => Number(n ?? 0));
  for (let i = 0; i < 3; i++) if (have[i] !== want[i]) return have[i] > want[i];
  return true;
}

/** This Node if it is in range, else the newest in range unpacked by scripts/node-from-registry.sh into .node-versions/. */
export function nodeInRange(range: string): string | undefined {
  if (satisfies(process.version, range)) return process.execPath;
  const dir = path.join(ROOT, '.node-versions');
  const majors = fs.existsSync(dir) ? fs.readdirSync(dir).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const major of majors) {
    const bin = path.join(dir, major, 'package', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
    if (fs.existsSync(bin) && satisfies(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim(), range)) return bin;
  }
  return undefined;
}
