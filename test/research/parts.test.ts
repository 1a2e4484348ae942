// The parts of research without a gateway: passages (exact slices of the source, bounded), BM25 ranking with
// embeddings blended in, the citation check of a model's answer, the extractive answer, the report.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCitations, extractive, plain } from '../../tools/research/answer.js';
import { PASSAGE_MAX_CHARS, rankPassages, splitPassages, TOP_PASSAGES, TOP_PER_SOURCE } from '../../tools/research/passages.js';
import { reportMarkdown } from '../../tools/research/report.js';
import { searchWeb } from '../../tools/research/search.js';

const MD = [
  '# Title of the page',
  '[Home](https://x.test/) [About](https://x.test/about)',
  'Short intro line with five words.',
  'The lighthouse on the headland was built in 1852. '.repeat(30).trim(),
  '## Keepers',
  'The keepers lived in the cottage at the foot of the tower until 1978, when the light became automatic.',
  'ok',
].join('\n\n');

describe('passages', () => {
  it('are trimmed slices of the source, bounded, with menus and scraps left out', () => {
    const ps = splitPassages(MD, 3);
    expect(ps.length).toBeGreaterThan(2);
    for (const p of ps) {
      expect(MD).toContain(p.text);
      expect(p.text).toBe(p.text.trim());
      expect(p.text.length).toBeLessThanOrEqual(PASSAGE_MAX_CHARS);
      expect(p.source).toBe(3);
    }
    expect(ps.some((p) => p.text.includes('[Home]'))).toBe(false);
    // A heading goes with the text under it.
    expect(ps.some((p) => p.text.startsWith('## Keepers\n\nThe keepers lived'))).toBe(true);
    // The long paragraph is cut at sentence ends.
    const long = ps.filter((p) => p.text.startsWith('The lighthouse on the headland'));
    expect(long.length).toBeGreaterThan(1);
    for (const p of long) expect(p.text.endsWith('1852.')).toBe(true);
  });

  it('are ranked by BM25, at most a few per source while others have some', async () => {
    const sources = Array.from({ length: 3 }, (_, s) =>
      splitPassages(Array.from({ length: 6 }, (_, i) => `Paragraph ${i} of source ${s} says the harbour lighthouse was painted ${s === 0 ? 'red and white' : 'grey'} again in year ${1900 + i}. ${'Filler words about nothing much at all. '.repeat(7)}`).join('\n\n'), s),
    );
    const all = sources.flat();
    const r = await rankPassages(all, 'When was the red lighthouse painted?');
    expect(r.method).toBe('bm25');
    expect(r.top.length).toBe(TOP_PASSAGES);
    expect(r.top[0]!.source).toBe(0);
    expect(r.top.filter((p) => p.source === 0).length).toBe(TOP_PER_SOURCE);
    expect([...r.top].sort((a, b) => b.score - a.score)).toEqual(r.top);
  });

  it('without a shared word, each source’s first passage stands in', async () => {
    const ps = [...splitPassages('Alpha beta gamma delta epsilon.\n\nZeta eta theta iota kappa.', 0), ...splitPassages('Lorem ipsum dolor sit amet.', 1)];
    const r = await rankPassages(ps, 'quantum chromodynamics');
    expect(r.top.map((p) => [p.source, p.score])).toEqual([
      [0, 0],
      [1, 0],
    ]);
  });

  describe('with embeddings', () => {
    let server: http.Server;
    let base: string;
    let fail = false;
    const bodies: { input: string[] }[] = [];
    beforeAll(async () => {
      // Puts "semantics" in one dimension: a text mentioning a ship is close to a question about vessels.
      server = http.createServer(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const body = JSON.parse(Buffer.concat(chunks).toString());
        bodies.push(body);
        if (fail) return void res.writeHead(503).end();
        const vec = (t: string) => (/ship|vessel/i.test(t) ? [1, 0] : [0, 1]);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: body.input.map((t: string, index: number) => ({ index, embedding: vec(t) })) }));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('blends cosine similarity into the BM25 score', async () => {
      const ps = [...splitPassages('Two ships were lost on the reef in one winter night.', 0), ...splitPassages('The harbour wall was rebuilt in stone after the storm.', 1)];
      const lexical = await rankPassages(ps, 'Which vessel sank near the harbour?');
      expect(lexical.top.map((p) => p.source)).toEqual([1]); // only the harbour passage shares a word
      const blended = await rankPassages(ps, 'Which vessel sank near the harbour?', { embeddings: { baseUrl: base, model: 'm' } });
      expect(blended.method).toBe('bm25+embeddings');
      expect(blended.top.map((p) => p.source)).toEqual([0, 1]);
      expect(blended.top[0]!.score).toBeCloseTo(0.5, 5); // 0.5 · 0 (BM25) + 0.5 · cosine 1
      expect(blended.top[1]!.score).toBeCloseTo(0.5, 5); // 0.5 · 1 (best BM25) + 0.5 · cosine 0
      expect(bodies.at(-1)!.input[0]).toBe('Which vessel sank near the harbour?');
    });

    it('falls back to BM25 when the endpoint fails, and says so', async () => {
      fail = true;
      const ps = splitPassages('The harbour wall was rebuilt in stone after the storm.', 0);
      const r = await rankPassages(ps, 'harbour wall', { embeddings: { baseUrl: base, model: 'm' } });
      expect(r.method).toBe('bm25');
      expect(r.note).toMatch(/embeddings endpoint failed/);
      expect(r.top).toHaveLength(1);
      fail = false;
    });
  });
});

