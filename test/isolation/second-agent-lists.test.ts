// "List my own rows" owner tools, called by a second agent with its own credentials and its own handle, after the
// owner (and a peer it deals with) made rows of every kind: the second agent's answer holds its own rows and none
// of theirs. Each list is first shown to hold the owner's rows for the owner, and the second agent's own rows for
// it, so an empty answer cannot pass for isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { ownedDataEnv, populateAgentData } from '../helpers/owned-data.js';

type Agent = { handle: string; secret: string };
let gw: TestGateway;
// owner deals with peer (mail, follows, shares, reactions); intruder deals with friend the same way.
let owner: Agent, peer: Agent, intruder: Agent, friend: Agent;
let ownerJob: string, intruderJob: string;
const HOUR = 3600 * 1000;

beforeAll(async () => {
  gw = await startGateway({ env: ownedDataEnv() });
  [owner, peer, intruder, friend] = await Promise.all(['lst-owner', 'lst-peer', 'lst-intruder', 'lst-friend'].map((h) => register(gw.url, h)));
  await populateAgentData(gw.url, owner, peer);
  gw.clock.advance(61_000);
  await populateAgentData(gw.url, intruder, friend);
  // Memory only the owner has, for the graph and the stats.
  await api(gw.url, 'PUT', '/memory/atlas/route', { body: { value: 'Trip with Bartholomew Kowalski to Reykjavik in March.' }, secret: owner.secret });
  // A finished job each without a callback, for the heartbeat.
  const job = async (a: Agent) => (await api(gw.url, 'POST', '/jobs', { body: { type: 'delay', seconds: 60 }, secret: a.secret })).body.job_id as string;
  ownerJob = await job(owner);
  intruderJob = await job(intruder);
  gw.clock.advance(HOUR);
  await gw.gateway.registry.services.scheduler.runDue();
});
afterAll(async () => gw.cleanup());

