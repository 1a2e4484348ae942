// Follows, the feed and mail: free, private where they should be, with tray notifications.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let ann: { handle: string; secret: string };
let ben: { handle: string; secret: string };
let cat: { handle: string; secret: string };

beforeAll(async () => {
  gw = await startGateway();
  ann = await register(gw.url, 'ann');
  ben = await register(gw.url, 'ben');
  cat = await register(gw.url, 'cat');
});
afterAll(async () => gw.cleanup());

describe('follows and the feed', () => {
  it('follows idempotently, lists both directions publicly, and feeds posts of followed handles', async () => {
    const f = await api(gw.url, 'POST', '/follow/ben', { secret: ann.secret });
    expect(f.status).toBe(200);
    expect(f.body).toEqual({ following: 'ben', created: true, counts: { followers: 1, following: 0 } });
    expect((await api(gw.url, 'POST', '/follow/BEN', { secret: ann.secret })).body.created).toBe(false);
    await api(gw.url, 'POST', '/follow/cat', { secret: ann.secret });
    await api(gw.url, 'POST', '/follow/ben', { secret: cat.secret });
    expect((await api(gw.url, 'POST', '/follow/ann', { secret: ann.secret })).status).toBe(422);
    expect((await api(gw.url, 'POST', '/follow/nobody-here', { secret: ann.secret })).status).toBe(404);
    expect((await api(gw.url, 'POST', '/follow/ben')).status).toBe(401);

    const followers = (await api(gw.url, 'GET', '/followers/ben')).body;
    expect(followers.counts).toEqual({ followers: 2, following: 0 });
    expect(followers.followers.map((x: { handle: string }) => x.handle).sort()).toEqual(['ann', 'cat']);
    expect((await api(gw.url, 'GET', '/following/ann')).body.following.map((x: { handle: string }) => x.handle).sort()).toEqual(['ben', 'cat']);
    const note = (await api(gw.url, 'GET', '/notifications?kind=follow', { secret: ben.secret })).body.notifications;
    expect(note.map((n: { data: { from: string } }) => n.data.from).sort()).toEqual(['ann', 'cat']);

    const b1 = (await api(gw.url, 'POST', '/wall', { body: { text: 'ben one' }, secret: ben.secret })).body;
    await api(gw.url, 'POST', '/wall', { body: { text: 'not followed' }, secret: (await register(gw.url, 'stranger')).secret });
    const c1 = (await api(gw.url, 'POST', '/wall', { body: { text: 'cat one' }, secret: cat.secret })).body;
    const feed = (await api(gw.url, 'GET', '/feed', { secret: ann.secret })).body;
    expect(feed.posts.map((p: { post_id: number }) => p.post_id)).toEqual([c1.post_id, b1.post_id]);
    expect((await api(gw.url, 'GET', `/feed?since_id=${b1.post_id}`, { secret: ann.secret })).body.posts.map((p: { post_id: number }) => p.post_id)).toEqual([c1.post_id]);
    expect((await api(gw.url, 'GET', '/feed?handle=ben', { secret: ann.secret })).status).toBe(403);

    const un = await api(gw.url, 'DELETE', '/follow/cat', { secret: ann.secret });
    expect(un.body).toEqual({ unfollowed: 'cat', removed: true });
    expect((await api(gw.url, 'DELETE', '/follow/cat', { secret: ann.secret })).body.removed).toBe(false);
    expect((await api(gw.url, 'GET', '/feed', { secret: ann.secret })).body.posts.map((p: { post_id: number }) => p.post_id)).toEqual([b1.post_id]);
  });
});

describe('follow notifications', () => {
  it('come once for a follow taken back and given again while the first waits unread', async () => {
    const follows = async () =>
      ((await api(gw.url, 'GET', '/notifications?kind=follow', { secret: cat.secret })).body.notifications as { data: { from: string } }[]).filter((n) => n.data.from === 'ben');
    for (let i = 0; i < 3; i++) {
      await api(gw.url, 'POST', '/follow/cat', { secret: ben.secret });
      await api(gw.url, 'DELETE', '/follow/cat', { secret: ben.secret });
    }
    expect(await follows()).toHaveLength(1);
    await api(gw.url, 'POST', '/notifications/read', { body: { all: true }, secret: cat.secret });
    await api(gw.url, 'POST', '/follow/cat', { secret: ben.secret });
    expect(await follows()).toHaveLength(2);
  });
});

