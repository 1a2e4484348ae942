// Retention of per-request records (issue 26, src/retention.ts): a finished job, its webhook delivery and the
// owner's notification outlive their retention by nothing, unfinished records stay however old, and 0 keeps a
// kind for ever. The clock is moved by hand; the worker's pass is called as its hourly tick calls it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { pruneRecords } from '../../src/retention.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';

const DAY = 86_400_000;
let gw: TestGateway;
let site: http.Server;
let hookUrl: string;

beforeAll(async () => {
  site = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  hookUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/hook`;
  gw = await startGateway({ env: { GATEWAY_EGRESS_ALLOW: '127.0.0.1/32', GATEWAY_RETAIN_A2A_TASKS_DAYS: '7', GATEWAY_RETAIN_JOBS_DAYS: '30', GATEWAY_RETAIN_NOTIFICATIONS_DAYS: '0' } });
});
afterAll(async () => {
  await gw.cleanup();
  await new Promise((r) => site.close(r));
});

const prune = () => pruneRecords(gw.gateway.db, gw.clock.now(), gw.gateway.config.retention);
const runDue = () => gw.gateway.registry.services.scheduler.runDue();

describe('retention of finished records', () => {
  it('has documented defaults, 0 for ever, and refuses a negative retention', () => {
    expect(loadConfig({}).retention).toEqual({ a2a_tasks: 7, jobs: 30, webhook_deliveries: 30, notifications: 90 });
    expect(loadConfig({ GATEWAY_RETAIN_JOBS_DAYS: '0' }).retention.jobs).toBe(0);
    expect(() => loadConfig({ GATEWAY_RETAIN_JOBS_DAYS: '-1' })).toThrow(/GATEWAY_RETAIN_JOBS_DAYS/);
  });

  it('deletes a finished job and its delivery after 30 days, keeps a queued one, and keeps notifications (0 = for ever)', async () => {
    const a = await register(gw.url, 'retained');
    const done = await api(gw.url, 'POST', '/jobs', { body: { type: 'delay', seconds: 1, callback_url: hookUrl }, secret: a.secret });
    const queued = await api(gw.url, 'POST', '/jobs', { body: { type: 'delay', seconds: 30 * 86400 }, secret: a.secret });
    gw.clock.advance(1000);
    await runDue();
    await eventually(async () => expect((await api(gw.url, 'GET', `/jobs/${done.body.job_id}`)).body.callback.deliveries[0].status).toBe('delivered'));
    const tray = async () => (await api(gw.url, 'GET', '/notifications?kind=job', { secret: a.secret })).body.notifications as unknown[];
    expect(await tray()).toHaveLength(1);

    gw.clock.advance(29 * DAY);
    expect(await prune()).toEqual({});
    expect((await api(gw.url, 'GET', `/jobs/${done.body.job_id}`)).status).toBe(200);

    gw.clock.advance(DAY + 1); // finished 30 days and 1 ms ago
    expect(await prune()).toEqual({ jobs: 1, webhook_deliveries: 1 });
    expect((await api(gw.url, 'GET', `/jobs/${done.body.job_id}`, { secret: a.secret })).status).toBe(404);
    // Not finished: kept, however old (it comes due only now).
    expect((await api(gw.url, 'GET', `/jobs/${queued.body.job_id}`, { secret: a.secret })).body.status).toBe('queued');
    expect(await tray()).toHaveLength(1);
    expect(await prune()).toEqual({});
  });

  it('deletes A2A tasks that ended more than 7 days ago, never one still working or waiting for input', async () => {
    const db = gw.gateway.db;
    const now = gw.clock.now();
    const task = (id: string, state: string, at: number) =>
      db.run("INSERT INTO a2a_tasks (id, context_id, state, status, created_at, updated_at) VALUES (?, 'ctx-retention', ?, '{}', ?, ?)", [id, state, at, at]);
    await task('t-done-old', 'completed', now - 8 * DAY);
    await task('t-failed-old', 'failed', now - 8 * DAY);
    await task('t-done-new', 'completed', now - 6 * DAY);
    await task('t-working-old', 'working', now - 60 * DAY);
    await task('t-input-old', 'input-required', now - 60 * DAY);
    expect(await prune()).toEqual({ a2a_tasks: 2 });
    const left = await db.all<{ id: string }>("SELECT id FROM a2a_tasks WHERE context_id = 'ctx-retention' ORDER BY id");
    expect(left.map((r) => r.id)).toEqual(['t-done-new', 't-input-old', 't-working-old']);
  });
});
