// A storage switched on only during its runs: async work started inside a run sees the store, work outside
// (or left behind after the run) does not, overlapping runs keep their own stores, and after the last run the
// storage is off, so Node stops tracking every promise.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ScopedStorage } from '../src/scoped-storage.js';

/** Node's own flag: an enabled storage keeps the process's async hooks on. */
const enabled = (s: ScopedStorage<unknown>) => (s as unknown as { als: { enabled: boolean } }).als.enabled;

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
    expect(enabled(s)).toBe(true);
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
});
