// The isolation matrix: owner, grantee (read), grantee (write), revoked grantee, stranger and anonymous,
// over every memory endpoint; and another agent's private entries never surface through any search path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';

type Agent = { handle: string; secret: string };
let gw: TestGateway;
let owner: Agent, reader: Agent, writer: Agent, revoked: Agent, stranger: Agent;
const SECRET_WORD = 'zanzibarquux';

beforeAll(async () => {
  gw = await startGateway();
  [owner, reader, writer, revoked, stranger] = await Promise.all(['iso-owner', 'iso-reader', 'iso-writer', 'iso-revoked', 'iso-stranger'].map((h) => register(gw.url, h)));
  const put = (path: string, value: unknown, extra: Record<string, unknown> = {}) => api(gw.url, 'PUT', `/memory/${path}`, { body: { value, ...extra }, secret: owner.secret });
  await put('team/plan', { text: `Secret plan about ${SECRET_WORD} with Alice Walker in Paris` }, { tags: ['todo'] });
  await put('team/public-note', 'a public note', { visibility: 'public' });
  await put('diary/today', `private diary ${SECRET_WORD} Alice Walker`);
  for (const [who, permission] of [
    [reader, 'read'],
    [writer, 'write'],
    [revoked, 'read'],
  ] as const) {
    expect((await api(gw.url, 'POST', '/memory/team/share', { body: { grantee: who.handle, permission }, secret: owner.secret })).status).toBe(200);
  }
  expect((await api(gw.url, 'POST', '/memory/team/unshare', { body: { grantee: revoked.handle }, secret: owner.secret })).body.revoked).toBe(true);
});
afterAll(async () => gw.cleanup());

const as = (agent: Agent | null, method: string, path: string, body?: unknown) => api(gw.url, method, path, { body, secret: agent?.secret });

