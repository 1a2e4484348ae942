// The `research` verb over MCP with the official v2 SDK client in both eras over Streamable HTTP, against real
// loopback servers (test/research/servers.ts): the URLs given, a SearXNG and a Brave provider, a language model
// whose invented citation is dropped, embeddings, robots.txt, failures that cost nothing, the key's allowance,
// progress on the request's stream, the Markdown report artifact, the save into memory, and REST's 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResearchOutput, research } from '../../tools/research/index.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { errorOf, MODES, type Mode } from '../verbs/clients.js';
import { freeKey, researchClient, researchUsed, type ResearchClient } from './clients.js';
import { BRAVE_TOKEN, startStack, type Stack } from './servers.js';

const ALLOW = { GATEWAY_EGRESS_ALLOW: '127.0.0.1/32', GATEWAY_KEYS_PER_CLIENT_PER_DAY: '1000' };
const QUESTION = 'When was the lighthouse built?';

let stack: Stack;
let gw: TestGateway;
let alice: { handle: string; secret: string };
let bob: { handle: string; secret: string };
const page = (p: string) => `${stack.url}${p}`;

beforeAll(async () => {
  stack = await startStack();
  gw = await startGateway({ env: ALLOW });
  alice = await register(gw.url, 'alice');
  bob = await register(gw.url, 'bob');
});
afterAll(async () => {
  await gw?.cleanup();
  await stack?.close();
});

/** Every [n] of an answer. */
const citesOf = (answer: string): number[] => [...answer.matchAll(/\[(\d+(?:,\s*\d+)*)\]/g)].flatMap((m) => m[1]!.split(',').map((x) => Number(x.trim())));

