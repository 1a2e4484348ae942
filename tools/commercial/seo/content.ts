// Content analysis of the audited page (the deep audit; docs/decisions/commercial-seo.md): its words, a
// readability score (Flesch reading ease, syllables counted by the `syllable` package) and its keyword focus (the
// most frequent terms, and whether the title and the H1 carry the first). Read from the page's DOM: the text of
// the body without scripts, styles and templates, each block element (paragraph, heading, list item…) a segment
// of its own, so a heading without a full stop is a sentence and two paragraphs never run into one word.
import { parseHTML } from 'linkedom';
import { syllable } from 'syllable';
import type { CheckResult } from './checks.js';

type Doc = ReturnType<typeof parseHTML>['document'];
type N = { nodeType: number; nodeName: string; textContent: string | null; childNodes: ArrayLike<N> };

const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'CANVAS']);
const BLOCK = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'DD', 'DETAILS', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3',
  'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TD', 'TH', 'TR', 'UL', 'BUTTON', 'OPTION', 'LABEL',
]);
/** English function words left out of the keyword terms (the readability formula is English's too). */
const STOP = new Set(
  ('a about above after again against all also am an and any are as at be because been before being below between both but by can could did do does ' +
    'doing down during each even every few for from further get got had has have having he her here hers herself him himself his how i if in into is it ' +
    'its itself just like many may me might more most must my myself no nor not now of off on once one only or other our ours ourselves out over own ' +
    'same she should so some such than that the their theirs them themselves then there these they this those through to too under until up us use ' +
    'used very was we well were what when where which while who whom why will with would you your yours yourself yourselves').split(' '),
);
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** The limits the content checks hold a page to. */
export const CONTENT_LIMITS = { minWords: 300, minReadingEase: 60, topTerms: 5 } as const;

export interface ContentAnalysis {
  word_count: number;
  sentence_count: number;
  syllable_count: number;
  /** Flesch reading ease, one decimal: 206.835 − 1.015 × words/sentence − 84.6 × syllables/word (null without words). */
  flesch_reading_ease: number | null;
  /** The band of the score in Flesch's table (very easy … very difficult). */
  readability: string | null;
  /** The page's language as its <html lang> says (the formula and the stop words are English's). */
  lang: string | null;
  top_terms: { term: string; count: number; density_pct: number }[];
  keyword: string | null;
  keyword_in_title: boolean;
  keyword_in_h1: boolean;
  checks: CheckResult[];
}

/** Text segments: one per block element's own run of inline text. */
function segments(doc: Doc): string[] {
  const out: string[] = [];
  let cur = '';
  const flush = () => {
    const s = cur.replace(/\s+/g, ' ').trim();
    if (s) out.push(s);
    cur = '';
  };
  const walk = (n: N, depth: number) => {
    if (depth > 200) return;
    if (n.nodeType === 3) {
      cur += n.textContent ?? '';
      return;
    }
    if (n.nodeType !== 1) return;
    const name = n.nodeName.toUpperCase();
    if (SKIP.has(name)) return;
    const block = BLOCK.has(name);
    if (block) flush();
    for (const c of Array.from(n.childNodes)) walk(c, depth + 1);
    if (block) flush();
    else cur += ' ';
  };
  const body = (doc.body ?? doc.documentElement) as unknown as N | null;
  if (body) walk(body, 0);
  flush();
  return out;
}

const band = (s: number): string =>
  s >= 90 ? 'very easy' : s >= 80 ? 'easy' : s >= 70 ? 'fairly easy' : s >= 60 ? 'standard' : s >= 50 ? 'fairly difficult' : s >= 30 ? 'difficult' : 'very difficult';

const wordsOf = (s: string): string[] => s.match(WORD) ?? [];
const round1 = (x: number) => Math.round(x * 10) / 10;

