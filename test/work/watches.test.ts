import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import * as watchStore from '../../tools/watches/store.js';

let gw: TestGateway;
let site: http.Server;
let siteUrl: string;
const pages: Record<string, { status?: number; body: string; type?: string }> = {};
const hooks: string[] = [];
const DAY = 24 * 3600 * 1000;
const HOUR = 3600 * 1000;

beforeAll(async () => {
  site = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url === '/hook') {
        hooks.push(body);
        return void res.writeHead(200).end();
      }
      const p = pages[req.url ?? ''];
      if (!p) return void res.writeHead(404).end('nope');
      res.writeHead(p.status ?? 200, { 'content-type': p.type ?? 'text/html' }).end(p.body);
    });
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  gw = await startGateway({ env: { GATEWAY_EGRESS_ALLOW: '127.0.0.1/32' } });
});
afterAll(async () => {
  await gw.cleanup();
  await new Promise((r) => site.close(r));
});

const runDue = () => gw.gateway.registry.services.scheduler.runDue();
const html = (main: string, noise = Date.now()) => `<html><head><script>var t=${noise}</script><style>.n${noise}{}</style></head><body><main>${main}</main></body></html>`;

describe('watches', () => {
  it('validates: registered only, interval ≥ 1 h, at most 5 live', async () => {
    expect((await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/x`, interval_hours: 1 } })).status).toBe(401);
    const a = await register(gw.url, 'watch-limits');
    const bad = await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/x`, interval_hours: 0.5 }, secret: a.secret });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'interval_hours']);
    expect((await api(gw.url, 'POST', '/watches', { body: { url: 'ftp://x', interval_hours: 2 }, secret: a.secret })).status).toBe(422);
    expect((await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/x`, interval_hours: 2, mode: 'selector' }, secret: a.secret })).status).toBe(422);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/p${i}`, interval_hours: 1 }, secret: a.secret })).body.watch_id);
    const sixth = await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/p6`, interval_hours: 1 }, secret: a.secret });
    expect(sixth.status).toBe(409);
    expect(sixth.body.error.message).toMatch(/5 live watches/);
    expect((await api(gw.url, 'DELETE', `/watch/${ids[0]}`, { secret: a.secret })).body.status).toBe('cancelled');
    expect((await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/p6`, interval_hours: 1 }, secret: a.secret })).status).toBe(201);
  });

  it('notifies only on change: baseline first, same content again is quiet, a change notifies once with an artifact and a callback', async () => {
    const a = await register(gw.url, 'watch-changes');
    pages['/news'] = { body: html('<h1>Headline A</h1>', 1) };
    const w = await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/news`, interval_hours: 1, callback_url: `${siteUrl}/hook` }, secret: a.secret });
    expect(w.status).toBe(201);
    expect(Date.parse(w.body.expires_at) - gw.clock.now()).toBe(14 * DAY);
    await runDue();
    const base = await api(gw.url, 'GET', `/watch/${w.body.watch_id}`);
    expect(base.body).toMatchObject({ status: 'active', checks: 1, changes: 0 });
    expect(base.body.latest_artifact).toMatch(/\/artifacts\/art_/);
    expect(JSON.stringify(base.body)).not.toContain('/hook');
    // Same visible text, different scripts and footer noise: no change in text mode.
    pages['/news'] = { body: html('<h1>Headline A</h1>', 2) };
    gw.clock.advance(HOUR);
    await runDue();
    expect((await api(gw.url, 'GET', `/watch/${w.body.watch_id}`)).body).toMatchObject({ checks: 2, changes: 0 });
    pages['/news'] = { body: html('<h1>Headline B</h1>', 2) };
    gw.clock.advance(HOUR);
    await runDue();
    const changed = await api(gw.url, 'GET', `/watch/${w.body.watch_id}`);
    expect(changed.body).toMatchObject({ checks: 3 });
    gw.clock.advance(HOUR);
    await runDue();
    const tray = await api(gw.url, 'GET', '/notifications?kind=watch_change', { secret: a.secret });
    expect(tray.body.notifications).toHaveLength(1);
    const note = tray.body.notifications[0].data;
    expect(note.old_hash).not.toBe(note.new_hash);
    expect(await (await fetch(note.artifact_url)).text()).toContain('Headline B');
    await runDue();
    await eventually(async () => expect(hooks.some((h) => JSON.parse(h).watch_id === w.body.watch_id)).toBe(true));
  });

  it('records fetch errors and backs off without counting them as changes', async () => {
    const a = await register(gw.url, 'watch-errors');
    pages['/flaky'] = { body: 'ok', type: 'text/plain' };
    const w = await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/flaky`, interval_hours: 1, mode: 'raw' }, secret: a.secret });
    await runDue();
    pages['/flaky'] = { status: 500, body: 'down' };
    gw.clock.advance(HOUR);
    await runDue();
    const s = await api(gw.url, 'GET', `/watch/${w.body.watch_id}`);
    expect(s.body).toMatchObject({ consecutive_failures: 1, changes: 0, last_error: 'HTTP 500' });
    pages['/flaky'] = { body: 'ok', type: 'text/plain' };
    gw.clock.advance(HOUR);
    await runDue();
    expect((await api(gw.url, 'GET', `/watch/${w.body.watch_id}`)).body.consecutive_failures).toBe(1);
    gw.clock.advance(HOUR);
    await runDue();
    expect((await api(gw.url, 'GET', `/watch/${w.body.watch_id}`)).body).toMatchObject({ consecutive_failures: 0, changes: 0 });
  });

  it('pauses after 7 idle days, expires at 14 days, and renew reactivates from both', async () => {
    const a = await register(gw.url, 'watch-states');
    pages['/state'] = { body: 'steady', type: 'text/plain' };
    const mk = async () => (await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/state`, interval_hours: 24 }, secret: a.secret })).body.watch_id as string;
    const idle = await mk();
    await runDue();
    gw.clock.advance(7 * DAY);
    await runDue();
    expect((await api(gw.url, 'GET', `/watch/${idle}`)).body.status).toBe('paused');
    const checks = (await api(gw.url, 'GET', `/watch/${idle}`)).body.checks;
    gw.clock.advance(2 * DAY);
    await runDue();
    expect((await api(gw.url, 'GET', `/watch/${idle}`)).body.checks).toBe(checks);
    const renewed = await api(gw.url, 'POST', `/watch/${idle}/renew`, { secret: a.secret });
    expect(renewed.body.status).toBe('active');
    expect(Date.parse(renewed.body.expires_at) - gw.clock.now()).toBe(14 * DAY);

    // Kept alive by listing every few days, it still expires 14 days after creation.
    const kept = await mk();
    for (let d = 0; d < 14; d += 3) {
      await api(gw.url, 'GET', `/watches/${a.handle}`, { secret: a.secret });
      gw.clock.advance(3 * DAY);
      await runDue();
    }
    expect((await api(gw.url, 'GET', `/watch/${kept}`)).body.status).toBe('expired');
    expect((await api(gw.url, 'POST', `/watch/${kept}/renew`, { secret: a.secret })).body.status).toBe('active');
    await runDue();
    expect((await api(gw.url, 'GET', `/watch/${kept}`)).body.status).toBe('active');
  });

  it('a renew racing a delete never brings the cancelled watch back', async () => {
    const a = await register(gw.url, 'watch-race');
    for (let round = 0; round < 5; round++) {
      const id = (await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/race${round}`, interval_hours: 1 }, secret: a.secret })).body.watch_id;
      const [removed, ...renewed] = await Promise.all([
        api(gw.url, 'DELETE', `/watch/${id}`, { secret: a.secret }),
        ...Array.from({ length: 8 }, () => api(gw.url, 'POST', `/watch/${id}/renew`, { secret: a.secret })),
      ]);
      expect(removed.status).toBe(200);
      for (const r of renewed) expect([200, 409], JSON.stringify(r.body)).toContain(r.status);
      expect((await api(gw.url, 'GET', `/watch/${id}`)).body.status).toBe('cancelled');
    }
  });

  it('a deadline read before a renew does not undo it: the pause or expiry changes only the row as it was read', async () => {
    const a = await register(gw.url, 'watch-deadline-race');
    const id = (await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/deadline`, interval_hours: 1 }, secret: a.secret })).body.watch_id;
    const db = gw.gateway.db;
    const stale = (await watchStore.watchById(db, id))!;
    // The check read it; a renew lands before the check writes its verdict.
    await watchStore.renew(db, id, gw.clock.now() + 1000, gw.clock.now() + 1000 + 14 * DAY);
    expect((await watchStore.leaveActive(db, stale, 'expired')).changes).toBe(0);
    expect((await watchStore.watchById(db, id))!.status).toBe('active');
    // Read again, the same verdict applies.
    expect((await watchStore.leaveActive(db, (await watchStore.watchById(db, id))!, 'expired')).changes).toBe(1);
    expect((await api(gw.url, 'GET', `/watch/${id}`)).body.status).toBe('expired');
  });

  it('another agent can neither list, renew nor delete them', async () => {
    const a = await register(gw.url, 'watch-victim');
    const b = await register(gw.url, 'watch-thief');
    pages['/v'] = { body: 'v', type: 'text/plain' };
    const w = await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/v`, interval_hours: 1 }, secret: a.secret });
    expect((await api(gw.url, 'GET', `/watches/${a.handle}`, { secret: b.secret })).status).toBe(403);
    expect((await api(gw.url, 'POST', `/watch/${w.body.watch_id}/renew`, { secret: b.secret })).status).toBe(403);
    expect((await api(gw.url, 'DELETE', `/watch/${w.body.watch_id}`, { secret: b.secret })).status).toBe(403);
    expect((await api(gw.url, 'DELETE', `/watch/${w.body.watch_id}`)).status).toBe(401);
    expect((await api(gw.url, 'GET', `/watch/${w.body.watch_id}`)).body.status).toBe('active');
  });
});

