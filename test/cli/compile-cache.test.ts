// Start-up keeps the modules' compiled code for the next start (Node 22.1+'s module compile cache, written once the
// gateway is ready) unless NODE_DISABLE_COMPILE_CACHE is set, and only in a directory no other user may write to.
// Node 20 has no such cache, and Node 22 writes it only at exit: skipped there.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, storeEnv } from '../helpers/gateway.js';
import { MAIN } from '../helpers/paths.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/**
 * Starts `serve` with TMPDIR (where Node keeps the cache by default) set to a fresh directory, `prepare` run on that
 * directory first; stops it once ready.
 */
async function startAndStop(env: Record<string, string> = {}, prepare: (tmp: string) => void = () => undefined): Promise<string> {
  const tmp = tempDir('gw-cc-');
  prepare(tmp);
  const dataDir = tempDir();
  dirs.push(tmp, dataDir);
  const child = spawn(process.execPath, [MAIN, 'serve'], {
    env: { PATH: process.env.PATH ?? '', TMPDIR: tmp, PORT: '0', GATEWAY_API_PORT: '0', GATEWAY_DATA_DIR: dataDir, ...storeEnv(dataDir), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let buf = '';
    child.stderr!.on('data', (c: Buffer) => {
      buf += c.toString();
      if (buf.includes('"msg":"gateway ready"')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${buf}`)));
  });
  // The cache is written just after ready; SIGKILL shows it does not wait for a graceful exit.
  await new Promise((r) => setTimeout(r, 300));
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
  return path.join(tmp, 'node-compile-cache');
}

const files = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : []);

describe.skipIf(typeof (module as { flushCompileCache?: unknown }).flushCompileCache !== 'function')('the module compile cache', () => {
  it("holds the gateway's compiled modules once it is ready, in a directory only its user may write, and nothing when turned off", async () => {
    const dir = await startAndStop();
    expect(files(dir).length).toBeGreaterThan(100);
    expect(fs.statSync(dir).mode & 0o077).toBe(0);
    expect(files(await startAndStop({ NODE_DISABLE_COMPILE_CACHE: '1' }))).toEqual([]);
  });

  it('is not used from a directory others may write to: code planted there would run as the gateway', async () => {
    const shared = await startAndStop({}, (tmp) => {
      fs.mkdirSync(path.join(tmp, 'node-compile-cache'));
      fs.chmodSync(path.join(tmp, 'node-compile-cache'), 0o777);
    });
    expect(files(shared)).toEqual([]);
  });
});
