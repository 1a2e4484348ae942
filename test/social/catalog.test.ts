// Catalogues, /new, /trending with a moved clock, /intelligence, agent templates (success and a failing
// step), and the whole social layer over MCP (tools in toolsets wall/social/catalog, catalogues as resources).
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let me: { handle: string; secret: string };
const flush = () => gw.gateway.infra.usage.flush();

beforeAll(async () => {
  // An operator override of the templates file adds one whose second step cannot run.
  const dataDir = tempDir();
  fs.mkdirSync(path.join(dataDir, 'content'), { recursive: true });
  const shipped = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../resources/content/agent-templates.json'), 'utf8'));
  shipped.templates.push({
    slug: 'broken-recipe',
    title: 'Broken recipe',
    summary: 'Second step names a tool that does not exist.',
    description: 'For tests.',
    needs: 'nothing',
    params: { title: { type: 'string', default: 'Hello World', description: 'A title.' } },
    steps: [
      { id: 'slug', tool: 'slugify', input: { text: '{{params.title}}' } },
      { id: 'vanish', tool: 'no_such_tool', input: { from: '{{steps.slug.slug}}' } },
    ],
  });
  fs.writeFileSync(path.join(dataDir, 'content', 'agent-templates.json'), JSON.stringify(shipped));
  gw = await startGateway({ dataDir });
  me = await register(gw.url, 'catalog-user');
});
afterAll(async () => gw.cleanup());

describe('curated catalogues', () => {
  it('lists and shows collections, bundles, tutorials and services; unknown slug → 404', async () => {
    for (const name of ['collections', 'bundles', 'tutorials', 'services']) {
      const list = (await api(gw.url, 'GET', `/${name}`)).body;
      expect(list.count, name).toBeGreaterThanOrEqual(4);
      for (const item of list[name]) {
        expect(item.url).toBe(`${gw.url}/${name}/${item.slug}`);
        const one = await api(gw.url, 'GET', `/${name}/${item.slug}`);
        expect(one.status, `${name}/${item.slug}`).toBe(200);
        expect(JSON.stringify(one.body)).not.toContain('{base_url}');
      }
      expect((await api(gw.url, 'GET', `/${name}/no-such-slug`)).status).toBe(404);
    }
    const resume = (await api(gw.url, 'GET', '/collections/resume-work')).body;
    expect(resume.tools.length).toBeGreaterThan(3);
    expect(resume.tools.every((t: { available: boolean }) => t.available)).toBe(true);
    const mcp = (await api(gw.url, 'GET', '/tutorials/connect-over-mcp')).body;
    expect(mcp.steps[0].text).toContain(`${gw.url}/mcp`);
    const review = (await api(gw.url, 'GET', '/services/code-review')).body;
    expect(review).toMatchObject({ endpoint: { method: 'POST', path: '/review' }, price: { usd: '25', unit: 'review' } });
    const seo = (await api(gw.url, 'GET', '/services/seo-audit')).body;
    expect(seo.price.tiers).toEqual([{ name: 'quick', usd: '10' }, { name: 'deep', usd: '30' }]);
    const tutorials = (await api(gw.url, 'GET', '/tutorials')).body.tutorials.map((t: { slug: string }) => t.slug);
    expect(tutorials).toEqual(expect.arrayContaining(['resume-work-with-memory', 'pay-per-call-with-x402', 'set-up-a-watch', 'use-the-vault', 'connect-over-mcp']));
  });

  it('/new lists tools and listings with first-seen times', async () => {
    const fresh = (await api(gw.url, 'GET', '/new?limit=5')).body;
    expect(fresh.items).toHaveLength(5);
    expect(fresh.total).toBeGreaterThan(50);
    expect(fresh.items[0].kind).toBe('template');
    const all = (await api(gw.url, 'GET', '/new?limit=100')).body.items;
    expect(all.map((i: { kind: string; name: string }) => `${i.kind}:${i.name}`)).toEqual(expect.arrayContaining(['service:code-review', 'template:topic-digest', 'tutorial:use-the-vault']));
    expect(all.some((i: { kind: string }) => i.kind === 'tool')).toBe(true);
    expect(all[0].first_seen_at).toMatch(/^\d{4}-/);
    expect((await api(gw.url, 'GET', '/new?limit=0')).status).toBe(422);
  });
});

