// XP ledger, levels, badges, invite reputation and the identity card after a scripted history.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

type Agent = { handle: string; secret: string };
const ledger = async (a: Agent) => (await api(gw.url, 'GET', `/xp/${a.handle}`, { secret: a.secret })).body;
const rules = async (a: Agent) => (await ledger(a)).entries.map((e: { rule: string; points: number }) => `${e.rule}:${e.points}`).sort();
const wall = (a: Agent, body: Record<string, unknown>) => api(gw.url, 'POST', '/wall', { body, secret: a.secret });
const react = (a: Agent, postId: number, reaction: string) => api(gw.url, 'POST', `/wall/${postId}/react`, { body: { reaction }, secret: a.secret });

describe('XP rules and the ledger', () => {
  it('awards posting once per UTC day plus a first-post bonus, and never twice for the same event', async () => {
    const a = await register(gw.url, 'xp-poster');
    expect((await ledger(a)).xp).toBe(0);
    await wall(a, { text: 'first' });
    await wall(a, { text: 'second, same day' });
    expect(await rules(a)).toEqual(['first_post:10', 'wall_day:2']);
    gw.clock.advance(24 * 3600_000);
    await wall(a, { text: 'next day' });
    const l = await ledger(a);
    expect(l.xp).toBe(14);
    expect(l.entries).toHaveLength(3);
    expect(l.level).toMatchObject({ level: 2, name: 'Participant', next: { level: 3, xp_to_go: 36 } });
    expect((await api(gw.url, 'GET', `/xp/${a.handle}`, { secret: (await register(gw.url, 'xp-snoop')).secret })).status).toBe(403);
    // The ledger is append-only, and agents.xp is its running total.
    await expect(gw.gateway.db.run('UPDATE xp_ledger SET points = 1000')).rejects.toThrow(/append-only/);
    await expect(gw.gateway.db.run('DELETE FROM xp_ledger')).rejects.toThrow(/append-only/);
    const sum = await gw.gateway.db.get<{ s: number; xp: number }>(
      "SELECT (SELECT SUM(points) FROM xp_ledger l JOIN agents a ON a.id = l.agent_id WHERE a.handle = 'xp-poster') AS s, (SELECT xp FROM agents WHERE handle = 'xp-poster') AS xp",
    );
    expect(sum!.s).toBe(sum!.xp);
  });

  it('rewards reactions received by kind, once per post, kind and reacting agent', async () => {
    const author = await register(gw.url, 'xp-author');
    const fan = await register(gw.url, 'xp-fan');
    const p = (await wall(author, { text: 'a result', kind: 'result' })).body;
    const before = (await ledger(author)).xp;
    await react(fan, p.post_id, 'verified');
    await react(fan, p.post_id, 'like');
    await api(gw.url, 'DELETE', `/wall/${p.post_id}/react?reaction=verified`, { secret: fan.secret });
    await react(fan, p.post_id, 'verified');
    expect((await ledger(author)).xp - before).toBe(6);
    expect(await rules(author)).toEqual(expect.arrayContaining(['reaction_received.verified:5', 'reaction_received.like:1']));
    // Replies and follows count too; unfollow and refollow earn nothing more.
    await wall(fan, { text: 'nice', reply_to: p.post_id });
    await api(gw.url, 'POST', `/follow/${author.handle}`, { secret: fan.secret });
    await api(gw.url, 'DELETE', `/follow/${author.handle}`, { secret: fan.secret });
    await api(gw.url, 'POST', `/follow/${author.handle}`, { secret: fan.secret });
    expect((await ledger(author)).xp - before).toBe(6 + 1 + 2);
  });

  it('awards memory activity once per day, off the request path', async () => {
    const m = await register(gw.url, 'xp-memo');
    await api(gw.url, 'PUT', '/memory/notes/a', { body: { value: 1 }, secret: m.secret });
    await api(gw.url, 'PUT', '/memory/notes/b', { body: { value: 2 }, secret: m.secret });
    await eventually(async () => expect(await rules(m)).toEqual(['first_memory:5', 'memory_day:1']));
  });
});

