// The parts of relevance search that need no database: how a query becomes terms, how an entry's words are read
// against them, and how candidates are scored (tools/memory/query-terms.ts, tools/memory/relevance.ts).
import { describe, expect, it } from 'vitest';
import { fold, queryTerms, scanWords, termIndex } from '../../tools/memory/query-terms.js';
import { countTerms, directScores, withNeighbours, type RankInput } from '../../tools/memory/relevance.js';

const words = (q: string, mode: 'any' | 'all' = 'any') => queryTerms(q, mode).map((t) => t.word);

describe('query terms', () => {
  it('leave out question and stop words when ranking, keep every word when filtering', () => {
    expect(words('When did Caroline go to the LGBTQ support group?')).toEqual(['caroline', 'lgbtq', 'support', 'group']);
    expect(words('When did Caroline go to the LGBTQ support group?', 'all')).toEqual(['when', 'did', 'caroline', 'go', 'to', 'the', 'lgbtq', 'support', 'group']);
    // A query of stop words alone keeps them rather than asking for nothing.
    expect(words('what is it?')).toEqual(['what', 'is', 'it']);
    // "May" the month is not a stop word; "like" (a preference) neither.
    expect(words('What does Melanie like in May?')).toEqual(['melanie', 'like', 'may']);
  });

  it('stem as the porter tokenizer does, fold diacritics and case, split on underscores, and keep prefixes', () => {
    const [paint] = queryTerms('paintings', 'any');
    expect(paint).toMatchObject({ word: 'paintings', stem: 'paint', prefix: false });
    expect(queryTerms('Café', 'any')[0]).toMatchObject({ word: 'cafe', written: 'café' });
    expect(words('foo_bar')).toEqual(['foo', 'bar']);
    expect(queryTerms('sol*', 'any')[0]).toMatchObject({ word: 'sol', stem: 'sol', prefix: true });
    expect(queryTerms('happy*', 'any')[0]).toMatchObject({ word: 'happy', stem: 'happi', prefix: true });
    // A star after one letter is no prefix (as the all-words search always had it).
    expect(queryTerms('s*', 'all')[0].prefix).toBe(false);
    // The same stem twice is one term; at most 16 terms.
    expect(words('paint painted painting')).toEqual(['paint']);
    expect(queryTerms(Array.from({ length: 30 }, (_, i) => `word${i}`).join(' '), 'any')).toHaveLength(16);
    expect(queryTerms('"OR NEAR(*)', 'all').map((t) => t.word)).toEqual(['or', 'near']);
  });

  it("give each term a lead that every form of the word starts with (PostgreSQL's index does not stem)", () => {
    for (const [q, forms] of [
      ['happy', ['happy', 'happiness', 'happier']],
      ['hoping', ['hope', 'hoped', 'hopes', 'hoping']],
      ['studies', ['study', 'studied', 'studying']],
      ['relational', ['relate', 'related', 'relation']],
    ] as const) {
      const [t] = queryTerms(q, 'any');
      for (const f of forms) expect(f.startsWith(t.lead), `${f} starts with ${t.lead}`).toBe(true);
    }
  });

  it('match words of an entry to terms the same way in the ASCII fast path and the Unicode one', () => {
    const terms = queryTerms('When did Caroline paint the sunrise in 2022?', 'any');
    const texts = ['Caroline: I painted that lake sunrise last year (2022)!', 'speaker Caroline text_with_underscores PAINTING x2y', 'Noch ein Café, Caroline? Sunrises… 2022'];
    for (const text of texts) {
      const fast: number[] = [];
      scanWords(text, terms, (t) => fast.push(t));
      const slow = (fold(text).match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => termIndex(terms, w));
      expect(fast).toEqual(slow);
    }
    const seen: number[] = [];
    scanWords('Caroline painted a SUNRISE', terms, (t) => seen.push(t));
    expect(seen).toEqual([0, 1, -1, 2]);
  });
});

const entry = (id: number, text: string, extra: Partial<RankInput> = {}): RankInput => ({ id, namespace: 'notes', key: `k${id}`, tags: '[]', text, ...extra });
const scores = (docs: RankInput[], q: string, mode: 'any' | 'all' = 'any') => {
  const terms = queryTerms(q, mode);
  return directScores(
    docs.map((d) => countTerms(d, terms)),
    terms,
    mode,
  );
};

describe('relevance scores', () => {
  it('rank an entry holding more of the words above one holding the rarest alone, and leave out entries with none', () => {
    const docs = [entry(1, 'the support group met on Tuesday'), entry(2, 'LGBTQ'), entry(3, 'went to an LGBTQ support group yesterday'), entry(4, 'groceries')];
    const s = scores(docs, 'When did Caroline go to the LGBTQ support group?');
    expect([...s.keys()].sort((a, b) => s.get(b)! - s.get(a)!)).toEqual([3, 1, 2]);
    expect(s.has(4)).toBe(false);
  });

  it('weigh a match in the key and the tags above one in the text', () => {
    const docs = [entry(1, 'notes about the budget'), entry(2, 'notes', { key: 'budget' }), entry(3, 'notes', { tags: '["budget"]' }), entry(4, 'unrelated')];
    const s = scores(docs, 'budget');
    expect(s.get(2)!).toBeGreaterThan(s.get(3)!);
    expect(s.get(3)!).toBeGreaterThan(s.get(1)!);
  });

  it('reward query words standing side by side', () => {
    const s = scores([entry(1, 'support for the group'), entry(2, 'support group')], 'support group');
    expect(s.get(2)!).toBeGreaterThan(s.get(1)!);
  });

  it('with match=all, keep only entries holding every word', () => {
    const s = scores([entry(1, 'support group'), entry(2, 'support'), entry(3, 'group support now')], 'support group', 'all');
    expect([...s.keys()].sort()).toEqual([1, 3]);
  });

  it('score the same candidates the same in any order', () => {
    const docs = [entry(5, 'alpha beta'), entry(2, 'beta gamma'), entry(9, 'alpha'), entry(1, 'gamma gamma beta')];
    const a = scores(docs, 'alpha beta gamma');
    const b = scores([...docs].reverse(), 'alpha beta gamma');
    expect([...a.entries()].sort()).toEqual([...b.entries()].sort());
  });

  it('add to an entry the scores of its neighbours, more from the one before it, less with distance', () => {
    const direct = new Map([
      [1, 10],
      [2, 1],
      [3, 1],
      [4, 1],
    ]);
    // In time order: 3, 1, 2, 4. Entry 2 follows 1 (a question and its answer); 4 is two after 1, three after 3.
    const adjacency = [
      { centre: 1, id: 2, offset: 1 },
      { centre: 1, id: 3, offset: -1 },
      { centre: 1, id: 4, offset: 2 },
    ];
    const s = withNeighbours(direct, adjacency);
    expect(s.get(1)).toBeCloseTo(10 + 0.5 * 1 + 0.3 * 1 + (0.3 * 1) / 2);
    expect(s.get(2)).toBeCloseTo(1 + 0.5 * 10 + (0.5 * 1) / 2 + 0.3 * 1);
    expect(s.get(3)).toBeCloseTo(1 + 0.3 * 10 + (0.3 * 1) / 2);
    expect(s.get(4)).toBeCloseTo(1 + (0.5 * 10) / 2 + 0.5 * 1);
    // An entry without a direct score gains nothing: neighbours reorder matches, they do not add entries.
    expect(withNeighbours(new Map([[1, 10]]), [{ centre: 1, id: 2, offset: 1 }]).has(2)).toBe(false);
  });
});
