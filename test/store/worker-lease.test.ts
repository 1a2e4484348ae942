// The lease on a background worker (src/store/worker-lease.ts), on both stores: one of several instances holds it
// at a time; it renews while it works, gives it up when told to (its gateway stops), and one that dies is taken
// over once its lease has run out.
import { beforeAll, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { LEASE_TTL_MS, WorkerLease } from '../../src/store/worker-lease.js';
import { onEachStore } from '../helpers/each-store.js';

onEachStore('WorkerLease', (store) => {
  let db: Db;
  beforeAll(async () => {
    db = store();
  });
  const holderOf = async (name: string) => (await db.get<{ holder: string; until: number }>('SELECT holder, until FROM worker_leases WHERE name = ?', [name])) ?? null;

  it('lets one instance at a time hold it; the other may take it once it is given up', async () => {
    const a = new WorkerLease('facts', 'instance-a');
    const b = new WorkerLease('facts', 'instance-b');
    const t = 1_000_000;
    expect(await a.hold(db, t)).toBe(true);
    expect(await b.hold(db, t)).toBe(false);
    expect(await a.hold(db, t + 100)).toBe(true);
    expect(await holderOf('facts')).toEqual({ holder: 'instance-a', until: t + LEASE_TTL_MS });
    // A lease of another name is another lease.
    expect(await b.hold(db, t)).toBe(false);
    expect(await new WorkerLease('embeddings', 'instance-b').hold(db, t)).toBe(true);
    await a.release(db);
    expect(await holderOf('facts')).toBeNull();
    // b asks again a second after it found the lease taken (till then it need not look for work), and gets it.
    expect(b.waiting(t + 500)).toBe(true);
    expect(await b.hold(db, t + 500)).toBe(false);
    expect(b.waiting(t + 1_000)).toBe(false);
    expect(await b.hold(db, t + 1_000)).toBe(true);
    expect(await a.hold(db, t + 2_000)).toBe(false);
    await b.release(db);
  });

  it('renews the lease while its holder works, and a dead holder loses it once it has run out', async () => {
    const a = new WorkerLease('sweep', 'instance-a');
    const b = new WorkerLease('sweep', 'instance-b');
    const t = 2_000_000;
    expect(await a.hold(db, t)).toBe(true);
    // Past half of it, the holder writes a new end.
    expect(await a.hold(db, t + LEASE_TTL_MS / 2 + 1)).toBe(true);
    expect((await holderOf('sweep'))!.until).toBe(t + LEASE_TTL_MS * 1.5 + 1);
    // a stops renewing (it died): b gets nothing a second before the end, and the lease once it has passed.
    expect(await b.hold(db, t + LEASE_TTL_MS * 1.5 - 1_000)).toBe(false);
    expect(await b.hold(db, t + LEASE_TTL_MS * 1.5 + 1)).toBe(true);
    expect((await holderOf('sweep'))!.holder).toBe('instance-b');
    // a comes back: it no longer holds it, and its release leaves b's lease alone.
    expect(await a.hold(db, t + LEASE_TTL_MS * 1.5 + 2)).toBe(false);
    await a.release(db);
    expect((await holderOf('sweep'))!.holder).toBe('instance-b');
  });

  it('gives exactly one of many instances asking at once the lease', async () => {
    const t = 3_000_000;
    const got = await Promise.all(Array.from({ length: 12 }, (_, i) => new WorkerLease('race', `instance-${i}`).hold(db, t)));
    expect(got.filter(Boolean)).toHaveLength(1);
    expect((await holderOf('race'))!.holder).toBe(`instance-${got.indexOf(true)}`);
  });
});
