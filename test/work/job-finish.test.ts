// A job's end and its owner's notification written in one round trip (tools/jobs/store.ts finishJobNotifying), on
// both stores: the notification comes with the end, once, and not at all for a job that had already ended.
import { beforeAll, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { finishJobNotifying, jobById } from '../../tools/jobs/store.js';
import { onEachStore } from '../helpers/each-store.js';

onEachStore('finishing a job', (store) => {
  let db: Db;
  beforeAll(async () => {
    db = store();
    await db.run("INSERT INTO agents (id, handle, secret_hash, created_at) VALUES ('ag_fin', 'finisher', 'x', 0)");
  });
  const addJob = (id: string, status: string) =>
    db.run("INSERT INTO jobs (id, agent_id, type, input, status, created_at, due_at) VALUES (?, 'ag_fin', 'delay', '{}', ?, 0, 0)", [id, status]);
  const tray = async (jobId: string) =>
    (await db.all<{ kind: string; title: string; data: string }>("SELECT kind, title, data FROM notifications WHERE agent_id = 'ag_fin' ORDER BY id"))
      .map((n) => ({ ...n, data: JSON.parse(n.data) as { job_id?: string } }))
      .filter((n) => n.data.job_id === jobId);
  const told = (id: string) => ({ kind: 'job', title: 'Job delay succeeded', data: { job_id: id, status: 'succeeded' } });
  const outcome = { status: 'succeeded' as const, result: { waited_seconds: 1 }, error: null };

  it('ends a running job and puts one notification in the tray; a second end changes nothing', async () => {
    await addJob('job-run', 'running');
    expect(await finishJobNotifying(db, { id: 'job-run', agentId: 'ag_fin' }, outcome, told('job-run'), 5_000)).toBe(true);
    expect(await jobById(db, 'job-run')).toMatchObject({ status: 'succeeded', result: '{"waited_seconds":1}', error: null, finished_at: 5_000 });
    expect(await tray('job-run')).toEqual([{ kind: 'job', title: 'Job delay succeeded', data: { job_id: 'job-run', status: 'succeeded' } }]);
    expect(await finishJobNotifying(db, { id: 'job-run', agentId: 'ag_fin' }, { ...outcome, status: 'failed', error: 'late' }, told('job-run'), 6_000)).toBe(false);
    expect(await jobById(db, 'job-run')).toMatchObject({ status: 'succeeded', finished_at: 5_000 });
    expect(await tray('job-run')).toHaveLength(1);
  });

  it('leaves a canceled job and the tray alone', async () => {
    await addJob('job-gone', 'canceled');
    expect(await finishJobNotifying(db, { id: 'job-gone', agentId: 'ag_fin' }, outcome, told('job-gone'), 5_000)).toBe(false);
    expect(await jobById(db, 'job-gone')).toMatchObject({ status: 'canceled', finished_at: null });
    expect(await tray('job-gone')).toEqual([]);
    expect(await finishJobNotifying(db, { id: 'job-missing', agentId: 'ag_fin' }, outcome, told('job-missing'), 5_000)).toBe(false);
    expect(await tray('job-missing')).toEqual([]);
  });
});
