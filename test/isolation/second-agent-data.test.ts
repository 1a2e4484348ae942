// A second agent, with its own credentials, against an owner that HAS data: summarize, template apply, the changes
// feed after a write share is revoked, marking notifications read, removing reactions, artifacts, and unshare by a
// stranger. Each check first shows the data is there for its owner (or a grantee), then that the other agent can
// neither see nor change it. Lists of own rows are in
// second-agent-lists.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

type Agent = { handle: string; secret: string };
let gw: TestGateway;
// owner: has the data. intruder: the second agent. grantee: a handle the owner shares with (read or write).
let owner: Agent, intruder: Agent, grantee: Agent;
const PRIVATE_WORD = 'quetzalcoatlprivate';

beforeAll(async () => {
  gw = await startGateway();
  [owner, intruder, grantee] = await Promise.all(['sad-owner', 'sad-intruder', 'sad-grantee'].map((h) => register(gw.url, h)));
});
afterAll(async () => gw.cleanup());

const as = (agent: Agent | null, method: string, path: string, body?: unknown) => api(gw.url, method, path, { body, secret: agent?.secret });
const ok = async (p: Promise<{ status: number; body: any }>, status = 200) => {
  const r = await p;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};
/** A minute later, so the per-minute posting window never trips. */
const later = () => gw.clock.advance(61_000);