describe('/trending', () => {
  it('ranks by real call counts over the last 30 days, and old calls fall out as the clock moves', async () => {
    for (let i = 0; i < 4; i++) await api(gw.url, 'GET', '/wall');
    await api(gw.url, 'GET', '/topics');
    await flush();
    const now = (await api(gw.url, 'GET', '/trending')).body;
    expect(now.window_days).toBe(30);
    const wallList = now.items.find((i: { name: string }) => i.name === 'wall_list');
    expect(wallList).toMatchObject({ kind: 'tool', toolset: 'wall', calls: 4 });
    expect(wallList.rank).toBeLessThan(now.items.find((i: { name: string }) => i.name === 'wall_topics').rank);

    gw.clock.advance(20 * 24 * 3600_000);
    await api(gw.url, 'GET', '/wall');
    await flush();
    expect((await api(gw.url, 'GET', '/trending')).body.items.find((i: { name: string }) => i.name === 'wall_list').calls).toBe(5);

    gw.clock.advance(15 * 24 * 3600_000);
    await api(gw.url, 'GET', '/levels');
    await flush();
    const later = (await api(gw.url, 'GET', '/trending?limit=50')).body.items;
    expect(later.find((i: { name: string }) => i.name === 'wall_list').calls).toBe(1);
    expect(later.find((i: { name: string }) => i.name === 'wall_topics')).toBeUndefined();
    expect(later.find((i: { name: string }) => i.name === 'xp_levels').calls).toBe(1);
  });

  it('ranks by calls that worked: failed calls cannot lift a tool', async () => {
    await api(gw.url, 'GET', '/wall');
    for (let i = 0; i < 30; i++) expect((await api(gw.url, 'DELETE', '/mail/1')).status).toBe(401);
    await flush();
    const items = (await api(gw.url, 'GET', '/trending?limit=100')).body.items as { name: string; calls: number; errors: number; succeeded: number; rank: number }[];
    expect(items.find((i) => i.name === 'mail_delete')).toBeUndefined();
    const wall = items.find((i) => i.name === 'wall_list')!;
    expect(wall).toMatchObject({ errors: 0 });
    // Ranks run over what succeeded.
    expect(items.map((i) => i.succeeded)).toEqual(items.map((i) => i.succeeded).sort((a, b) => b - a));
    expect(wall.succeeded).toBe(wall.calls);
  });
});

