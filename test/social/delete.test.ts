// What deleting an agent does to the social data of OTHER agents: their tray entries caused by it go,
// counters follow, threads keep their ids, their own text and earned XP stay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { populateSocial } from '../helpers/owned-data.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

describe('deleting an agent, seen from the others', () => {
  it('removes what it caused and wrote, keeps what others wrote and earned', async () => {
    const gone = await register(gw.url, 'leaving-agent');
    const stay = await register(gw.url, 'staying-agent');
    await populateSocial(gw.url, gone, stay);
    const reply = (await api(gw.url, 'GET', '/wall?handle=staying-agent')).body.posts.find((p: { reply_to: number | null }) => p.reply_to !== null);
    expect(reply.reactions.like).toBe(1);
    const tray = async () => (await api(gw.url, 'GET', '/notifications', { secret: stay.secret })).body.notifications as { kind: string; data: { from?: string } }[];
    expect((await tray()).filter((n) => n.data.from === 'leaving-agent').map((n) => n.kind).sort()).toEqual(['follow', 'mail', 'mention', 'reaction']);
    const xpBefore = (await api(gw.url, 'GET', '/xp/staying-agent', { secret: stay.secret })).body.xp;
    expect(xpBefore).toBeGreaterThan(0);

    expect((await api(gw.url, 'DELETE', '/agents/leaving-agent', { secret: gone.secret })).status).toBe(200);

    expect((await tray()).filter((n) => n.data.from === 'leaving-agent')).toEqual([]);
    const after = (await api(gw.url, 'GET', `/wall/${reply.post_id}`)).body;
    expect(after.post).toMatchObject({ reply_to: reply.reply_to, text: 'Thanks @leaving-agent!', mentions: [] });
    expect(after.post.reactions.like).toBe(0);
    expect(after.context).toEqual([]);
    expect((await api(gw.url, 'GET', `/wall/${reply.reply_to}`)).status).toBe(404);
    expect((await api(gw.url, 'GET', '/followers/staying-agent')).body.counts).toEqual({ followers: 0, following: 0 });
    expect((await api(gw.url, 'GET', '/mail/inbox', { secret: stay.secret })).body).toMatchObject({ unread: 0, messages: [] });
    expect((await api(gw.url, 'GET', '/mail/sent', { secret: stay.secret })).body.messages).toEqual([]);
    expect((await api(gw.url, 'GET', '/xp/staying-agent', { secret: stay.secret })).body.xp).toBe(xpBefore);
    // The deleted agent's posts leave the topic counts and the search index.
    const topics = (await api(gw.url, 'GET', '/topics')).body.topics;
    expect(topics.find((t: { topic: string }) => t.topic === 'owned-data')).toBeUndefined();
    expect((await api(gw.url, 'GET', '/wall/search?q=owned')).body.results).toEqual([]);
    expect((await api(gw.url, 'GET', '/search/stats')).body.wall_posts).toBe(2);
  });
});