const get = async (who: Agent, path: string) => {
  const r = await api(gw.url, 'GET', path, { secret: who.secret });
  expect(r.status, `${who.handle} GET ${path}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
};
/** Nothing of the owner's or its peer's in the intruder's answer: neither handle appears anywhere in it. */
const noTraceOfOwner = (body: unknown, what: string) => {
  const text = JSON.stringify(body);
  expect(text, what).not.toContain(owner.handle);
  expect(text, what).not.toContain(peer.handle);
};
const ids = <T>(rows: T[], key: keyof T) => rows.map((r) => r[key]);
const disjoint = (a: unknown[], b: unknown[]) => expect(a.filter((x) => b.includes(x))).toEqual([]);

describe("a second agent's own lists hold none of the owner's rows", () => {
  it('watch_list', async () => {
    const mine = (await get(owner, `/watches/${owner.handle}`)).watches;
    const theirs = (await get(intruder, `/watches/${intruder.handle}`)).watches;
    expect(mine.length).toBeGreaterThan(0);
    expect(theirs.length).toBeGreaterThan(0);
    expect(new Set(ids(mine, 'owner'))).toEqual(new Set([owner.handle]));
    expect(new Set(ids(theirs, 'owner'))).toEqual(new Set([intruder.handle]));
    disjoint(ids(theirs, 'watch_id'), ids(mine, 'watch_id'));
    noTraceOfOwner(theirs, 'watch_list');
  });

  it('webhook_secret_get', async () => {
    const mine = (await get(owner, `/agents/${owner.handle}/webhook-secret`)).secret;
    const theirs = (await get(intruder, `/agents/${intruder.handle}/webhook-secret`)).secret;
    expect(mine).toMatch(/^whsec_/);
    expect(theirs).toMatch(/^whsec_/);
    expect(theirs).not.toBe(mine);
    // Each stays the same for its agent.
    expect((await get(owner, `/agents/${owner.handle}/webhook-secret`)).secret).toBe(mine);
    expect((await get(intruder, `/agents/${intruder.handle}/webhook-secret`)).secret).toBe(theirs);
  });

  it('beat', async () => {
    const unreadOf = async (a: Agent) => (await get(a, '/notifications')).unread;
    const mine = await get(owner, `/beat/${owner.handle}`);
    expect(mine.since_last_beat.jobs.map((j: { job_id: string }) => j.job_id)).toContain(ownerJob);
    expect(mine.memory_context.handle).toBe(owner.handle);
    expect(JSON.stringify(mine.memory_context)).toContain('atlas');
    const theirs = await get(intruder, `/beat/${intruder.handle}`);
    expect(theirs.handle).toBe(intruder.handle);
    // Two beats each: populate's and this one; the owner's beats are not counted for the intruder.
    expect(theirs.beats).toBe(2);
    expect(mine.unread_notifications).toBeGreaterThan(0);
    expect(theirs.unread_notifications).toBe(await unreadOf(intruder));
    const jobs = theirs.since_last_beat.jobs.map((j: { job_id: string }) => j.job_id);
    expect(jobs).toContain(intruderJob);
    expect(jobs).not.toContain(ownerJob);
    expect(theirs.memory_context.handle).toBe(intruder.handle);
    expect(JSON.stringify(theirs.memory_context)).not.toMatch(/atlas|Reykjavik/);
    noTraceOfOwner(theirs, 'beat');
  });

  it('xp_ledger', async () => {
    const mine = await get(owner, `/xp/${owner.handle}`);
    const theirs = await get(intruder, `/xp/${intruder.handle}`);
    expect(mine.entries.length).toBeGreaterThan(0);
    expect(theirs.entries.length).toBeGreaterThan(0);
    disjoint(ids(theirs.entries, 'id'), ids(mine.entries, 'id'));
    expect(theirs.xp).toBe(theirs.entries.reduce((s: number, e: { points: number }) => s + e.points, 0));
    noTraceOfOwner(theirs, 'xp_ledger');
  });

  it('credits balance and ledger', async () => {
    const mine = await get(owner, `/agents/${owner.handle}/credits/ledger`);
    const theirs = await get(intruder, `/agents/${intruder.handle}/credits/ledger`);
    expect(mine.entries.length).toBeGreaterThan(0);
    expect(theirs.entries.length).toBeGreaterThan(0);
    disjoint(ids(theirs.entries, 'id'), ids(mine.entries, 'id'));
    const balance = await get(intruder, `/agents/${intruder.handle}/credits`);
    expect(balance.balance).toBe(theirs.entries[0].balance_after);
    disjoint(ids(balance.recent, 'id'), ids(mine.entries, 'id'));
    expect(ids(balance.recent, 'id')).toEqual(ids(theirs.entries, 'id').slice(0, balance.recent.length));
    noTraceOfOwner([theirs, balance], 'credits');
  });

  it('entitlements_list', async () => {
    const mine = (await get(owner, `/agents/${owner.handle}/entitlements`)).entitlements;
    const theirs = (await get(intruder, `/agents/${intruder.handle}/entitlements`)).entitlements;
    expect(mine.length).toBeGreaterThan(0);
    expect(theirs.length).toBeGreaterThan(0);
    disjoint(ids(theirs, 'grant_id'), ids(mine, 'grant_id'));
    disjoint(ids(theirs, 'transaction_id'), ids(mine, 'transaction_id'));
    noTraceOfOwner(theirs, 'entitlements_list');
  });

  it('memory_graph', async () => {
    const labels = (g: { nodes: { label: string }[] }) => g.nodes.map((n) => n.label);
    await eventually(async () => expect(labels(await get(owner, '/memory/graph'))).toContain('atlas/route'));
    await eventually(async () => expect(labels(await get(intruder, '/memory/graph'))).toContain('notes/plan'));
    const mine = await get(owner, '/memory/graph');
    expect(JSON.stringify(mine)).toMatch(/Reykjavik|Kowalski/);
    const theirs = await get(intruder, '/memory/graph');
    expect(JSON.stringify(theirs)).not.toMatch(/atlas|Reykjavik|Kowalski/);
    noTraceOfOwner(theirs, 'memory_graph');
  });

  it('memory_stats', async () => {
    const count = async (a: Agent) => {
      const r = await api(gw.url, 'GET', '/memory/export', { secret: a.secret });
      expect(r.status).toBe(200);
      return String(typeof r.body === 'string' ? r.body : JSON.stringify(r.body)).split('\n').filter((l) => l.trim() && !l.includes('"_meta"')).length;
    };
    const mine = await get(owner, '/memory/stats');
    const theirs = await get(intruder, '/memory/stats');
    // Both made the same populate writes; the owner has one entry more (atlas/route).
    expect(mine.entries).toBe(theirs.entries + 1);
    expect(theirs.entries).toBeGreaterThan(0);
    expect(theirs.entries).toBe(await count(intruder));
    expect(mine.entries).toBe(await count(owner));
    expect(theirs).toMatchObject({ handle: intruder.handle, shares: 1, shared_with_me: 1 });
    noTraceOfOwner(theirs, 'memory_stats');
  });

  it('feed', async () => {
    const mine = (await get(owner, '/feed')).posts;
    const theirs = (await get(intruder, '/feed')).posts;
    expect(new Set(ids(mine, 'handle'))).toEqual(new Set([peer.handle]));
    expect(new Set(ids(theirs, 'handle'))).toEqual(new Set([friend.handle]));
    disjoint(ids(theirs, 'post_id'), ids(mine, 'post_id'));
  });

  it('mail inbox and sent: mail between the owner and its peer never shows', async () => {
    const pair = (m: { from: string; to: string }) => `${m.from}>${m.to}`;
    expect((await get(owner, '/mail/inbox')).messages.map(pair)).toEqual([`${peer.handle}>${owner.handle}`]);
    expect((await get(owner, '/mail/sent')).messages.map(pair)).toEqual([`${owner.handle}>${peer.handle}`]);
    const inbox = await get(intruder, '/mail/inbox');
    const sent = await get(intruder, '/mail/sent');
    expect(inbox.messages.map(pair)).toEqual([`${friend.handle}>${intruder.handle}`]);
    expect(sent.messages.map(pair)).toEqual([`${intruder.handle}>${friend.handle}`]);
    expect(inbox.unread).toBe(1);
    noTraceOfOwner([inbox, sent], 'mail');
  });

  it('naming the owner instead refuses (403) on every one of these', async () => {
    const O = owner.handle;
    for (const path of [
      `/watches/${O}`, `/agents/${O}/webhook-secret`, `/beat/${O}`, `/xp/${O}`, `/agents/${O}/credits`, `/agents/${O}/credits/ledger`,
      `/agents/${O}/entitlements`, `/memory/graph?handle=${O}`, `/memory/stats?handle=${O}`, `/feed?handle=${O}`, `/mail/inbox?handle=${O}`, `/mail/sent?handle=${O}`,
    ]) {
      const r = await api(gw.url, 'GET', path, { secret: intruder.secret });
      expect(r.status, path).toBe(403);
      expect(JSON.stringify(r.body), path).not.toContain('whsec_');
    }
  });
});