describe('/intelligence', () => {
  it('computes ecosystem counts live', async () => {
    await api(gw.url, 'POST', '/wall', { body: { text: 'counting #metrics' }, secret: me.secret });
    await api(gw.url, 'PUT', '/memory/notes/x', { body: { value: 'hello' }, secret: me.secret });
    await flush();
    const intel = (await api(gw.url, 'GET', '/intelligence')).body;
    const agents = (await gw.gateway.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM agents'))!.n;
    expect(intel.agents.total).toBe(agents);
    expect(intel.agents.active_30d).toBeGreaterThanOrEqual(1);
    expect(intel.wall.posts).toBe((await gw.gateway.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM wall_posts'))!.n);
    expect(intel.wall.top_topics_7d.map((t: { topic: string }) => t.topic)).toContain('metrics');
    expect(intel.tools.by_category.wall).toBeGreaterThanOrEqual(8);
    expect(intel.tools.total).toBe(gw.gateway.registry.list().length);
    expect(intel.usage_30d.calls_by_family.wall).toBeGreaterThanOrEqual(1);
    expect(intel.memory.entries).toBeGreaterThanOrEqual(1);
    expect(intel.memory.bytes).toBeGreaterThan(0);
    expect(intel.templates.count).toBeGreaterThanOrEqual(5);
  });
});

describe('agent templates', () => {
  it('lists and shows templates; unknown slug → 404', async () => {
    const list = (await api(gw.url, 'GET', '/agents/templates')).body;
    expect(list.templates.map((t: { slug: string }) => t.slug)).toEqual(expect.arrayContaining(['topic-digest', 'resume-session', 'ask-the-wall', 'welcome-agent']));
    const one = (await api(gw.url, 'GET', '/agents/templates/topic-digest')).body;
    expect(one.steps.map((s: { tool: string }) => s.tool)).toEqual(['wall_digest', 'memory_put', 'artifact_create', 'wall_post']);
    expect(one.run.rest).toBe(`POST ${gw.url}/agents/templates/topic-digest/run`);
    expect((await api(gw.url, 'GET', '/agents/templates/nope')).status).toBe(404);
    expect((await api(gw.url, 'POST', '/agents/templates/nope/run', { body: {}, secret: me.secret })).status).toBe(404);
  });

  it('runs topic-digest live with the caller credentials and returns every step result', async () => {
    const other = await register(gw.url, 'digest-source');
    await api(gw.url, 'POST', '/wall', { body: { text: 'Pooling connections halves p99 #Databases' }, secret: other.secret });
    await api(gw.url, 'POST', '/wall', { body: { text: 'Indexes first, then caches #databases' }, secret: other.secret });
    const run = await api(gw.url, 'POST', '/agents/templates/topic-digest/run', { body: { params: { topic: '#Databases' } }, secret: me.secret });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ template: 'topic-digest', ok: true, params: { topic: '#Databases', window_hours: 168 } });
    expect(run.body.steps.map((s: { id: string }) => s.id)).toEqual(['digest', 'remember', 'publish', 'announce']);
    const [digest, remember, publish, announce] = run.body.steps.map((s: { result: any }) => s.result);
    expect(digest).toMatchObject({ topic: 'databases', posts: 2 });
    expect(remember).toMatchObject({ namespace: 'digests', key: 'topic-databases', owner: 'catalog-user' });
    const stored = (await api(gw.url, 'GET', '/memory/digests/topic-databases', { secret: me.secret })).body;
    expect(stored.value).toMatchObject({ topic: 'databases', posts: 2 });
    expect(stored.tags).toEqual(['digest']);
    expect((await fetch(publish.url).then((r) => r.text()))).toContain('# #databases');
    expect(announce).toMatchObject({ handle: 'catalog-user', kind: 'result', topics: ['databases'] });
    expect(announce.text).toContain(publish.url);
    // The run counts in /trending, and earns XP for a first run of the template.
    expect((await api(gw.url, 'GET', '/trending?limit=100')).body.items.find((i: { kind: string; name: string }) => i.kind === 'template' && i.name === 'topic-digest')).toMatchObject({ calls: 1 });
    expect((await api(gw.url, 'GET', `/xp/${me.handle}`, { secret: me.secret })).body.entries.map((e: { rule: string }) => e.rule)).toContain('template_run');
    expect((await api(gw.url, 'GET', `/identity/${me.handle}`)).body.built.templates_run).toEqual(['topic-digest']);
  });

  it('stops at the first failing step and names it, with the completed steps', async () => {
    const broken = await api(gw.url, 'POST', '/agents/templates/broken-recipe/run', { body: { params: { title: 'Crème Brûlée' } } });
    expect(broken.status).toBe(404);
    expect(broken.body.error.failed_step).toMatchObject({ index: 2, id: 'vanish', tool: 'no_such_tool' });
    expect(broken.body.error.message).toContain('Step 2 "vanish" (no_such_tool) failed');
    expect(broken.body.error.completed).toEqual([{ index: 1, id: 'slug', tool: 'slugify', result: expect.objectContaining({ slug: 'creme-brulee' }) }]);

    // A step needing credentials fails with its own status (401 here), named.
    const anon = await api(gw.url, 'POST', '/agents/templates/ask-the-wall/run', { body: { params: { question: 'Why?', topic: 'why' } } });
    expect(anon.status).toBe(401);
    expect(anon.body.error.failed_step).toMatchObject({ index: 1, id: 'ask', tool: 'wall_post' });
    expect(anon.body.error.completed).toEqual([]);

    const unknown = await api(gw.url, 'POST', '/agents/templates/welcome-agent/run', { body: { params: { handle: 'nobody-here' } }, secret: me.secret });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.failed_step).toMatchObject({ id: 'follow', error: { code: 'not_found' } });

    const badParams = await api(gw.url, 'POST', '/agents/templates/ask-the-wall/run', { body: { params: { question: 'Why?', extra: 1 } }, secret: me.secret });
    expect(badParams.status).toBe(422);
    expect(badParams.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual(expect.arrayContaining(['body.params.topic']));
    const runs = await gw.gateway.db.all<{ slug: string; ok: number; failed_step: string | null }>("SELECT slug, ok, failed_step FROM template_runs WHERE slug = 'broken-recipe'");
    expect(runs).toEqual([{ slug: 'broken-recipe', ok: 0, failed_step: 'vanish' }]);
  });

  it("says in the index and in each template which ones need an agent's secret, and for which steps", async () => {
    const list = (await api(gw.url, 'GET', '/agents/templates')).body.templates as { slug: string; requires_auth: any }[];
    const bySlug = Object.fromEntries(list.map((t) => [t.slug, t.requires_auth]));
    for (const slug of ['topic-digest', 'resume-session', 'ask-the-wall', 'welcome-agent', 'publish-result', 'watch-a-page']) {
      expect(bySlug[slug], slug).toMatchObject({ credential: 'agent_secret', header: 'Authorization: Bearer <AGENT_SECRET>' });
      expect((await api(gw.url, 'GET', `/agents/templates/${slug}`)).body.requires_auth).toEqual(bySlug[slug]);
    }
    // Only the steps calling owner-only tools are named: the digest (public) and the artifact (anonymous allowed) are not.
    expect(bySlug['topic-digest'].steps).toEqual([
      { index: 2, id: 'remember', tool: 'memory_put' },
      { index: 4, id: 'announce', tool: 'wall_post' },
    ]);
    expect(bySlug['publish-result'].steps.map((s: { id: string }) => s.id)).toEqual(['post', 'record']);
    expect(bySlug['broken-recipe']).toBeNull();
  });

  it('an anonymous run of a template needing a secret is a 401 that says so, before any step runs', async () => {
    const artifacts = async () => (await gw.gateway.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM artifacts'))!.n;
    const runs = async () => (await gw.gateway.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM template_runs'))!.n;
    const before = await artifacts();
    const runsBefore = await runs();
    const r = await api(gw.url, 'POST', '/agents/templates/publish-result/run', { body: { params: { title: 'T', text: 'x', topic: 'anon' } } });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(r.body.error.message).toMatch(/needs an agent's secret: send it as Authorization: Bearer <AGENT_SECRET>/);
    expect(r.body.error.failed_step).toMatchObject({ index: 2, id: 'post', tool: 'wall_post', error: { code: 'unauthorized' } });
    expect(r.body.error.completed).toEqual([]);
    expect(r.body.error.requires_auth.credential).toBe('agent_secret');
    // The anonymous-friendly first step did not run: no artifact was left behind, and no run was recorded.
    expect(await artifacts()).toBe(before);
    for (let i = 0; i < 5; i++) await api(gw.url, 'POST', '/agents/templates/publish-result/run', { body: { params: { title: 'T', text: 'x', topic: 'anon' } } });
    expect(await runs()).toBe(runsBefore);
    // A wrong secret is not told to send one: the step refuses it (403).
    const wrong = await api(gw.url, 'POST', '/agents/templates/topic-digest/run', { body: { params: { topic: 'x' } }, secret: 'ags_wrong' });
    expect(wrong.status).toBe(403);
  });

  it('runs ask-the-wall: the question becomes an open item on the context card', async () => {
    const run = await api(gw.url, 'POST', '/agents/templates/ask-the-wall/run', { body: { params: { question: 'Best SQLite page size?', topic: 'sqlite' } }, secret: me.secret });
    expect(run.status).toBe(200);
    const postId = run.body.steps[0].result.post_id;
    const card = (await api(gw.url, 'GET', `/memory/context/${me.handle}`, { secret: me.secret })).body;
    expect(JSON.stringify(card.open_items ?? card)).toContain(`q-${postId}`);
  });
});

describe('over MCP', () => {
  it('exposes wall, social and catalog toolsets and the catalogues as resources', async () => {
    const client = new Client({ name: 'social', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp?toolsets=wall,social,catalog`), { requestInit: { headers: { authorization: `Bearer ${me.secret}` } } }));
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(names).toEqual(expect.arrayContaining(['wall_post', 'wall_react', 'wall_topics', 'follow', 'mail_send', 'feed', 'catalog_trending', 'agent_template_run', 'xp_levels']));
    expect(names).not.toContain('memory_put');
    const posted = await client.callTool({ name: 'wall_post', arguments: { text: 'from MCP #mcp' } });
    expect(posted.isError).toBeFalsy();
    expect((posted.structuredContent as { topics: string[] }).topics).toEqual(['mcp']);
    const resources = (await client.listResources()).resources.map((r) => r.uri);
    expect(resources).toEqual(expect.arrayContaining(['catalog://tutorials', 'catalog://collections', 'catalog://trending', 'catalog://levels', 'catalog://badges']));
    const tut = await client.readResource({ uri: 'catalog://tutorials/use-the-vault' });
    expect(JSON.parse((tut.contents[0] as { text: string }).text).title).toBe('Use the vault');
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(templates).toContain('catalog://services/{slug}');
    await expect(client.readResource({ uri: 'catalog://services/nope' })).rejects.toThrow();
    await client.close();
  });
});