describe('watch records as the spec names them', () => {
  it('carry the owner handle on create, on the public status and in the owner list', async () => {
    const a = await register(gw.url, 'watch-owner');
    const w = await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/owned`, interval_hours: 2 }, secret: a.secret });
    expect(w.body.owner).toBe(a.handle);
    expect((await api(gw.url, 'GET', `/watch/${w.body.watch_id}`)).body.owner).toBe(a.handle);
    const list = await api(gw.url, 'GET', `/watches/${a.handle}`, { secret: a.secret });
    expect(list.body.watches.map((x: { owner: string }) => x.owner)).toEqual([a.handle]);
  });

  it('take the callback as `callback` (the spec) or `callback_url`; both with different URLs is 422', async () => {
    const a = await register(gw.url, 'watch-callback');
    pages['/cb'] = { body: html('<p>one</p>', 1) };
    const w = await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/cb`, interval_hours: 1, callback: `${siteUrl}/hook` }, secret: a.secret });
    expect(w.status).toBe(201);
    await runDue();
    pages['/cb'] = { body: html('<p>two</p>', 1) };
    gw.clock.advance(HOUR);
    await runDue();
    await runDue();
    await eventually(async () => expect(hooks.some((h) => JSON.parse(h).watch_id === w.body.watch_id)).toBe(true));
    const list = (await api(gw.url, 'GET', `/watches/${a.handle}`, { secret: a.secret })).body.watches;
    expect(list.find((x: { watch_id: string }) => x.watch_id === w.body.watch_id).callback).not.toBeNull();

    const same = await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/cb2`, interval_hours: 1, callback: `${siteUrl}/hook`, callback_url: `${siteUrl}/hook` }, secret: a.secret });
    expect(same.status).toBe(201);
    const both = await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/cb3`, interval_hours: 1, callback: `${siteUrl}/hook`, callback_url: `${siteUrl}/other` }, secret: a.secret });
    expect(both.status).toBe(422);
    expect(both.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([['body', 'callback']]);
  });

  it('refuse unknown body fields with 422 instead of dropping them, and create nothing', async () => {
    const a = await register(gw.url, 'watch-strict');
    const r = await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/s`, interval_hours: 1, callbak: `${siteUrl}/hook` }, secret: a.secret });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([{ loc: ['body', 'callbak'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }]);
    expect((await api(gw.url, 'GET', `/watches/${a.handle}`, { secret: a.secret })).body.watches).toEqual([]);
  });

  it('delete and renew take an optional JSON body naming the owner; another handle is 403, another field 422', async () => {
    const a = await register(gw.url, 'watch-body');
    const b = await register(gw.url, 'watch-body-other');
    const id = (await api(gw.url, 'POST', '/watches', { body: { url: `${siteUrl}/b`, interval_hours: 1 }, secret: a.secret })).body.watch_id;
    expect((await api(gw.url, 'POST', `/watch/${id}/renew`, { body: { handle: a.handle }, secret: a.secret })).body.status).toBe('active');
    expect((await api(gw.url, 'POST', `/watch/${id}/renew`, { body: { handle: b.handle }, secret: a.secret })).status).toBe(403);
    const odd = await api(gw.url, 'DELETE', `/watch/${id}`, { body: { force: true }, secret: a.secret });
    expect(odd.status).toBe(422);
    expect(odd.body.detail[0].loc).toEqual(['body', 'force']);
    expect((await api(gw.url, 'GET', `/watch/${id}`)).body.status).toBe('active');
    expect((await api(gw.url, 'DELETE', `/watch/${id}`, { body: {}, secret: a.secret })).body.status).toBe('cancelled');
  });
});

describe('heartbeat', () => {
  it('keeps a streak of consecutive UTC days and reports what finished since the last beat', async () => {
    const a = await register(gw.url, 'beater');
    const first = await api(gw.url, 'GET', '/beat/beater', { secret: a.secret });
    expect(first.body).toMatchObject({ streak: 1, last_seen: null, unread_notifications: 0 });
    expect(first.body.memory_context.handle).toBe('beater');
    const job = await api(gw.url, 'POST', '/jobs', { body: { type: 'delay', seconds: 60 }, secret: a.secret });
    gw.clock.advance(DAY);
    await runDue();
    const second = await api(gw.url, 'GET', '/beat/beater', { secret: a.secret });
    expect(second.body.streak).toBe(2);
    expect(second.body.unread_notifications).toBe(1);
    expect(second.body.since_last_beat.jobs.map((j: { job_id: string }) => j.job_id)).toEqual([job.body.job_id]);
    expect((await api(gw.url, 'GET', '/beat/beater', { secret: a.secret })).body).toMatchObject({ streak: 2, since_last_beat: { jobs: [] } });
    gw.clock.advance(3 * DAY);
    expect((await api(gw.url, 'GET', '/beat/beater', { secret: a.secret })).body).toMatchObject({ streak: 1, longest_streak: 2 });
    expect((await api(gw.url, 'GET', '/beat/beater')).status).toBe(401);
  });
});
