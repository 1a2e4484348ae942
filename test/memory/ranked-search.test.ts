// Memory search in an agent's own words, everywhere memory is searched (issue 40): /memory/search (relevance by
// default, every word with match=all), neighbours and times, what another agent may see of them, forget keeping
// its every-word rule, the context card, /search with the wall, /ask and A2A answering from memory.
import { randomUUID } from 'node:crypto';
import { ClientFactory } from '@a2a-js/sdk/client';
import type { Message, Task } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let a: { handle: string; secret: string };
let b: { handle: string; secret: string };
beforeAll(async () => {
  gw = await startGateway();
  a = await register(gw.url, 'ranked-owner');
  b = await register(gw.url, 'ranked-other');
  const turns = [
    ['t1', 'Melanie: Hey Caroline! How have you been?'],
    ['t2', 'Caroline: I went to a LGBTQ support group yesterday and it was so powerful.'],
    ['t3', 'Melanie: That is great to hear. What happened there?'],
    ['t4', 'Caroline: The transgender stories were so inspiring.'],
    ['t5', 'Melanie: I painted a lake sunrise last year.'],
  ];
  // Written in this order (one millisecond apart at most: the test clock stands still), so time order is key order.
  for (const [key, text] of turns) await put(a, `chat/${key}`, { value: { text } });
  await put(a, 'notes/groceries', { value: 'milk, eggs and bread for the weekend' });
});
afterAll(async () => gw.cleanup());

const put = (who: { secret: string }, path: string, body: Record<string, unknown>) => api(gw.url, 'PUT', `/memory/${path}`, { body, secret: who.secret });
const search = (who: { secret: string } | null, params: Record<string, string>) =>
  api(gw.url, 'GET', `/memory/search?${new URLSearchParams(params)}`, { secret: who?.secret });
const keys = (r: { body: { results: { namespace: string; key: string }[] } }) => r.body.results.map((x) => `${x.namespace}/${x.key}`);

describe('relevance search', () => {
  it('finds the entry a question asks about, though most of its words are not in it', async () => {
    const q = 'When did Caroline go to the LGBTQ support group?';
    const r = await search(a, { q });
    expect(r.status).toBe(200);
    expect(r.body.match).toBe('any');
    expect(keys(r)[0]).toBe('chat/t2');
    expect(keys(r)).not.toContain('notes/groceries');
    expect(r.body.results[0]).toMatchObject({ acl_status: 'own', owner: a.handle });
    expect(r.body.results[0].created_at).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
    expect(r.body.results[0].snippet).toContain('«LGBTQ»');
    // Scores fall with rank.
    const scores = r.body.results.map((x: { score: number }) => x.score);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    // The every-word filter, asked explicitly, holds the question to every word and finds nothing; keywords it finds.
    expect(keys(await search(a, { q, match: 'all' }))).toEqual([]);
    expect(keys(await search(a, { q: 'support group', match: 'all' }))).toEqual(['chat/t2']);
  });

  it('returns each hit with the entries around it, by time or by key, and checks its parameters', async () => {
    const r = await search(a, { q: 'transgender stories', ns: 'chat', neighbors: '2' });
    const hit = r.body.results[0];
    expect(hit.key).toBe('t4');
    expect(hit.neighbors.map((n: { offset: number; key: string }) => `${n.offset}:${n.key}`)).toEqual(['-2:t2', '-1:t3', '1:t5']);
    expect(hit.neighbors[0]).toMatchObject({ snippet: expect.stringContaining('support group'), created_at: expect.any(String) });
    const byKey = await search(a, { q: 'groceries', neighbors: '1', order: 'key' });
    expect(byKey.body.results[0].neighbors).toEqual([]); // alone in its namespace
    expect(keys(await search(a, { q: 'transgender', ns: 'chat' }))).toEqual(['chat/t4']);
    expect((await search(a, { q: 'x', neighbors: '6' })).status).toBe(422);
    expect((await search(a, { q: 'x', neighbors: '-1' })).status).toBe(422);
    expect((await search(a, { q: 'x', match: 'some' })).status).toBe(422);
    expect((await search(a, { q: 'x', order: 'size' })).status).toBe(422);
    expect((await search(a, { q: '' })).body.results).toEqual([]);
    expect((await search(a, { q: '?!' })).body.results).toEqual([]);
  });

  it("never shows another agent's private neighbours of a public hit, and shows a shared namespace's", async () => {
    await put(a, 'diary/d1', { value: 'private thoughts about the harbour' });
    await put(a, 'diary/d2', { value: 'public note: the harbour festival is on Sunday', visibility: 'public' });
    await put(a, 'diary/d3', { value: 'more private harbour plans' });
    const seen = await search(b, { q: 'harbour festival', neighbors: '2' });
    expect(keys(seen)).toEqual(['diary/d2']);
    expect(seen.body.results[0]).toMatchObject({ acl_status: 'public', neighbors: [] });
    expect(JSON.stringify(seen.body)).not.toMatch(/private/);
    // The owner sees all three, and its hit's neighbours.
    const own = await search(a, { q: 'harbour festival', neighbors: '1' });
    expect(keys(own)[0]).toBe('diary/d2');
    expect(own.body.results[0].neighbors.map((n: { key: string }) => n.key)).toEqual(['d1', 'd3']);
    // Shared for reading: the namespace is the other agent's to read, neighbours included.
    expect((await api(gw.url, 'POST', '/memory/diary/share', { body: { grantee: b.handle, permission: 'read' }, secret: a.secret })).status).toBe(200);
    const shared = await search(b, { q: 'harbour festival', neighbors: '1' });
    expect(shared.body.results.find((x: { key: string }) => x.key === 'd2').neighbors.map((n: { key: string }) => n.key)).toEqual(['d1', 'd3']);
    expect(keys(shared)).toEqual(expect.arrayContaining(['diary/d1', 'diary/d3']));
    await api(gw.url, 'POST', '/memory/diary/unshare', { body: { grantee: b.handle }, secret: a.secret });
    expect(JSON.stringify((await search(b, { q: 'harbour', neighbors: '2' })).body)).not.toMatch(/private/);
  });

  it('forget by query keeps the every-word rule: a question that ranks an entry first does not forget it', async () => {
    const q = 'When did Caroline go to the LGBTQ support group?';
    expect(keys(await search(a, { q }))[0]).toBe('chat/t2');
    const dry = await api(gw.url, 'POST', '/memory/forget', { body: { query: q }, secret: a.secret });
    expect(dry.body).toMatchObject({ dry_run: true, count: 0 });
    const exact = await api(gw.url, 'POST', '/memory/forget', { body: { query: 'LGBTQ support group' }, secret: a.secret });
    expect(exact.body.entries.map((e: { key: string }) => e.key)).toEqual(['t2']);
    // Nothing was removed by either dry run.
    expect((await api(gw.url, 'GET', '/memory/chat/t2', { secret: a.secret })).status).toBe(200);
  });
});