describe.each(Object.keys(MODES) as Mode[])('research, %s', (mode) => {
  let key: string;
  let c: ResearchClient;
  beforeAll(async () => {
    key = await freeKey(gw.url);
    c = await researchClient(gw.url, mode, { key });
  });
  afterAll(async () => c?.close());

  it('is listed among the verbs with an outputSchema', async () => {
    const tools = (await c.client.listTools()).tools;
    const tool = tools.find((t) => t.name === 'research');
    expect(tool?.outputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['job_id', 'answer', 'citations', 'sources', 'report']) });
  });

  it('answers from the urls given, extractively, each citation a passage really in its source, for one unit of the allowance', async () => {
    const before = await researchUsed(gw.url, key);
    const r = await c.call({ question: QUESTION, urls: [page('/harbour'), page('/lighthouse'), page('/tides')] });
    expect(r.isError).toBeFalsy();
    const out = ResearchOutput.parse(r.structuredContent);
    expect(research.output!.parse(r.structuredContent)).toEqual(out);
    expect(out).toMatchObject({ status: 'succeeded', question: QUESTION, engine: 'extractive', ranking: 'bm25', dropped_citations: [] });
    expect(out.job_id).toMatch(/^job_/);
    expect(out.sources.map((s) => [s.n, s.url, s.status])).toEqual([
      [1, page('/harbour'), 'read'],
      [2, page('/lighthouse'), 'read'],
      [3, page('/tides'), 'read'],
    ]);
    // The answer says when, and cites the lighthouse page for it.
    expect(out.answer).toMatch(/built in 1852[^[]*\[\d+\]/);
    const n = Number(/built in 1852[^[]*\[(\d+)\]/.exec(out.answer)![1]);
    expect(out.citations.find((x) => x.n === n)).toMatchObject({ url: page('/lighthouse'), source: 2, cited: true });
    expect(out.citations[0]!.url).toBe(page('/lighthouse')); // the best passage first
    // Every number the answer cites is a citation, and each citation's passage is the source's own text.
    for (const k of citesOf(out.answer)) expect(out.citations.some((x) => x.n === k && x.cited)).toBe(true);
    expect(out.citations.map((x) => x.n)).toEqual(out.citations.map((_, i) => i + 1));
    for (const cit of out.citations) {
      const read = (await c.client.callTool({ name: 'browse', arguments: { url: cit.url } })) as { structuredContent: { content: string } };
      expect(read.structuredContent.content).toContain(cit.passage);
      expect(out.sources[cit.source - 1]!.url).toBe(cit.url);
    }
    expect(await researchUsed(gw.url, key)).toBe(before + 1);
  });

  it('skips a robots.txt-disallowed source and a 404, each with its reason, and never requests the disallowed page', async () => {
    const r = await c.call({ question: 'What did the keeper write in the logbook?', urls: [page('/private/logbook'), page('/lighthouse'), page('/nowhere')] });
    expect(r.isError).toBeFalsy();
    const out = ResearchOutput.parse(r.structuredContent);
    expect(out.sources).toEqual([
      expect.objectContaining({ url: page('/private/logbook'), status: 'skipped', reason: 'robots_disallowed' }),
      expect.objectContaining({ n: 1, url: page('/lighthouse'), status: 'read' }),
      expect.objectContaining({ url: page('/nowhere'), status: 'skipped', reason: 'upstream_status' }),
    ]);
    expect(out.citations.every((x) => x.url === page('/lighthouse'))).toBe(true);
    expect(stack.hits).not.toContain('/private/logbook');
  });

  it('fails clearly when no source can be read, and the key is not charged', async () => {
    const before = await researchUsed(gw.url, key);
    const e = errorOf(await c.call({ question: 'What did the keeper write?', urls: [page('/private/logbook'), page('/gone')] }));
    expect(e.status).toBe(502);
    expect(e.error).toMatchObject({ code: 'upstream_error', reason: 'no_source_read' });
    expect(e.error.message).toMatch(/None of the 2 sources could be read/);
    expect((e.error as unknown as { sources: { reason: string }[] }).sources.map((s) => s.reason)).toEqual(['robots_disallowed', 'upstream_status']);
    expect(await researchUsed(gw.url, key)).toBe(before);
  });

  it('without a search provider and without urls: a 422 that says how to configure one, not charged', async () => {
    const before = await researchUsed(gw.url, key);
    const e = errorOf(await c.call({ question: QUESTION }));
    expect(e.status).toBe(422);
    expect(e.error).toMatchObject({ code: 'validation_error', reason: 'search_not_configured' });
    for (const word of ['SEARCH_PROVIDER', 'SEARCH_BASE_URL', 'SEARCH_API_KEY', 'urls']) expect(e.error.message).toContain(word);
    expect(e.detail).toEqual([expect.objectContaining({ loc: ['urls'] })]);
    expect(await researchUsed(gw.url, key)).toBe(before);
  });

  it('refuses bad input with 422s naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ question: 'x', urls: [page('/lighthouse')] }, 'question'],
      [{ question: QUESTION, urls: ['ftp://example.org/x'] }, 'urls'],
      [{ question: QUESTION, urls: [] }, 'urls'],
      [{ question: QUESTION, urls: [page('/lighthouse')], max_sources: 0 }, 'max_sources'],
      [{ question: QUESTION, urls: [page('/lighthouse')], save: { namespace: 'scratchpad', key: 'k' } }, 'save'],
      [{ question: QUESTION, urls: [page('/lighthouse')], depth: 3 }, 'depth'],
    ];
    for (const [args, field] of cases) {
      const e = errorOf(await c.call(args));
      expect(e.status, JSON.stringify(args)).toBe(422);
      expect(e.detail![0]!.loc[0]).toBe(field);
    }
    const tooMany = errorOf(await c.call({ question: QUESTION, urls: Array.from({ length: 6 }, (_, i) => page(`/p${i}`)) }));
    expect(tooMany).toMatchObject({ status: 422, detail: [expect.objectContaining({ loc: ['urls'] })] });
  });

  it('reports its progress on the request’s stream before the result', async () => {
    const heard: { progress: number; total?: number; message?: string }[] = [];
    const r = await c.call({ question: 'How often does the tide rise?', urls: [page('/tides'), page('/weather')] }, (p) => heard.push(p));
    expect(ResearchOutput.parse(r.structuredContent).answer).toMatch(/twice a day/);
    expect(heard.length).toBeGreaterThanOrEqual(4);
    expect(heard.map((h) => h.progress)).toEqual([...heard.map((h) => h.progress)].sort((a, b) => a - b));
    expect(new Set(heard.map((h) => h.progress)).size).toBe(heard.length);
    expect(heard.map((h) => h.message)).toEqual(expect.arrayContaining([`Read ${page('/tides')}`, `Read ${page('/weather')}`, 'Done']));
    expect(heard.at(-1)).toMatchObject({ message: 'Done', total: heard.at(-1)!.progress });
  });

  it('keeps the report as a Markdown artifact', async () => {
    const r = await c.call({ question: QUESTION, urls: [page('/lighthouse'), page('/harbour')] });
    const out = ResearchOutput.parse(r.structuredContent);
    expect(out.report.url).toBe(`${gw.url}/artifacts/${out.report.artifact_id}`);
    const res = await fetch(out.report.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
    const md = await res.text();
    expect(md).toContain(`# Research: ${QUESTION}`);
    expect(md).toContain(out.answer);
    for (const cit of out.citations) {
      expect(md).toContain(`### [${cit.n}] ${cit.title}`);
      expect(md).toContain(`> ${cit.passage.split('\n')[0]}`);
    }
    expect(md).toContain(`- Source 1: [The Old Lighthouse](<${page('/lighthouse')}>)`);
  });
});