describe('memory', () => {
  it('summarize with the handle of an owner who did not share: public entries only, never the private ones', async () => {
    await ok(as(owner, 'PUT', '/memory/journal/garden', { value: 'Public note about tomatoes. More text.', visibility: 'public' }));
    await ok(as(owner, 'PUT', '/memory/journal/hidden', { value: `Private note about ${PRIVATE_WORD}. Keep it.` }));
    const summarize = (who: Agent | null, handle?: string) => as(who, 'POST', '/memory/summarize', { namespace: 'journal', ...(handle ? { handle } : {}) });

    // Controls: the owner's summary, and a read grantee's through `handle`, hold the private entry.
    const own = await ok(summarize(owner));
    expect(own.entries).toBe(2);
    expect(own.markdown).toContain(PRIVATE_WORD);
    await ok(as(owner, 'POST', '/memory/journal/share', { grantee: grantee.handle, permission: 'read' }));
    const shared = await ok(summarize(grantee, owner.handle));
    expect(shared.entries).toBe(2);
    expect(shared.markdown).toContain(PRIVATE_WORD);

    const other = await ok(summarize(intruder, owner.handle));
    expect(other.owner).toBe(owner.handle);
    expect(other.entries).toBe(1);
    expect(other.markdown).toContain('tomatoes');
    expect(JSON.stringify(other)).not.toContain(PRIVATE_WORD);
    expect(JSON.stringify(other)).not.toContain('hidden');
    // The intruder's own namespace of the same name is its own (empty) one.
    const mine = await ok(summarize(intruder));
    expect(mine.entries).toBe(0);
    expect(JSON.stringify(mine)).not.toContain(PRIVATE_WORD);
    expect((await summarize(null, owner.handle)).status).toBe(401);
  });

  it("template apply with another owner's handle into an unshared (or read-shared) namespace: 403, nothing written", async () => {
    await ok(as(owner, 'PUT', '/memory/vault-notes/existing', { value: 'owner original' }));
    const apply = (who: Agent | null, ns: string, key: string, handle?: string) =>
      as(who, 'POST', `/memory/template/task-list/${ns}/${key}`, { fields: { title: `by ${who?.handle ?? 'anon'}` }, ...(handle ? { handle } : {}) });

    // Controls: the route works for the caller's own namespace, and a write grantee reaches the owner's through `handle`.
    expect((await apply(intruder, 'vault-notes', 'own-list')).status).toBe(201);
    await ok(as(owner, 'POST', '/memory/writable/share', { grantee: grantee.handle, permission: 'write' }));
    const granted = await ok(apply(grantee, 'writable', 'from-grantee', owner.handle), 201);
    expect(granted.owner).toBe(owner.handle);
    expect((await as(owner, 'GET', '/memory/writable/from-grantee')).body.value.title).toBe(`by ${grantee.handle}`);

    for (const key of ['new-key', 'existing']) {
      expect((await apply(intruder, 'vault-notes', key, owner.handle)).status, key).toBe(403);
      expect((await apply(null, 'vault-notes', key, owner.handle)).status, key).toBe(401);
    }
    // A read share does not allow writing either.
    await ok(as(owner, 'POST', '/memory/vault-notes/share', { grantee: intruder.handle, permission: 'read' }));
    expect((await apply(intruder, 'vault-notes', 'new-key', owner.handle)).status).toBe(403);
    await ok(as(owner, 'POST', '/memory/vault-notes/unshare', { grantee: intruder.handle }));

    expect((await as(owner, 'GET', '/memory/vault-notes/new-key')).status).toBe(404);
    const kept = await ok(as(owner, 'GET', '/memory/vault-notes/existing'));
    expect(kept.value).toBe('owner original');
    expect(kept.version).toBe(1);
    expect((await ok(as(owner, 'GET', '/memory/vault-notes'))).keys.map((k: { key: string }) => k.key)).toEqual(['existing']);
    expect((await ok(as(intruder, 'GET', '/memory/vault-notes'))).keys.map((k: { key: string }) => k.key)).toEqual(['own-list']);
  });

  it('the changes feed of a write grantee shows nothing of the owner once the share is revoked', async () => {
    const writer = await register(gw.url, 'sad-writer');
    const feed = async (who: Agent, query = '') => (await ok(as(who, 'GET', `/memory/changes${query}`))) as { changes: { owner: string; namespace: string; key: string; value?: unknown }[]; next_cursor: string };
    const ofOwner = (f: Awaited<ReturnType<typeof feed>>) => f.changes.filter((c) => c.owner === owner.handle);

    await ok(as(owner, 'PUT', '/memory/proj/plan', { value: `feed ${PRIVATE_WORD}` }));
    await ok(as(owner, 'POST', '/memory/proj/share', { grantee: writer.handle, permission: 'write' }));
    await ok(as(writer, 'PUT', '/memory/proj/by-writer', { value: 'written while granted', handle: owner.handle }));
    await ok(as(writer, 'PUT', '/memory/own/k', { value: 'the writer own entry' }));

    // Control: while granted, the feed carries the owner's changes, private value included.
    const before = await feed(writer);
    expect(ofOwner(before).map((c) => `${c.namespace}/${c.key}`).sort()).toEqual(['proj/by-writer', 'proj/plan']);
    expect(JSON.stringify(before)).toContain(PRIVATE_WORD);
    expect(ofOwner(await feed(writer, '?namespace=proj'))).toHaveLength(2);

    expect((await ok(as(owner, 'POST', '/memory/proj/unshare', { grantee: writer.handle }))).revoked).toBe(true);
    await ok(as(owner, 'PUT', '/memory/proj/after', { value: `after revoke ${PRIVATE_WORD}` }));
    await ok(as(owner, 'DELETE', '/memory/proj/plan'));

    for (const query of ['', '?namespace=proj', `?since=${encodeURIComponent(before.next_cursor)}`, `?since=${encodeURIComponent(before.next_cursor)}&namespace=proj`]) {
      const after = await feed(writer, query);
      expect(ofOwner(after), query).toEqual([]);
      expect(JSON.stringify(after), query).not.toContain(PRIVATE_WORD);
    }
    // The writer's own changes are still there (the feed itself works), and the owner's are not reachable by handle.
    expect((await feed(writer)).changes.map((c) => `${c.owner}/${c.namespace}/${c.key}`)).toEqual([`${writer.handle}/own/k`]);
    expect((await as(writer, 'GET', `/memory/changes?handle=${owner.handle}`)).status).toBe(403);
    // The owner's own feed has them all.
    expect((await feed(owner, '?namespace=proj')).changes.map((c) => c.key).sort()).toEqual(['after', 'by-writer', 'plan']);
  });

  it("unshare by a stranger naming the owner's grantee acts on the stranger's namespace, never the owner's share", async () => {
    await ok(as(owner, 'PUT', '/memory/team/secret', { value: `team ${PRIVATE_WORD}` }));
    await ok(as(owner, 'POST', '/memory/team/share', { grantee: grantee.handle, permission: 'read' }));
    const ownerShares = async () => (await ok(as(owner, 'GET', '/memory/team/shares'))).shares.map((s: { grantee: string; permission: string }) => `${s.grantee}:${s.permission}`);
    const granteeReads = async () => (await as(grantee, 'GET', `/memory/team/secret?handle=${owner.handle}`)).status;
    expect(await ownerShares()).toEqual([`${grantee.handle}:read`]);
    expect(await granteeReads()).toBe(200);

    const r = await ok(as(intruder, 'POST', '/memory/team/unshare', { grantee: grantee.handle }));
    expect(r).toMatchObject({ owner: intruder.handle, namespace: 'team', revoked: false });
    // Naming the owner is refused as an unknown field, not taken to act for the owner.
    expect((await as(intruder, 'POST', '/memory/team/unshare', { grantee: grantee.handle, handle: owner.handle })).status).toBe(422);
    // The intruder's own share of a namespace with the same name is the only one it can revoke.
    await ok(as(intruder, 'POST', '/memory/team/share', { grantee: grantee.handle, permission: 'write' }));
    expect((await ok(as(intruder, 'POST', '/memory/team/unshare', { grantee: grantee.handle }))).revoked).toBe(true);
    expect((await as(null, 'POST', '/memory/team/unshare', { grantee: grantee.handle })).status).toBe(401);

    expect(await ownerShares()).toEqual([`${grantee.handle}:read`]);
    expect(await granteeReads()).toBe(200);
    expect((await as(null, 'GET', `/memory/team/acl/${grantee.handle}?handle=${owner.handle}`)).body.permission).toBe('read');
    // Control: the owner's own unshare does revoke.
    expect((await ok(as(owner, 'POST', '/memory/team/unshare', { grantee: grantee.handle }))).revoked).toBe(true);
    expect(await granteeReads()).toBe(404);
  });
});

