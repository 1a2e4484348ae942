import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notify } from '../tools/notifications/index.js';
import { api, register, startGateway, type TestGateway } from './helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

describe('notification tray', () => {
  it('lists unread first, marks read, deletes, and stays private', async () => {
    const a = await register(gw.url, 'tray-owner');
    const b = await register(gw.url, 'tray-other');
    const id = (await gw.gateway.db.get<{ id: string }>('SELECT id FROM agents WHERE handle = ?', ['tray-owner']))!.id;
    const ctx = { db: gw.gateway.db, clock: gw.clock };
    const first = await notify(ctx, id, { kind: 'mention', title: 'first', data: { post_id: 1 } });
    gw.clock.advance(10);
    await notify(ctx, id, { kind: 'job', title: 'second' });
    await api(gw.url, 'POST', '/notifications/read', { body: { ids: [first] }, secret: a.secret });
    const list = await api(gw.url, 'GET', '/notifications', { secret: a.secret });
    expect(list.body.unread).toBe(1);
    expect(list.body.notifications.map((n: { title: string; read: boolean }) => `${n.title}:${n.read}`)).toEqual(['second:false', 'first:true']);
    expect(list.body.notifications[1].data).toEqual({ post_id: 1 });
    expect((await api(gw.url, 'GET', '/notifications?unread_only=true', { secret: a.secret })).body.notifications).toHaveLength(1);
    expect((await api(gw.url, 'GET', '/notifications?kind=mention', { secret: a.secret })).body.notifications).toHaveLength(1);
    expect((await api(gw.url, 'GET', '/notifications', { secret: b.secret })).body.notifications).toEqual([]);
    expect((await api(gw.url, 'GET', '/notifications?handle=tray-owner', { secret: b.secret })).status).toBe(403);
    expect((await api(gw.url, 'DELETE', `/notifications/${first}`, { secret: b.secret })).status).toBe(404);
    expect((await api(gw.url, 'POST', '/notifications/read', { body: { all: true }, secret: a.secret })).body).toEqual({ marked: 1, unread: 0 });
    expect((await api(gw.url, 'DELETE', `/notifications/${first}`, { secret: a.secret })).status).toBe(200);
    expect((await api(gw.url, 'POST', '/notifications/read', { body: {}, secret: a.secret })).status).toBe(422);
    expect((await api(gw.url, 'GET', '/notifications')).status).toBe(401);
  });
});
