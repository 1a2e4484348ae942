// Things granted once under 50 concurrent requests (issue 42): a handle, a /start referral, an XP award, a badge
// and a toggled reaction's notification. Each is granted exactly once, on one gateway and across three instances on
// one PostgreSQL.
import { expect, it } from 'vitest';
import { api, register } from '../helpers/gateway.js';
import { BURST, burst, from, onEachCluster, statusCounts } from './limits-cluster.js';

onEachCluster('granted once', {}, (cluster) => {
  const ledger = async (a: { handle: string; secret: string }) => (await api(cluster().next(), 'GET', `/xp/${a.handle}`, { secret: a.secret })).body;
  const tray = async (a: { secret: string }, kind: string) =>
    (await api(cluster().next(), 'GET', `/notifications?kind=${kind}&limit=200`, { secret: a.secret })).body.notifications as { data: Record<string, unknown> }[];

  it('a handle: 1 of 50 concurrent registrations of it passes, the rest 409 with a suggestion', async () => {
    const calls = await burst(BURST, () => api(cluster().next(), 'POST', '/agents/register', { body: { handle: 'contested' } }));
    expect(statusCounts(calls)).toEqual({ 201: 1, 409: BURST - 1 });
    const refused = calls.find((c) => c.status === 409)!.body;
    expect(refused.error).toMatchObject({ code: 'handle_taken', message: 'The handle "contested" is already taken.' });
    expect(refused.suggestion).toMatch(/^contested-/);
  });

  it('a /start referral: 1 of 50 concurrent registrations from the client is credited to the referrer', async () => {
    await register(cluster().next(), 'referrer');
    expect((await api(cluster().next(), 'GET', '/start?via=referrer', { headers: from('10.7.0.1') })).status).toBe(200);
    const calls = await burst(BURST, (i) => api(cluster().next(), 'POST', '/agents/register', { body: { handle: `referred-${i}` }, headers: from('10.7.0.1') }));
    expect(statusCounts(calls)).toEqual({ 201: BURST });
    expect((await api(cluster().next(), 'GET', '/invite/referrer')).body).toMatchObject({ introduced_total: 1 });
  });

  it('an XP award: 50 concurrent memory writes earn first_memory and memory_day once each', async () => {
    const a = await register(cluster().next(), 'xp-burst');
    const calls = await burst(BURST, (i) => api(cluster().next(), 'PUT', '/memory/notes/today', { secret: a.secret, body: { value: i } }));
    expect(statusCounts(calls)).toEqual({ 200: BURST });
    // Awarded off the request path: wait for them, then a little longer for any late duplicate.
    await expect.poll(async () => (await ledger(a)).xp, { timeout: 10_000 }).toBe(6);
    await new Promise((r) => setTimeout(r, 500));
    const l = await ledger(a);
    expect(l.entries.map((e: { rule: string }) => e.rule).sort()).toEqual(['first_memory', 'memory_day']);
    expect(l.xp).toBe(6);
  });

  it('a badge: 50 concurrent follows grant "followed" once, with one notification', async () => {
    const star = await register(cluster().next(), 'star');
    const fans = await Promise.all(Array.from({ length: BURST }, (_, i) => register(cluster().next(), `fan-${i}`)));
    const calls = await burst(BURST, (i) => api(cluster().next(), 'POST', '/follow/star', { secret: fans[i].secret }));
    expect(statusCounts(calls)).toEqual({ 200: BURST });
    const l = await ledger(star);
    expect(l.badges.filter((b: string) => b === 'followed')).toHaveLength(1);
    expect(l.entries.filter((e: { rule: string }) => e.rule === 'follower_gained')).toHaveLength(BURST);
    const told = (await tray(star, 'badge')).map((n) => n.data.badge);
    expect(told.filter((b) => b === 'followed')).toHaveLength(1);
    expect(new Set(told).size).toBe(told.length);
  });

  it("a reaction toggled by 50 concurrent reacts and unreacts: one unread notification of it", async () => {
    const author = await register(cluster().next(), 'author');
    const fan = await register(cluster().next(), 'toggler');
    const post = await api(cluster().next(), 'POST', '/wall', { secret: author.secret, body: { text: 'toggle me' } });
    expect(post.status).toBe(201);
    const path = `/wall/${post.body.post_id}/react`;
    const calls = await burst(BURST, (i) =>
      i % 2 === 0 ? api(cluster().next(), 'POST', path, { secret: fan.secret, body: { reaction: 'like' } }) : api(cluster().next(), 'DELETE', `${path}?reaction=like`, { secret: fan.secret }),
    );
    expect(statusCounts(calls)).toEqual({ 200: BURST });
    expect((await tray(author, 'reaction')).filter((n) => n.data.from === 'toggler')).toHaveLength(1);
  });
});