describe('sharing', () => {
  it('lists shares to the owner only, and answers the public ACL lookup', async () => {
    const s = await as(owner, 'GET', '/memory/team/shares');
    expect(s.body.shares.map((x: { grantee: string; permission: string }) => `${x.grantee}:${x.permission}`).sort()).toEqual(['iso-reader:read', 'iso-writer:write']);
    expect((await as(reader, 'GET', `/memory/team/shares?handle=${owner.handle}`)).status).toBe(403);
    expect((await as(null, 'GET', `/memory/team/shares?handle=${owner.handle}`)).status).toBe(401);
    expect((await as(null, 'GET', `/memory/team/acl/iso-writer?handle=${owner.handle}`)).body.permission).toBe('write');
    expect((await as(null, 'GET', `/memory/team/acl/iso-revoked?handle=${owner.handle}`)).body.permission).toBe('none');
    expect((await as(owner, 'POST', '/memory/team/share', { grantee: owner.handle })).status).toBe(422);
    expect((await as(owner, 'POST', '/memory/team/share', { grantee: 'nobody-here' })).status).toBe(404);
    // Naming the owner's handle in the body does not act for the owner: the field is refused and nothing is shared.
    const forOwner = await as(reader, 'POST', '/memory/team/share', { grantee: stranger.handle, handle: owner.handle });
    expect(forOwner.status).toBe(422);
    expect(forOwner.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([['body', 'handle']]);
    expect((await as(null, 'GET', `/memory/team/acl/${stranger.handle}?handle=${owner.handle}`)).body.permission).toBe('none');
  });

  it('read, write, revoked, stranger and anonymous over entry endpoints', async () => {
    const O = owner.handle;
    const readPaths = [`/memory/team/plan?handle=${O}`, `/memory/team/plan/history?handle=${O}`, `/memory/team/plan/v/1?handle=${O}`];
    for (const p of readPaths) {
      expect((await as(reader, 'GET', p)).status, `reader ${p}`).toBe(200);
      expect((await as(writer, 'GET', p)).status, `writer ${p}`).toBe(200);
      expect((await as(revoked, 'GET', p)).status, `revoked ${p}`).toBe(404);
      expect((await as(stranger, 'GET', p)).status, `stranger ${p}`).toBe(404);
      expect((await as(null, 'GET', p)).status, `anonymous ${p}`).toBe(404);
    }
    expect((await as(reader, 'GET', `/memory/team?handle=${O}`)).body.keys.map((k: { key: string }) => k.key)).toEqual(['plan', 'public-note']);
    expect((await as(stranger, 'GET', `/memory/team?handle=${O}`)).body.keys.map((k: { key: string }) => k.key)).toEqual(['public-note']);
    expect((await as(null, 'GET', `/memory/team/public-note?handle=${O}`)).body.value).toBe('a public note');
    expect((await as(stranger, 'GET', `/memory/diary/today?handle=${O}`)).status).toBe(404);
    expect((await as(reader, 'GET', `/memory/diary/today?handle=${O}`)).status).toBe(404);

    // Writes: only the write grantee, into the owner's namespace, recorded as written by it.
    const w = await as(writer, 'PUT', '/memory/team/from-writer', { value: 'hello', handle: O });
    expect(w.status).toBe(200);
    expect(w.body.owner).toBe(O);
    expect((await as(owner, 'GET', '/memory/team/from-writer/history')).body.versions[0].written_by).toBe(writer.handle);
    expect((await as(reader, 'PUT', '/memory/team/x', { value: 1, handle: O })).status).toBe(403);
    expect((await as(stranger, 'PUT', '/memory/team/x', { value: 1, handle: O })).status).toBe(403);
    expect((await as(null, 'PUT', '/memory/team/x', { value: 1, handle: O })).status).toBe(401);
    expect((await as(reader, 'DELETE', `/memory/team/from-writer?handle=${O}`)).status).toBe(403);
    expect((await as(writer, 'DELETE', `/memory/team/from-writer?handle=${O}`)).status).toBe(200);

    // Revocation is immediate.
    await as(owner, 'POST', '/memory/team/unshare', { grantee: reader.handle });
    expect((await as(reader, 'GET', `/memory/team/plan?handle=${O}`)).status).toBe(404);
    await as(owner, 'POST', '/memory/team/share', { grantee: reader.handle, permission: 'read' });
  });

  it('an entry made public shows strangers its current version only, never what was written while it was private', async () => {
    const O = owner.handle;
    await as(owner, 'PUT', '/memory/team/was-private', { value: `private draft ${SECRET_WORD}` });
    await as(owner, 'PUT', '/memory/team/was-private', { value: 'published text', visibility: 'public' });
    for (const who of [stranger, revoked, null]) {
      const h = await as(who, 'GET', `/memory/team/was-private/history?handle=${O}`);
      expect(h.status).toBe(200);
      expect(h.body.versions.map((v: { version: number; value: string }) => `${v.version}:${v.value}`)).toEqual(['2:published text']);
      expect((await as(who, 'GET', `/memory/team/was-private/v/2?handle=${O}`)).body.value).toBe('published text');
      const old = await as(who, 'GET', `/memory/team/was-private/v/1?handle=${O}`);
      expect(old.status).toBe(404);
      expect(JSON.stringify(old.body)).not.toContain(SECRET_WORD);
    }
    // The owner and a grantee still read the whole history.
    for (const who of [owner, reader]) {
      const h = await as(who, 'GET', `/memory/team/was-private/history?handle=${O}`);
      expect(h.body.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
      expect((await as(who, 'GET', `/memory/team/was-private/v/1?handle=${O}`)).body.value).toBe(`private draft ${SECRET_WORD}`);
    }
    await as(owner, 'DELETE', '/memory/team/was-private');
  });

  it("a grantee's context card follows shares and revocations at once, cached or not", async () => {
    const sharedTo = async (who: Agent) => {
      const card = await as(who, 'GET', `/memory/context/${who.handle}`);
      expect(card.status).toBe(200);
      return card.body.shared_with_me.map((s: { owner: string; namespace: string }) => `${s.owner}/${s.namespace}`);
    };
    expect(await sharedTo(stranger)).toEqual([]);
    expect(await sharedTo(stranger)).toEqual([]); // now cached
    await as(owner, 'POST', '/memory/diary/share', { grantee: stranger.handle, permission: 'read' });
    expect(await sharedTo(stranger)).toEqual([`${owner.handle}/diary`]);
    await as(owner, 'POST', '/memory/diary/unshare', { grantee: stranger.handle });
    const card = await as(stranger, 'GET', `/memory/context/${stranger.handle}`);
    expect(card.body.cached).toBe(true);
    expect(card.body.shared_with_me).toEqual([]);
  });

  it('owner-only endpoints refuse everyone else', async () => {
    const O = owner.handle;
    for (const [method, path, body] of [
      ['GET', `/memory/stats?handle=${O}`],
      ['GET', `/memory/context/${O}`],
      ['GET', `/memory/graph?handle=${O}`],
      ['GET', `/memory/changes?handle=${O}`],
      ['GET', `/memory/export?handle=${O}`],
      ['POST', '/memory/forget', { namespace: 'team', handle: O, dry_run: false }],
      ['POST', '/memory/import', { jsonl: '', handle: O }],
    ] as [string, string, unknown][]) {
      for (const who of [reader, writer, stranger]) expect((await as(who, method, path, body)).status, `${who.handle} ${method} ${path}`).toBe(403);
      expect((await as(null, method, path, body)).status, `anonymous ${method} ${path}`).toBe(401);
    }
    // Bulk writes by a stranger into the owner's namespace are refused as a whole.
    expect((await as(stranger, 'POST', '/memory/bulk/put', { items: [{ namespace: 'team', key: 'b', value: 1 }], handle: O })).status).toBe(403);
    expect((await as(stranger, 'POST', '/memory/bulk/delete', { items: [{ namespace: 'team', key: 'plan' }], handle: O })).status).toBe(403);
    expect((await as(owner, 'GET', '/memory/team/plan')).status).toBe(200);
  });
});

describe("another agent's private entries never surface in search", () => {
  // The query itself is echoed back as `q`; everything else must be free of the private entries.
  const mustNotLeak = (body: unknown) =>
    expect(JSON.stringify(body).replace(/\\?"q\\?":\\?"[^"\\]*\\?"/g, '')).not.toMatch(/diary|zanzibar|Secret plan/i);

  it('through /memory/search, /search, /memory/facts, /search/stats, MCP resources', async () => {
    await eventually(async () => {
      const f = await as(owner, 'GET', '/memory/facts?q=alice');
      expect(f.body.facts.length).toBeGreaterThan(0);
    });
    const own = await as(owner, 'GET', `/memory/search?q=${SECRET_WORD}`);
    expect(own.body.results.map((r: { key: string }) => r.key).sort()).toEqual(['plan', 'today']);
    expect(own.body.results.every((r: { acl_status: string }) => r.acl_status === 'own')).toBe(true);
    const shared = await as(reader, 'GET', `/memory/search?q=${SECRET_WORD}`);
    expect(shared.body.results.map((r: { key: string; acl_status: string }) => `${r.key}:${r.acl_status}`)).toEqual(['plan:shared']);
    for (const who of [stranger, revoked, null]) {
      for (const path of [`/memory/search?q=${SECRET_WORD}`, `/search?q=${SECRET_WORD}`, `/search?q=${SECRET_WORD}&sources=memory`, '/memory/facts?q=alice', '/memory/facts?q=walker&include_superseded=true', '/memory/search?q=diary', '/memory/search?q=plan']) {
        const r = await as(who, 'GET', path);
        expect(r.status, `${who?.handle ?? 'anonymous'} ${path}`).toBe(200);
        mustNotLeak(r.body);
      }
    }
    const pub = await as(stranger, 'GET', '/memory/search?q=public');
    expect(pub.body.results.map((r: { key: string; acl_status: string }) => `${r.key}:${r.acl_status}`)).toEqual(['public-note:public']);
    mustNotLeak((await as(null, 'GET', '/search/stats')).body);

    const client = new Client({ name: 'iso', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${stranger.secret}` } } }));
    const res = await client.listResources();
    mustNotLeak(res);
    const read = await client.readResource({ uri: `memory://${owner.handle}/diary/today` }).catch((e: Error) => e);
    expect(read).toBeInstanceOf(Error);
    const search = await client.callTool({ name: 'memory_search', arguments: { q: SECRET_WORD } });
    mustNotLeak(search);
    await client.close();

    const ownClient = new Client({ name: 'iso-owner', version: '1' });
    await ownClient.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${owner.secret}` } } }));
    const mine = await ownClient.listResources();
    expect(mine.resources.map((r) => r.uri)).toContain(`memory://${owner.handle}/diary/today`);
    const entry = await ownClient.readResource({ uri: `memory://${owner.handle}/diary/today` });
    expect((entry.contents[0] as { text: string }).text).toContain(SECRET_WORD);
    await ownClient.close();
  });
});