describe('notifications', () => {
  it("marking another agent's notification ids read leaves them unread", async () => {
    later();
    await ok(as(intruder, 'POST', '/wall', { text: `Hello @${owner.handle}, see this` }), 201);
    later();
    await ok(as(owner, 'POST', '/wall', { text: `Hi @${intruder.handle}` }), 201);
    const tray = async (who: Agent) => (await ok(as(who, 'GET', '/notifications'))) as { unread: number; notifications: { id: number; kind: string; read: boolean; data: any }[] };

    const mine = await tray(owner);
    const mention = mine.notifications.find((n) => n.kind === 'mention' && n.data.from === intruder.handle)!;
    expect(mention.read).toBe(false);
    const ownerUnread = mine.unread;
    expect(ownerUnread).toBeGreaterThan(0);
    const ownerIds = mine.notifications.filter((n) => !n.read).map((n) => n.id);

    const byIds = await ok(as(intruder, 'POST', '/notifications/read', { ids: ownerIds }));
    expect(byIds.marked).toBe(0);
    // all=true marks the intruder's own tray (its mention by the owner), not the owner's.
    const intruderUnread = (await tray(intruder)).unread;
    expect(intruderUnread).toBeGreaterThan(0);
    expect(await ok(as(intruder, 'POST', '/notifications/read', { all: true }))).toEqual({ marked: intruderUnread, unread: 0 });
    expect((await as(intruder, 'POST', '/notifications/read', { ids: ownerIds, handle: owner.handle })).status).toBe(403);
    expect((await as(null, 'POST', '/notifications/read', { ids: ownerIds })).status).toBe(401);

    const after = await tray(owner);
    expect(after.unread).toBe(ownerUnread);
    expect(after.notifications.filter((n) => ownerIds.includes(n.id)).every((n) => !n.read)).toBe(true);
    // Control: the owner's own call marks them.
    expect((await ok(as(owner, 'POST', '/notifications/read', { ids: [mention.id] }))).marked).toBe(1);
  });
});