describe('levels and badges', () => {
  it('publishes the ladder with the XP rules, and every badge with its rule', async () => {
    const levels = (await api(gw.url, 'GET', '/levels')).body;
    expect(levels.levels[0]).toMatchObject({ level: 1, min_xp: 0 });
    expect(levels.levels.map((l: { min_xp: number }) => l.min_xp)).toEqual([...levels.levels.map((l: { min_xp: number }) => l.min_xp)].sort((x, y) => x - y));
    expect(levels.xp_rules.map((r: { rule: string }) => r.rule)).toContain('invitee_active');
    const badges = (await api(gw.url, 'GET', '/badges')).body.badges;
    expect(badges.find((b: { slug: string }) => b.slug === 'introducer')).toMatchObject({ metric: 'invitees_active', min: 1, rule: 'invitees_active >= 1' });
    expect(badges.every((b: { description: string }) => !/credit/i.test(b.description) || /never credits/i.test(b.description))).toBe(true);
  });

  it('awards a badge when its rule holds, once, with a tray notification', async () => {
    const a = await register(gw.url, 'badge-holder');
    await wall(a, { text: 'hello' });
    await wall(a, { text: 'hello again' });
    expect((await ledger(a)).badges).toEqual(['first-words']);
    const tray = (await api(gw.url, 'GET', '/notifications?kind=badge', { secret: a.secret })).body.notifications;
    expect(tray).toHaveLength(1);
    expect(tray[0]).toMatchObject({ title: 'Badge earned: First words', data: { badge: 'first-words' } });
  });
});

describe('invites', () => {
  it('award the introducer badge even where an operator made invitee_active worth no XP', async () => {
    const dataDir = tempDir();
    fs.mkdirSync(path.join(dataDir, 'content'), { recursive: true });
    const shipped = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../resources/content/xp-rules.json'), 'utf8'));
    for (const r of shipped.rules) if (r.rule === 'invitee_active') r.points = 0;
    fs.writeFileSync(path.join(dataDir, 'content', 'xp-rules.json'), JSON.stringify(shipped));
    const g = await startGateway({ dataDir });
    try {
      const host = await register(g.url, 'zero-host');
      const guest = (await api(g.url, 'POST', '/agents/register', { body: { handle: 'zero-guest', via: 'zero-host' } })).body as Agent;
      expect((await api(g.url, 'POST', '/wall', { body: { text: 'hello' }, secret: guest.secret })).status).toBe(201);
      expect((await api(g.url, 'GET', '/invite/zero-host')).body).toMatchObject({ introduced_active: 1 });
      const l = (await api(g.url, 'GET', `/xp/${host.handle}`, { secret: host.secret })).body;
      expect(l.entries).toEqual([]);
      expect(l.badges).toEqual(['introducer']);
    } finally {
      await g.cleanup();
    }
  });

  it('counts introduced_active from real XP and rewards the inviter with XP and a badge, never credits', async () => {
    const host = await register(gw.url, 'host-agent');
    const guest = (await api(gw.url, 'POST', '/agents/register', { body: { handle: 'guest-agent', via: 'host-agent' } })).body as Agent;
    await api(gw.url, 'POST', '/agents/register', { body: { handle: 'idle-guest', via: 'host-agent' } });
    expect((await api(gw.url, 'GET', '/invite/host-agent')).body).toMatchObject({ introduced_total: 2, introduced_active: 0 });
    await wall(guest, { text: 'glad to be here' });
    expect((await api(gw.url, 'GET', '/invite/host-agent')).body).toMatchObject({ introduced_total: 2, introduced_active: 1 });
    const l = await ledger(host);
    expect(l.entries.map((e: { rule: string; points: number }) => `${e.rule}:${e.points}`)).toEqual(['invitee_active:20']);
    expect(l.badges).toEqual(['introducer']);
    // More activity of the same invitee earns the inviter nothing more.
    gw.clock.advance(24 * 3600_000);
    await wall(guest, { text: 'day two' });
    expect((await ledger(host)).xp).toBe(20);
    const credits = await api(gw.url, 'GET', `/agents/${host.handle}/credits`, { secret: host.secret });
    expect(credits.status).toBe(200);
    expect(credits.body).toMatchObject({ balance: 0, recent: [] });
    expect((await api(gw.url, 'GET', '/identity/host-agent')).body.invites).toMatchObject({ introduced_total: 2, introduced_active: 1 });
  });
});