describe('a research call the client cancels', () => {
  it('stops reading its sources and costs nothing', async () => {
    const key = await freeKey(gw.url);
    const c = await researchClient(gw.url, 'v2 pinned to 2026-07-28', { key });
    try {
      const abort = new AbortController();
      const call = c.client.callTool(
        { name: 'research', arguments: { question: QUESTION, urls: [page('/slow')] } },
        { signal: abort.signal, onprogress: (p) => p.message?.startsWith('Reading') && abort.abort() },
      );
      await expect(call).rejects.toThrow();
      // The slow page's connection is closed by the gateway (not after the 15 s browse timeout), and no unit is used.
      for (let i = 0; i < 100 && stack.slowDropped === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(stack.slowDropped).toBe(1);
      for (let i = 0; i < 100 && (await researchUsed(gw.url, key)) !== 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await researchUsed(gw.url, key)).toBe(0);
    } finally {
      await c.close();
    }
  });
});

describe('research into memory', () => {
  it('saves the report into the caller’s memory, readable by its owner only', async () => {
    const key = await freeKey(gw.url);
    const a = await researchClient(gw.url, 'v2 pinned to 2026-07-28', { key, secret: alice.secret });
    try {
      const r = await a.call({ question: QUESTION, urls: [page('/lighthouse')], save: { namespace: 'research', key: 'lighthouse' } });
      const out = ResearchOutput.parse(r.structuredContent);
      expect(out.saved).toEqual({ namespace: 'research', key: 'lighthouse', version: 1 });
      const mine = await api(gw.url, 'GET', '/memory/research/lighthouse', { secret: alice.secret });
      expect(mine.status).toBe(200);
      expect(mine.body.value).toMatchObject({ question: QUESTION, answer: out.answer, report_url: out.report.url, job_id: out.job_id });
      expect(mine.body.value.report).toContain(`# Research: ${QUESTION}`);
      expect(mine.body.visibility).toBe('private');
      const theirs = await api(gw.url, 'GET', `/memory/research/lighthouse?handle=${alice.handle}`, { secret: bob.secret });
      expect([403, 404]).toContain(theirs.status);
      expect(JSON.stringify(theirs.body)).not.toContain('1852');
    } finally {
      await a.close();
    }
  });

  it('refuses `save` from an anonymous caller (401), before any work or charge', async () => {
    const key = await freeKey(gw.url);
    const anon = await researchClient(gw.url, 'v2 legacy', { key });
    try {
      const e = errorOf(await anon.call({ question: QUESTION, urls: [page('/lighthouse')], save: { namespace: 'research', key: 'x' } }));
      expect(e).toMatchObject({ status: 401, error: { code: 'unauthorized' } });
      expect(await researchUsed(gw.url, key)).toBe(0);
    } finally {
      await anon.close();
    }
  });

  it('without a key or payment the call is a payment request', async () => {
    const anon = await researchClient(gw.url, 'v2 pinned to 2026-07-28');
    try {
      const r = await anon.call({ question: QUESTION, urls: [page('/lighthouse')] });
      expect(r.isError).toBe(true);
      expect(r.content[0]!.text).toContain('402');
    } finally {
      await anon.close();
    }
  });
});

describe('research is MCP only', () => {
  it('is not at POST /tools/research', async () => {
    const key = await freeKey(gw.url);
    const r = await api(gw.url, 'POST', '/tools/research', { headers: { 'x-api-key': key }, body: { question: QUESTION, urls: [page('/lighthouse')] } });
    expect(r.status).toBe(404);
    expect(await researchUsed(gw.url, key)).toBe(0);
  });
});

describe('research with a search provider', () => {
  let searx: TestGateway;
  let brave: TestGateway;
  let badBrave: TestGateway;
  beforeAll(async () => {
    [searx, brave, badBrave] = await Promise.all([
      startGateway({ env: { ...ALLOW, SEARCH_PROVIDER: 'searxng', SEARCH_BASE_URL: stack.url } }),
      startGateway({ env: { ...ALLOW, SEARCH_PROVIDER: 'brave', SEARCH_BASE_URL: `${stack.url}/brave`, SEARCH_API_KEY: BRAVE_TOKEN } }),
      startGateway({ env: { ...ALLOW, SEARCH_PROVIDER: 'brave', SEARCH_BASE_URL: `${stack.url}/brave`, SEARCH_API_KEY: 'not-the-token-7f1e' } }),
    ]);
  });
  afterAll(async () => Promise.all([searx, brave, badBrave].map((g) => g?.cleanup())));

  it('SearXNG: finds the sources (JSON API), reads at most max_sources of them', async () => {
    const key = await freeKey(searx.url);
    const c = await researchClient(searx.url, 'v2 pinned to 2026-07-28', { key });
    try {
      const r = await c.call({ question: QUESTION, max_sources: 3 });
      const out = ResearchOutput.parse(r.structuredContent);
      expect(stack.searches).toContain(`searxng:${QUESTION}`);
      expect(out.sources.map((s) => [s.url, s.status])).toEqual([
        [page('/lighthouse'), 'read'],
        [page('/harbour'), 'read'],
        [page('/tides'), 'read'],
      ]);
      expect(out.answer).toMatch(/1852/);
      expect(out.citations[0]).toMatchObject({ url: page('/lighthouse'), title: 'The Old Lighthouse' });
      // Without max_sources: the gateway's default of 5 (the sixth result is never read).
      const all = ResearchOutput.parse((await c.call({ question: 'What opens at five in the morning?' })).structuredContent);
      expect(all.sources.filter((s) => s.status === 'read')).toHaveLength(5);
      expect(all.sources.map((s) => s.url)).not.toContain(page('/private/logbook'));
      expect(all.answer).toMatch(/fish market opens at five/i);
      expect(await researchUsed(searx.url, key)).toBe(2);
    } finally {
      await c.close();
    }
  });

  it('Brave: sends the subscription token, replaces a result robots.txt refuses with the next one', async () => {
    const key = await freeKey(brave.url);
    const c = await researchClient(brave.url, 'v2 legacy', { key });
    try {
      const refusedBefore = stack.braveRefused;
      const r = await c.call({ question: QUESTION, max_sources: 3 });
      const out = ResearchOutput.parse(r.structuredContent);
      expect(stack.searches).toContain(`brave:${QUESTION}`);
      expect(stack.braveRefused).toBe(refusedBefore);
      expect(out.sources.map((s) => [s.url, s.status, s.reason])).toEqual([
        [page('/tides'), 'read', undefined],
        [page('/private/logbook'), 'skipped', 'robots_disallowed'],
        [page('/lighthouse'), 'read', undefined],
        [page('/weather'), 'read', undefined],
      ]);
      expect(out.citations[0]).toMatchObject({ url: page('/lighthouse'), source: 2 });
    } finally {
      await c.close();
    }
  });

  it('a provider that refuses the key fails the research without charging, and the key stays secret', async () => {
    const key = await freeKey(badBrave.url);
    const c = await researchClient(badBrave.url, 'v2 pinned to 2026-07-28', { key });
    try {
      const r = await c.call({ question: QUESTION });
      const e = errorOf(r);
      expect(e).toMatchObject({ status: 502, error: { code: 'upstream_error', reason: 'search_failed' } });
      expect(e.error.message).toContain('SEARCH_API_KEY');
      expect(JSON.stringify(r)).not.toContain('not-the-token-7f1e');
      expect(await researchUsed(badBrave.url, key)).toBe(0);
    } finally {
      await c.close();
    }
  });
});

describe('research with a language model and embeddings', () => {
  let model: TestGateway;
  beforeAll(async () => {
    model = await startGateway({ env: { ...ALLOW, LLM_BASE_URL: `${stack.url}/v1`, LLM_MODEL: 'test-model', EMBEDDINGS_BASE_URL: `${stack.url}/v1`, EMBEDDINGS_MODEL: 'test-embed' } });
  });
  afterAll(async () => model?.cleanup());

  it('the model answers from the passages only; its invented citation is dropped and reported; embeddings blend in', async () => {
    const key = await freeKey(model.url);
    const c = await researchClient(model.url, 'v2 pinned to 2026-07-28', { key });
    try {
      const chatsBefore = stack.chats.length;
      const embedsBefore = stack.embedded.length;
      const r = await c.call({ question: QUESTION, urls: [page('/harbour'), page('/lighthouse'), page('/weather')] });
      const out = ResearchOutput.parse(r.structuredContent);
      expect(out.engine).toBe('llm:test-model');
      expect(out.ranking).toBe('bm25+embeddings');
      expect(out.dropped_citations).toEqual([99]);
      expect(out.answer).not.toContain('[99]');
      expect(out.answer).toMatch(/^The lighthouse was built in 1852 by the harbour board \[\d+\]\. Its lamp was gilded by the king himself\.$/);
      const n = Number(/\[(\d+)\]/.exec(out.answer)![1]);
      expect(out.citations.find((x) => x.n === n)).toMatchObject({ url: page('/lighthouse'), cited: true });
      expect(out.citations.filter((x) => x.cited)).toHaveLength(1);
      // The model saw the question and the numbered passages, nothing else of the pages.
      expect(stack.chats.length).toBe(chatsBefore + 1);
      const prompt = stack.chats.at(-1)!.messages.find((m) => m.role === 'user')!.content;
      expect(prompt.startsWith(`Question: ${QUESTION}\n\nPassages:\n\n[1] `)).toBe(true);
      for (const cit of out.citations) expect(prompt).toContain(`[${cit.n}] ${cit.title} — ${cit.url}\n${cit.passage}`);
      expect(prompt).not.toContain('Copyright');
      expect(stack.embedded.length).toBe(embedsBefore + 1);
      expect(stack.embedded.at(-1)).toBeGreaterThan(1);
      // The report says what was dropped.
      const md = await (await fetch(out.report.url)).text();
      expect(md).toContain('**Dropped citations:** [99]');
    } finally {
      await c.close();
    }
  });

  it('when the model fails, the answer is extractive and says so', async () => {
    const key = await freeKey(model.url);
    const c = await researchClient(model.url, 'v2 legacy', { key });
    stack.llmFails = true;
    try {
      const out = ResearchOutput.parse((await c.call({ question: QUESTION, urls: [page('/lighthouse')] })).structuredContent);
      expect(out.engine).toBe('extractive');
      expect(out.answer).toMatch(/1852/);
      expect(out.notes.join(' ')).toMatch(/language model failed \(The upstream model server answered 500\.\)/);
      expect(await researchUsed(model.url, key)).toBe(1);
    } finally {
      stack.llmFails = false;
      await c.close();
    }
  });
});