describe('everywhere memory is searched', () => {
  it('the context card lists the entries relevant to a question or task, for its owner only', async () => {
    const r = await api(gw.url, 'GET', `/memory/context/${a.handle}?${new URLSearchParams({ q: 'What did Melanie paint?', limit: '2' })}`, { secret: a.secret });
    expect(r.status).toBe(200);
    expect(r.body.recent.length).toBeGreaterThan(0);
    expect(r.body.relevant[0]).toMatchObject({ namespace: 'chat', key: 't5' });
    expect(r.body.relevant[0].neighbors.map((n: { key: string }) => n.key)).toEqual(['t4']);
    expect(r.body.relevant.length).toBeLessThanOrEqual(2);
    const plain = await api(gw.url, 'GET', `/memory/context/${a.handle}`, { secret: a.secret });
    expect(plain.body.relevant).toBeUndefined();
    expect((await api(gw.url, 'GET', `/memory/context/${a.handle}?q=paint`, { secret: b.secret })).status).toBe(403);
  });

  it('/search fuses memory and wall results found by a question', async () => {
    expect((await api(gw.url, 'POST', '/wall', { body: { text: 'The lake sunrise photo walk starts at dawn #photography' }, secret: b.secret })).status).toBe(201);
    const r = await api(gw.url, 'GET', `/search?${new URLSearchParams({ q: 'Where can I see a lake sunrise?' })}`, { secret: a.secret });
    expect(r.body.memory.map((m: { key: string }) => m.key)).toContain('t5');
    expect(r.body.wall.length).toBe(1);
    const sources = r.body.merged.map((m: { source: string }) => m.source);
    expect(sources).toContain('memory');
    expect(sources).toContain('wall');
    // Every word: neither source holds all of them.
    const strict = await api(gw.url, 'GET', `/search?${new URLSearchParams({ q: 'Where can I see a lake sunrise?', match: 'all' })}`, { secret: a.secret });
    expect(strict.body.merged).toEqual([]);
  });

  it('/ask answers a registered agent from its memory, and no one else', async () => {
    const q = 'What did I note about the groceries for the weekend?';
    const mine = await api(gw.url, 'POST', '/ask', { body: { query: q }, secret: a.secret });
    expect(mine.body.answer.kind).toBe('memory');
    expect(mine.body.answer.text).toContain('notes/groceries');
    expect(mine.body.answer.text).toContain('milk');
    expect(mine.body.results[0]).toMatchObject({ kind: 'memory', name: 'notes/groceries', url: `${gw.url}/memory/notes/groceries` });
    // The other agent has no such entry of its own and a's is private; an anonymous caller has no memory at all.
    const theirs = await api(gw.url, 'POST', '/ask', { body: { query: q }, secret: b.secret });
    expect(JSON.stringify(theirs.body)).not.toContain('milk');
    const anonymous = await api(gw.url, 'POST', '/ask', { body: { query: q } });
    expect(anonymous.body.answer.kind).not.toBe('memory');
    // A question about the gateway is still answered by its capabilities.
    expect((await api(gw.url, 'POST', '/ask', { body: { query: 'how do I store a secret?' }, secret: a.secret })).body.answer.kind).toBe('capabilities');
  });

  it('an A2A peer signed in as the agent gets the answer from its memory (@a2a-js/sdk)', async () => {
    const client = await new ClientFactory().createFromUrl(gw.url);
    const message: Message = { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'Do I remember what to buy for the weekend?' }] };
    const t = (await client.sendMessage({ message }, { serviceParameters: { authorization: `Bearer ${a.secret}` } })) as Task;
    expect(t.status.state).toBe('completed');
    const reply = (t.status.message?.parts.find((p) => p.kind === 'text') as { text: string }).text;
    expect(reply).toContain('From your memory');
    expect(reply).toContain('milk');
  });

  it('the OpenAPI document and the tool description tell a caller it may ask in plain language', async () => {
    const spec = (await api(gw.url, 'GET', '/openapi.json')).body;
    const params = spec.paths['/memory/search'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(['q', 'match', 'neighbors', 'order']));
    const q = spec.paths['/memory/search'].get.parameters.find((p: { name: string }) => p.name === 'q');
    expect(JSON.stringify(q)).toMatch(/plain language/);
  });
});