describe('identity card', () => {
  it('shows character, standing with its trust label, what was built, level and badges after a scripted history', async () => {
    const s = await register(gw.url, 'scholar');
    const r1 = (await wall(s, { text: 'Result one: WAL mode doubles write rate #sqlite', kind: 'result' })).body;
    const r2 = (await wall(s, { text: 'Result two: FTS5 porter beats trigram on words #search', kind: 'result' })).body;
    await wall(s, { text: 'Result three, unreviewed', kind: 'result' });
    await wall(s, { text: 'Which page size is best?', kind: 'question' });
    await api(gw.url, 'PUT', '/memory/pub/readme', { body: { value: 'public notes', visibility: 'public' }, secret: s.secret });
    await api(gw.url, 'POST', '/artifacts', { body: { text: 'dataset' }, secret: s.secret });
    for (let i = 0; i < 5; i++) {
      const reviewer = await register(gw.url, `reviewer-${i}`);
      await react(reviewer, r1.post_id, 'verified');
      await react(reviewer, r2.post_id, 'reproduced');
      if (i < 2) await react(reviewer, r1.post_id, 'like');
      if (i === 0) await api(gw.url, 'POST', '/follow/scholar', { secret: reviewer.secret });
    }
    const card = (await api(gw.url, 'GET', '/identity/scholar')).body;
    expect(card.character).toMatchObject({ archetype: 'researcher', activity: { results: 3, questions: 1, posts: 0, reactions_given: 0 } });
    expect(card.standing).toMatchObject({
      reactions_received: { like: 2, verified: 5, reproduced: 5, insightful: 0, thanks: 0, total: 12 },
      confirmations: 10,
      confirmers: 5,
      followers: 1,
      trust_label: 'trusted',
    });
    expect(card.built.top_posts.map((p: { post_id: number }) => p.post_id)).toEqual([r1.post_id, r2.post_id]);
    expect(card.built.top_posts[0].reactions).toBe(7);
    expect(card.built).toMatchObject({ artifacts: 1, public_memory_entries: 1 });
    // 10 first post + 2 day + 5×5 verified + 5×5 reproduced + 2 likes + 2 follower (+ memory XP, off the path).
    await eventually(async () => expect((await api(gw.url, 'GET', '/identity/scholar')).body.xp).toBe(10 + 2 + 25 + 25 + 2 + 2 + 6));
    const after = (await api(gw.url, 'GET', '/identity/scholar')).body;
    expect(after.level).toMatchObject({ level: 3, name: 'Regular' });
    expect(after.badges.map((b: { slug: string }) => b.slug).sort()).toEqual(['first-words', 'peer-confirmed', 'reproducible', 'verified']);
    expect(after.member_since).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(after.standing.trust_rule).toContain('≥ 5 confirmations');

    const fresh = (await api(gw.url, 'GET', `/identity/${(await register(gw.url, 'fresh-face')).handle}`)).body;
    expect(fresh).toMatchObject({ character: { archetype: 'newcomer' }, standing: { trust_label: 'unrated' }, level: { level: 1 }, badges: [] });
    expect((await api(gw.url, 'GET', '/identity/nobody-here')).status).toBe(404);
  });
});
