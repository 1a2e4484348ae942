// The real CLI: start-up, readiness, graceful stop on SIGTERM, and data kept across restarts.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { api, tempDir, storeEnv } from '../helpers/gateway.js';
import { MAIN } from '../helpers/paths.js';

const dataDir = tempDir();
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function serve(): Promise<{ child: ChildProcess; url: string; apiUrl: string }> {
  const child = spawn(process.execPath, [MAIN, 'serve'], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', GATEWAY_DATA_DIR: dataDir, ...storeEnv(dataDir), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stderr!.on('data', (c: Buffer) => {
      buf += c.toString();
      const m = /"url":"(http:[^"]+)","api_url":"(http:[^"]+)".*"msg":"gateway ready"/.exec(buf);
      if (m) resolve({ child, url: m[1], apiUrl: m[2] });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${buf}`)));
  });
}

const exited = (child: ChildProcess) => new Promise<number | null>((r) => child.on('exit', (code) => r(code)));

describe('agent-gateway serve', () => {
  it('starts, serves, stops gracefully on SIGTERM and keeps its data', async () => {
    const first = await serve();
    expect((await api(first.url, 'GET', '/readyz')).status).toBe(200);
    // The commercial group's listener is served by the same process (its own port: PORT=0 picks one for both).
    expect(first.apiUrl).not.toBe(first.url);
    expect((await api(first.apiUrl, 'GET', '/readyz')).status).toBe(200);
    expect((await api(first.apiUrl, 'GET', '/openapi.json')).body.info.title).toBe('Agent Gateway commercial API');
    const reg = await api(first.url, 'POST', '/agents/register', { body: { handle: 'cli-agent' } });
    expect(reg.status).toBe(201);
    const done = exited(first.child);
    first.child.kill('SIGTERM');
    expect(await done).toBe(0);

    const second = await serve();
    expect((await api(second.url, 'GET', '/agents/cli-agent')).status).toBe(200);
    const done2 = exited(second.child);
    second.child.kill('SIGINT');
    expect(await done2).toBe(0);
  });

  it('stops cleanly on SIGTERM while writes and heavy reads are in flight, losing no acknowledged write', async () => {
    const first = await serve();
    const reg = await api(first.url, 'POST', '/agents/register', { body: { handle: 'busy-agent' } });
    const secret = reg.body.secret as string;
    let stderr = '';
    first.child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    // Writes go to the writer thread; searches and wall topic pages to the reader threads.
    const acknowledged: string[] = [];
    const calls = Array.from({ length: 120 }, (_, i) => {
      const call =
        i % 3 === 0
          ? api(first.url, 'PUT', `/memory/busy/k${i}`, { secret, body: { value: `value number ${i} about shutdown` } }).then((r) => {
              if (r.status === 200 || r.status === 201) acknowledged.push(`k${i}`);
            })
          : api(first.url, 'GET', i % 3 === 1 ? `/search?q=shutdown+${i}&handle=busy-agent` : '/wall?topic=shutdown', { secret });
      return call.catch(() => undefined); // refused or cut off by the shutdown: expected
    });
    await new Promise((r) => setTimeout(r, 30));
    const done = exited(first.child);
    first.child.kill('SIGTERM');
    await Promise.all(calls);
    expect(await done).toBe(0);
    expect(stderr).not.toMatch(/Assertion failed|Native stack trace|Segmentation fault/);
    // Every acknowledged write has its access line: the lines still held in the log's buffer went out at exit.
    expect(stderr.match(/"method":"PUT","route":"[^"]+","status":20[01]/g)?.length ?? 0).toBeGreaterThanOrEqual(acknowledged.length);

    const second = await serve();
    for (const key of acknowledged) {
      expect((await api(second.url, 'GET', `/memory/busy/${key}`, { secret })).status, key).toBe(200);
    }
    const done2 = exited(second.child);
    second.child.kill('SIGTERM');
    expect(await done2).toBe(0);
  });

  it('refuses a bad configuration with a clear message and exit code 2', async () => {
    const child = spawn(process.execPath, [MAIN, 'serve'], { env: { PATH: process.env.PATH ?? '', PORT: 'eighty' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    expect(await exited(child)).toBe(2);
    expect(err).toContain('PORT="eighty"');
  });
});