describe('citations of a model’s answer', () => {
  it('keeps the numbers of passages given and drops invented ones', () => {
    const r = checkCitations('Built in 1852 [2]. Gilded by a king [9]. Painted red [1, 7][3]. Nothing [0].', 3);
    expect(r.text).toBe('Built in 1852 [2]. Gilded by a king. Painted red [1][3]. Nothing.');
    expect(r.dropped).toEqual([9, 7, 0]);
    expect([...r.cited].sort()).toEqual([1, 2, 3]);
  });

  it('leaves text without citations alone', () => {
    expect(checkCitations('No passage answers this.', 4)).toMatchObject({ text: 'No passage answers this.', dropped: [] });
  });
});

describe('the extractive answer', () => {
  const passages = [
    { n: 1, url: 'u1', title: 't1', text: '## History\n\nThe lighthouse on the headland was built in 1852 by the harbour board. Its lamp burned whale oil.' },
    { n: 2, url: 'u2', title: 't2', text: 'The foghorn below the lighthouse sounds twice a minute. The **lighthouse** keepers left in 1978.' },
  ];

  it('keeps the sentences that answer, each with its number, without Markdown or headings', () => {
    expect(extractive('When was the lighthouse built?', passages)).toBe('The lighthouse on the headland was built in 1852 by the harbour board. [1]');
  });

  it('falls back to each passage’s first sentence when nothing matches', () => {
    expect(extractive('quantum chromodynamics', passages)).toBe('The lighthouse on the headland was built in 1852 by the harbour board. [1] The foghorn below the lighthouse sounds twice a minute. [2]');
  });

  it('plain() keeps a link’s text and drops images and marks', () => {
    expect(plain('## Head\n\nSee [the tides](https://x.test/t) ![img](https://x.test/i.png) and **bold** `code`.')).toBe('Head See the tides and bold code.');
  });
});

describe('the report', () => {
  it('quotes each passage under its number and lists skipped sources with their reason', () => {
    const md = reportMarkdown({
      question: 'When?\nNow',
      answer: 'In 1852 [1].',
      engine: 'extractive',
      ranking: 'bm25',
      at: '2026-01-01T00:00:00.000Z',
      citations: [{ n: 1, url: 'https://a.test/x', title: 'A [page]', passage: 'Line one.\n\nLine two.', source: 1, cited: true }],
      sources: [
        { n: 1, url: 'https://a.test/x', title: 'A [page]', status: 'read' },
        { url: 'https://b.test/', title: null, status: 'skipped', reason: 'robots_disallowed', message: 'Disallowed.' },
      ],
      dropped: [7],
      notes: [],
    });
    expect(md).toContain('# Research: When? Now\n');
    expect(md).toContain('### [1] A [page]\n\nSource 1: <https://a.test/x>\n\n> Line one.\n>\n> Line two.\n');
    expect(md).toContain('- Source 1: [A page](<https://a.test/x>)');
    expect(md).toContain('- skipped: <https://b.test/> (robots_disallowed: Disallowed.)');
    expect(md).toContain('**Dropped citations:** [7]');
  });
});

describe('search providers', () => {
  let server: http.Server;
  let base: string;
  const seen: { url: string; token?: string }[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url!, token: req.headers['x-subscription-token'] as string | undefined });
      const results = [
        { url: 'https://a.test/1#frag', title: 'One', content: 'c1', description: 'd1' },
        { url: 'https://a.test/1', title: 'One again' },
        { url: 'javascript:alert(1)', title: 'bad' },
        { url: 'not a url' },
        { url: 'http://b.test/2', title: '' },
      ];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.url!.startsWith('/web/') ? { web: { results } } : { results }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('SearXNG: /search?format=json, http(s) results once each', async () => {
    const hits = await searchWeb({ provider: 'searxng', baseUrl: base }, 'tides & moon', 10);
    expect(seen.at(-1)!.url).toBe('/search?q=tides+%26+moon&format=json');
    expect(hits).toEqual([
      { url: 'https://a.test/1', title: 'One', snippet: 'c1' },
      { url: 'http://b.test/2', title: null, snippet: null },
    ]);
  });

  it('Brave: /web/search with count and the subscription token', async () => {
    const hits = await searchWeb({ provider: 'brave', baseUrl: base, apiKey: 'tok' }, 'tides', 1);
    expect(seen.at(-1)).toEqual({ url: '/web/search?q=tides&count=1', token: 'tok' });
    expect(hits).toEqual([{ url: 'https://a.test/1', title: 'One', snippet: 'd1' }]);
  });
});