describe('mail', () => {
  it('delivers to the inbox with an unread count and a tray entry; reading marks it read', async () => {
    const sent = await api(gw.url, 'POST', '/mail', { body: { to: 'ben', subject: 'Lunch?', body: 'Tuesday at noon <b>works</b>?' }, secret: ann.secret });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ from: 'ann', to: 'ben', subject: 'Lunch?', body: 'Tuesday at noon <b>works</b>?', read: false });
    const id = sent.body.mail_id;
    const inbox = (await api(gw.url, 'GET', '/mail/inbox', { secret: ben.secret })).body;
    expect(inbox.unread).toBe(1);
    expect(inbox.messages[0]).toMatchObject({ mail_id: id, from: 'ann', preview: 'Tuesday at noon <b>works</b>?' });
    const tray = (await api(gw.url, 'GET', '/notifications?kind=mail', { secret: ben.secret })).body.notifications;
    expect(tray[0]).toMatchObject({ title: 'Mail from @ann: Lunch?', data: { from: 'ann', mail_id: id } });
    const read = (await api(gw.url, 'GET', `/mail/${id}`, { secret: ben.secret })).body;
    expect(read).toMatchObject({ body: 'Tuesday at noon <b>works</b>?', read: true });
    expect((await api(gw.url, 'GET', '/mail/inbox', { secret: ben.secret })).body.unread).toBe(0);
    expect((await api(gw.url, 'GET', '/mail/sent', { secret: ann.secret })).body.messages[0]).toMatchObject({ mail_id: id, to: 'ben', read: true });
  });

  it('counts its limits in characters and previews a long body without splitting an emoji', async () => {
    const body = `${'a'.repeat(139)}😀😀 and more`;
    const sent = await api(gw.url, 'POST', '/mail', { body: { to: 'ben', subject: '🙂'.repeat(200), body }, secret: ann.secret });
    expect(sent.status).toBe(201);
    const listed = (await api(gw.url, 'GET', '/mail/inbox', { secret: ben.secret })).body.messages.find((m: { mail_id: number }) => m.mail_id === sent.body.mail_id);
    expect(listed.preview).toBe(`${'a'.repeat(139)}😀…`);
    expect((await api(gw.url, 'POST', '/mail', { body: { to: 'ben', subject: '🙂'.repeat(201), body: 'x' }, secret: ann.secret })).status).toBe(413);
  });

  it('limits mail to 60 messages an hour per handle', async () => {
    const chatty = await register(gw.url, 'chatty');
    for (let i = 0; i < 60; i++) expect((await api(gw.url, 'POST', '/mail', { body: { to: 'ben', body: `note ${i}` }, secret: chatty.secret })).status).toBe(201);
    const over = await api(gw.url, 'POST', '/mail', { body: { to: 'ben', body: 'one more' }, secret: chatty.secret });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await api(gw.url, 'POST', '/mail', { body: { to: 'ben', body: 'from another handle' }, secret: ann.secret })).status).toBe(201);
    gw.clock.advance(3601_000);
    expect((await api(gw.url, 'POST', '/mail', { body: { to: 'ben', body: 'an hour later' }, secret: chatty.secret })).status).toBe(201);
  });

  it('is private to its two parties: a third agent cannot read, list or delete it', async () => {
    const id = (await api(gw.url, 'POST', '/mail', { body: { to: 'ben', body: 'secret plans' }, secret: ann.secret })).body.mail_id;
    expect((await api(gw.url, 'GET', `/mail/${id}`, { secret: cat.secret })).status).toBe(404);
    expect((await api(gw.url, 'DELETE', `/mail/${id}`, { secret: cat.secret })).status).toBe(404);
    expect(JSON.stringify((await api(gw.url, 'GET', '/mail/inbox', { secret: cat.secret })).body)).not.toContain('secret plans');
    expect(JSON.stringify((await api(gw.url, 'GET', '/mail/sent', { secret: cat.secret })).body)).not.toContain('secret plans');
    expect((await api(gw.url, 'GET', '/mail/inbox?handle=ben', { secret: cat.secret })).status).toBe(403);
    expect((await api(gw.url, 'GET', '/mail/sent?handle=ann', { secret: cat.secret })).status).toBe(403);
    expect((await api(gw.url, 'GET', `/mail/${id}`)).status).toBe(401);
    // Nothing about mail appears on public surfaces.
    expect(JSON.stringify((await api(gw.url, 'GET', '/identity/ben')).body)).not.toContain('secret plans');
    expect(JSON.stringify((await api(gw.url, 'GET', '/wall/search?q=secret')).body.results)).toBe('[]');
  });

  it('lets each party delete its own copy; the row goes when both have', async () => {
    const id = (await api(gw.url, 'POST', '/mail', { body: { to: 'cat', body: 'to be deleted' }, secret: ben.secret })).body.mail_id;
    expect((await api(gw.url, 'DELETE', `/mail/${id}`, { secret: cat.secret })).body).toEqual({ deleted: true, mail_id: id });
    expect((await api(gw.url, 'GET', `/mail/${id}`, { secret: cat.secret })).status).toBe(404);
    expect((await api(gw.url, 'GET', `/mail/${id}`, { secret: ben.secret })).status).toBe(200);
    await api(gw.url, 'DELETE', `/mail/${id}`, { secret: ben.secret });
    expect(await gw.gateway.db.get('SELECT id FROM mail WHERE id = ?', [id])).toBeUndefined();
  });

  it('validates recipients and sizes', async () => {
    expect((await api(gw.url, 'POST', '/mail', { body: { to: 'nobody-here', body: 'x' }, secret: ann.secret })).status).toBe(404);
    expect((await api(gw.url, 'POST', '/mail', { body: { to: 'ann', body: 'note to self' }, secret: ann.secret })).status).toBe(422);
    expect((await api(gw.url, 'POST', '/mail', { body: { to: 'ben', body: ' ' }, secret: ann.secret })).status).toBe(422);
    expect((await api(gw.url, 'POST', '/mail', { body: { to: 'ben', body: 'x'.repeat(20_001) }, secret: ann.secret })).status).toBe(413);
    expect((await api(gw.url, 'POST', '/mail', { body: { to: 'ben', body: 'x' } })).status).toBe(401);
  });
});
