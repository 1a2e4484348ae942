// A storage switched on only during its runs: async work started inside a run sees the store, work outside
// (or left behind after the run) does not, overlapping runs keep their own stores, and after the last run the
// storage is off, so Node stops tracking every promise. Both of Node's AsyncLocalStorage implementations are
// checked: the one this Node runs by default, and the other one in a child process where a flag selects it.
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ScopedStorage, storageUsesAsyncHooks } from '../src/scoped-storage.js';

const enabled = (s: ScopedStorage<unknown>) => s.tracking;

describe('ScopedStorage', () => {
  it('gives the store to the async work of a run, and none outside it', async () => {
    const s = new ScopedStorage<string>();
    expect(s.getStore()).toBeUndefined();
    const seen = await s.run('a', async () => {
      await sleep(1);
      const inner = await Promise.resolve().then(() => s.getStore());
      return [s.getStore(), inner, s.exit(() => s.getStore())];
    });
    expect(seen).toEqual(['a', 'a', undefined]);
    expect(s.getStore()).toBeUndefined();
    expect(s.exit(() => 'ran')).toBe('ran');
  });

  it('keeps each overlapping run its own store until the last one ends, then switches off', async () => {
    const s = new ScopedStorage<string>();
    let releaseB!: () => void;
    const bWaits = new Promise<void>((r) => (releaseB = r));
    const b = s.run('b', async () => {
      await bWaits;
      await sleep(1);
      return s.getStore();
    });
    expect(await s.run('a', async () => (await sleep(1), s.getStore()))).toBe('a');
    // Async hooks are on while a run is in progress; AsyncContextFrame has none to switch.
    expect(enabled(s)).toBe(storageUsesAsyncHooks);
    releaseB();
    expect(await b).toBe('b');
    expect(enabled(s)).toBe(false);
  });

  it('does not give a run’s store to a timer that fires after the run', async () => {
    const s = new ScopedStorage<string>();
    let late: Promise<string | undefined> | undefined;
    await s.run('gone', async () => {
      late = sleep(5).then(() => s.getStore());
    });
    expect(await late).toBeUndefined();
  });

  it('switches off after a run that fails', async () => {
    const s = new ScopedStorage<string>();
    await expect(s.run('x', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(enabled(s)).toBe(false);
    expect(s.getStore()).toBeUndefined();
  });

  /** The flag that makes this Node use the implementation it does not use by default, if it has one. */
  const otherImplementation = storageUsesAsyncHooks ? '--experimental-async-context-frame' : '--no-async-context-frame';
  const flagKnown = process.allowedNodeEnvironmentFlags.has(otherImplementation);

  it.runIf(flagKnown)('behaves the same on the implementation this Node does not use by default', () => {
    const script = `
      import { ScopedStorage, storageUsesAsyncHooks } from './src/scoped-storage.ts';
      const s = new ScopedStorage();
      const tick = () => new Promise((r) => setTimeout(r, 1));
      let release; const bWaits = new Promise((r) => (release = r));
      const b = s.run('b', async () => { await bWaits; await tick(); return s.getStore(); });
      const a = await s.run('a', async () => { await tick(); return [s.getStore(), s.exit(() => s.getStore())]; });
      const during = s.tracking;
      release();
      const seen = { hooks: storageUsesAsyncHooks, a, b: await b, during, after: s.tracking, outside: s.getStore() ?? null };
      console.log(JSON.stringify(seen));`;
    const out = execFileSync(process.execPath, [otherImplementation, '--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    const seen = JSON.parse(out.trim().split('\n').pop()!);
    expect(seen).toEqual({
      hooks: !storageUsesAsyncHooks,
      a: ['a', null],
      b: 'b',
      during: !storageUsesAsyncHooks,
      after: false,
      outside: null,
    });
  });
});