describe('wall reactions', () => {
  it("removing a reaction removes only the caller's own, never another agent's on the same post", async () => {
    later();
    const post = await ok(as(grantee, 'POST', '/wall', { text: 'A post both react to' }), 201);
    const path = `/wall/${post.post_id}/react`;
    await ok(as(owner, 'POST', path, { reaction: 'like' }));
    await ok(as(owner, 'POST', path, { reaction: 'verified' }));
    await ok(as(intruder, 'POST', path, { reaction: 'like' }));
    const counts = async () => (await ok(as(null, 'GET', `/wall/${post.post_id}`))).post.reactions;
    expect(await counts()).toMatchObject({ like: 2, verified: 1 });

    const removed = await ok(as(intruder, 'DELETE', `${path}?reaction=like`));
    expect(removed).toMatchObject({ removed: true, yours: [] });
    expect(removed.reactions).toMatchObject({ like: 1, verified: 1 });
    // Again, and a kind only the owner gave: nothing of the owner's goes.
    expect((await ok(as(intruder, 'DELETE', `${path}?reaction=like`))).removed).toBe(false);
    expect((await ok(as(intruder, 'DELETE', `${path}?reaction=verified`))).removed).toBe(false);
    expect((await ok(as(intruder, 'DELETE', `${path}?reaction=%F0%9F%91%8D`))).removed).toBe(false);
    expect((await as(null, 'DELETE', `${path}?reaction=like`)).status).toBe(401);
    expect(await counts()).toMatchObject({ like: 1, verified: 1 });

    // The owner's reactions are still its own: reacting again adds nothing, and it alone can remove them.
    const again = await ok(as(owner, 'POST', path, { reaction: 'like' }));
    expect(again).toMatchObject({ added: false, yours: ['like', 'verified'] });
    expect((await ok(as(owner, 'DELETE', `${path}?reaction=verified`))).removed).toBe(true);
    expect(await counts()).toMatchObject({ like: 1, verified: 0 });
  });
});

describe('artifacts', () => {
  it("another agent's list never holds the owner's artifacts, and it has no way to delete one", async () => {
    const a1 = await ok(as(owner, 'POST', '/artifacts', { text: `artifact one ${PRIVATE_WORD}`, filename: 'owner-one.txt' }), 201);
    const a2 = await ok(as(owner, 'POST', '/artifacts', { text: 'artifact two', filename: 'owner-two.txt' }), 201);
    const b1 = await ok(as(intruder, 'POST', '/artifacts', { text: 'intruder artifact', filename: 'intruder.txt' }), 201);
    const ids = (body: { artifacts: { id: string }[] }) => body.artifacts.map((a) => a.id).sort();

    const own = await ok(as(owner, 'GET', '/artifacts'));
    expect(ids(own)).toEqual([a1.id, a2.id].sort());
    expect(own.total).toBe(2);
    const other = await ok(as(intruder, 'GET', '/artifacts'));
    expect(ids(other)).toEqual([b1.id]);
    expect(other.total).toBe(1);
    expect(JSON.stringify(other)).not.toContain('owner-one');
    for (const q of ['?limit=200', '?offset=1']) expect(ids(await ok(as(intruder, 'GET', `/artifacts${q}`)))).not.toContain(a1.id);
    expect((await as(intruder, 'GET', `/artifacts?handle=${owner.handle}`)).status).toBe(403);
    expect((await as(null, 'GET', '/artifacts')).status).toBe(401);

    // Downloading by id is public by design (the unguessable URL); there is no delete, for anyone.
    expect((await as(intruder, 'DELETE', `/artifacts/${a1.id}`)).status).toBeGreaterThanOrEqual(400);
    expect(ids(await ok(as(owner, 'GET', '/artifacts')))).toEqual([a1.id, a2.id].sort());
    expect((await as(null, 'GET', `/artifacts/${a1.id}?meta=1`)).status).toBe(200);
  });
});
