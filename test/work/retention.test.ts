// Retention of per-request records (issue 26, src/retention.ts): a finished job, its webhook delivery and the
// owner's notification outlive their retention by nothing, unfinished records stay however old, and 0 keeps a
// kind for ever. The clock is moved by hand; the worker's pass is called as its tick calls it. The worker itself sweeps
// every half minute, not only at start-up (issue 42).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { createRetentionWorker, pruneRecords, sweep, SWEEP_EVERY_MS } from '../../src/retention.js';
import { chunkIdsQuery, REFERRAL_WINDOW_MS, RETAINED_RECORDS, startVisitsQuery, type RetainedRecord } from '../../src/store/retention.js';
import type { WorkerContext } from '../../src/workers.js';
import { migratedDb } from '../helpers/migrated-db.js';
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
    expect(loadConfig({}).retention).toEqual({ a2a_tasks: 7, jobs: 30, webhook_deliveries: 30, notifications: 90, handoffs: 30, template_runs: 31 });
    expect(loadConfig({ GATEWAY_RETAIN_JOBS_DAYS: '0' }).retention.jobs).toBe(0);
    expect(() => loadConfig({ GATEWAY_RETAIN_JOBS_DAYS: '-1' })).toThrow(/GATEWAY_RETAIN_JOBS_DAYS/);
    // A2A tasks left waiting for the client: an hour by default, in hours (1 to a week), never for ever.
    expect(loadConfig({}).a2a).toEqual({ interruptedMs: 3600_000, anonymousSendsPerMinute: 60, anonymousMaxMessageBytes: 16_384, anonymousRetainMs: 3600_000 });
    expect(
      loadConfig({ GATEWAY_A2A_INTERRUPTED_HOURS: '24', GATEWAY_A2A_ANONYMOUS_SENDS_PER_MINUTE: '5', GATEWAY_A2A_ANONYMOUS_MAX_MESSAGE_BYTES: '2048', GATEWAY_RETAIN_A2A_ANONYMOUS_HOURS: '3' }).a2a,
    ).toEqual({ interruptedMs: 24 * 3600_000, anonymousSendsPerMinute: 5, anonymousMaxMessageBytes: 2048, anonymousRetainMs: 3 * 3600_000 });
    for (const bad of ['0', '169']) expect(() => loadConfig({ GATEWAY_RETAIN_A2A_ANONYMOUS_HOURS: bad })).toThrow(/GATEWAY_RETAIN_A2A_ANONYMOUS_HOURS/);
    expect(() => loadConfig({ GATEWAY_A2A_ANONYMOUS_MAX_MESSAGE_BYTES: '100' })).toThrow(/GATEWAY_A2A_ANONYMOUS_MAX_MESSAGE_BYTES/);
    for (const bad of ['0', '169', '1.5']) expect(() => loadConfig({ GATEWAY_A2A_INTERRUPTED_HOURS: bad })).toThrow(/GATEWAY_A2A_INTERRUPTED_HOURS/);
    expect(() => loadConfig({ GATEWAY_A2A_ANONYMOUS_SENDS_PER_MINUTE: '0' })).toThrow(/GATEWAY_A2A_ANONYMOUS_SENDS_PER_MINUTE/);
    expect(SWEEP_EVERY_MS).toBeLessThanOrEqual(60_000);
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

  it('deletes handoffs resolved more than 30 days ago, never a parked one, and anonymous template runs after 31 days, never an agent\'s', async () => {
    const db = gw.gateway.db;
    const now = gw.clock.now();
    const a = await register(gw.url, 'retained-handoffs');
    const agentId = (await db.get<{ id: string }>('SELECT id FROM agents WHERE handle = ?', [a.handle]))!.id;
    const handoff = (id: string, owner: string | null, status: string, resolvedAt: number | null) =>
      db.run("INSERT INTO handoffs (id, agent_id, task, status, created_at, expires_at, resolved_at) VALUES (?, ?, 'check it', ?, ?, ?, ?)", [id, owner, status, now - 90 * DAY, now - 60 * DAY, resolvedAt]);
    await handoff('h-expired-old', null, 'expired', now - 31 * DAY);
    await handoff('h-done-old', agentId, 'completed', now - 31 * DAY);
    await handoff('h-done-new', agentId, 'rejected', now - 29 * DAY);
    await handoff('h-parked-old', null, 'parked', null);
    const run = (owner: string | null, at: number) => db.run("INSERT INTO template_runs (agent_id, slug, ok, created_at) VALUES (?, 'retention-slug', 1, ?)", [owner, at]);
    await run(null, now - 32 * DAY);
    await run(null, now - 30 * DAY);
    await run(agentId, now - 400 * DAY);
    expect(await prune()).toEqual({ handoffs: 2, template_runs: 1 });
    expect((await db.all<{ id: string }>("SELECT id FROM handoffs WHERE id LIKE 'h-%' ORDER BY id")).map((r) => r.id)).toEqual(['h-done-new', 'h-parked-old']);
    expect((await api(gw.url, 'GET', '/handoffs/h-done-old')).status).toBe(404);
    expect((await db.all<{ agent_id: string | null }>("SELECT agent_id FROM template_runs WHERE slug = 'retention-slug' ORDER BY created_at")).map((r) => r.agent_id)).toEqual([agentId, null]);
    expect(await prune()).toEqual({});
  });

  it('deletes /start visits older than the referral window, which no registration could be credited for any more', async () => {
    const db = gw.gateway.db;
    const now = gw.clock.now();
    const via = await register(gw.url, 'retained-referrer');
    const viaId = (await db.get<{ id: string }>('SELECT id FROM agents WHERE handle = ?', [via.handle]))!.id;
    const visit = (client: string, at: number) => db.run('INSERT INTO start_visits (client_hash, via_agent_id, created_at) VALUES (?, ?, ?)', [client, viaId, at]);
    await visit('visit-old-1', now - REFERRAL_WINDOW_MS - 1000);
    await visit('visit-old-2', now - 30 * DAY);
    await visit('visit-new', now - REFERRAL_WINDOW_MS + 60_000);
    const { deleted } = await sweep(db, now, gw.gateway.config);
    expect(deleted.start_visits).toBe(2);
    expect((await db.all<{ client_hash: string }>("SELECT client_hash FROM start_visits WHERE client_hash LIKE 'visit-%'")).map((r) => r.client_hash)).toEqual(['visit-new']);
    if (db.dialect === 'sqlite') {
      const plan = await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${startVisitsQuery('sqlite')}`, [0, 100]);
      expect(plan.map((p) => p.detail).join(' | ')).toMatch(/USING (COVERING )?INDEX start_visits_created\b/);
    }
  });

  it('reads each kind through its partial index on SQLite (a chunk reads only what it deletes)', async () => {
    const db = gw.gateway.db;
    if (db.dialect !== 'sqlite') return;
    const INDEX: Record<RetainedRecord, string> = {
      a2a_tasks: 'a2a_tasks_finished',
      jobs: 'jobs_finished',
      webhook_deliveries: 'webhook_deliveries_finished',
      notifications: 'notifications_created',
      handoffs: 'handoffs_resolved',
      template_runs: 'template_runs_anonymous',
    };
    for (const kind of RETAINED_RECORDS) {
      const plan = await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${chunkIdsQuery('sqlite', kind)}`, [0, 100]);
      expect(plan.map((p) => p.detail).join(' | '), kind).toMatch(new RegExp(`USING (COVERING )?INDEX ${INDEX[kind]}\\b`));
    }
  });

  it('the worker sweeps every half minute, not only at start-up: a task left waiting ends, a finished one past its days goes', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const m = await migratedDb();
    const worker = createRetentionWorker();
    try {
      const clock = new ManualClock(Date.UTC(2026, 4, 1));
      const ctx = { db: m.db, clock, config: loadConfig({ GATEWAY_RETAIN_A2A_TASKS_DAYS: '1' }), log: createLogger('silent'), services: {} } as unknown as WorkerContext;
      worker.start(ctx);
      const task = (id: string, state: string, at: number) =>
        m.db.run("INSERT INTO a2a_tasks (id, context_id, state, status, history, created_at, updated_at) VALUES (?, 'ctx-worker', ?, '{}', '[]', ?, ?)", [id, state, at, at]);
      const state = async (id: string) => (await m.db.get<{ state: string }>('SELECT state FROM a2a_tasks WHERE id = ?', [id]))?.state;
      // Made after the start-up sweep: an hour and a bit waiting for credentials, and a task finished two days ago.
      await new Promise((r) => setTimeout(r, 50));
      await task('w-waiting', 'auth-required', clock.now() - 3600_000 - 1);
      await task('w-done', 'completed', clock.now() - 2 * DAY);
      expect(await state('w-waiting')).toBe('auth-required');
      vi.advanceTimersByTime(SWEEP_EVERY_MS);
      await eventually(async () => {
        expect(await state('w-waiting')).toBe('failed');
        expect(await state('w-done')).toBeUndefined();
      });
    } finally {
      await worker.stop();
      vi.useRealTimers();
      await m.remove();
    }
  });
});