export function analyseContent(html: string): ContentAnalysis {
  const { document: doc } = parseHTML(html);
  const segs = segments(doc);
  let words = 0;
  let sentences = 0;
  let syllables = 0;
  const counts = new Map<string, number>();
  for (const seg of segs) {
    // Sentences end at . ! ? (a run of them); a segment's last words without one are a sentence too.
    for (const sentence of seg.split(/[.!?…]+(?=\s|$)/u)) {
      const ws = wordsOf(sentence);
      if (!ws.length) continue;
      sentences++;
      words += ws.length;
      for (const w of ws) {
        syllables += /\p{L}/u.test(w) ? Math.max(1, syllable(w)) : 1;
        const t = w.toLowerCase().replace(/’/g, "'");
        if (t.length < 3 || STOP.has(t) || /^\p{N}+$/u.test(t)) continue;
        counts.set(t, (counts.get(t) ?? 0) + 1);
      }
    }
  }
  const ease = words ? round1(206.835 - 1.015 * (words / sentences) - 84.6 * (syllables / words)) : null;
  // Most frequent first; a tie keeps the order of first appearance (Map insertion order, stable sort).
  const top = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, CONTENT_LIMITS.topTerms)
    .map(([term, count]) => ({ term, count, density_pct: round1((100 * count) / words) }));
  const keyword = top[0]?.term ?? null;
  const title = (doc.querySelector('title')?.textContent ?? '').toLowerCase();
  const h1s = [...doc.querySelectorAll('h1')].map((h) => (h.textContent ?? '').toLowerCase());
  const has = (s: string) => !!keyword && wordsOf(s).some((w) => w.replace(/’/g, "'") === keyword);
  const inTitle = has(title);
  const inH1 = h1s.some(has);
  const lang = (doc.documentElement?.getAttribute('lang') ?? '').trim() || null;
  const english = !lang || /^en\b/i.test(lang);

  const checks: CheckResult[] = [
    {
      id: 'word_count',
      title: `At least ${CONTENT_LIMITS.minWords} words of text`,
      passed: words >= CONTENT_LIMITS.minWords,
      weight: 5,
      effort: 'high',
      evidence: `${words} words in ${sentences} sentences.`,
    },
    {
      id: 'readability',
      title: `Flesch reading ease of at least ${CONTENT_LIMITS.minReadingEase} (plain English)`,
      passed: ease !== null && ease >= CONTENT_LIMITS.minReadingEase,
      weight: 3,
      effort: 'medium',
      evidence:
        ease === null
          ? 'No text to score.'
          : `Flesch reading ease ${ease} (${band(ease)}): ${round1(words / sentences)} words a sentence, ${(syllables / words).toFixed(2)} syllables a word.` +
            (english ? '' : ` The page's language is ${lang}; the formula is English's, so read the score as a rough guide.`),
    },
    {
      id: 'keyword_focus',
      title: 'The most used term is in the title and the H1',
      passed: inTitle && inH1,
      weight: 5,
      effort: 'low',
      evidence: keyword
        ? `Top terms: ${top.map((t) => `${t.term} (${t.count})`).join(', ')}. "${keyword}" is ${inTitle ? '' : 'not '}in the title and ${inH1 ? '' : 'not '}in ${h1s.length ? 'the H1' : 'an H1 (none)'}.`
        : 'No terms to focus on (no text).',
    },
  ];
  return {
    word_count: words,
    sentence_count: sentences,
    syllable_count: syllables,
    flesch_reading_ease: ease,
    readability: ease === null ? null : band(ease),
    lang,
    top_terms: top,
    keyword,
    keyword_in_title: inTitle,
    keyword_in_h1: inH1,
    checks,
  };
}

/** What to do about a failed content check. */
export const CONTENT_FIXES: Record<string, string> = {
  word_count: `Write more of what the page is about: at least ${CONTENT_LIMITS.minWords} words of its own text, answering what a searcher came for.`,
  readability: 'Shorten sentences and prefer short words: aim for a Flesch reading ease of 60 or more.',
  keyword_focus: 'Decide the term the page should be found for, and put it in the title and the H1 (and the first paragraph).',
};
