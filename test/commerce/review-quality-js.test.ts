// A floor under the JavaScript/TypeScript review's quality (issue 43): the model-free review (engine.ts) run directly
// on a fixed half of the labelled corpora of test/fixtures/quality/ (every other file or snippet, in corpus order, so
// that every family stays represented), judged as bench/quality/javascript.ts judges the whole. A change that finds
// fewer vulnerable cases, or flags more safe ones, than measured here (beyond a margin of 2% of the cases, at least
// one case) fails.
import { describe, expect, it } from 'vitest';
import { evaluate, JS_CORPORA, loadCorpus, tally } from '../../bench/quality/javascript.js';
import type { QualityCase } from '../../scripts/quality/eslint-families.js';
import { ENGINES_ONLY_ONCE } from '../helpers/each-store.js';

/** Measured on the subset: vulnerable cases found, safe cases flagged (of how many). */
const MEASURED: Record<string, Record<string, { vulnerable: number; found: number; safe: number; flagged: number }>> = {
  njsscan: { javascript: { vulnerable: 160, found: 152, safe: 208, flagged: 10 } },
  'eslint-plugin-security': { javascript: { vulnerable: 43, found: 42, safe: 51, flagged: 0 } },
  'eslint-plugin-sdl': { javascript: { vulnerable: 45, found: 37, safe: 35, flagged: 0 }, typescript: { vulnerable: 7, found: 1, safe: 3, flagged: 0 } },
  'eslint-plugin-no-unsanitized': { javascript: { vulnerable: 32, found: 32, safe: 31, flagged: 0 }, typescript: { vulnerable: 3, found: 3, safe: 5, flagged: 0 } },
};

/** Every other file or snippet of a corpus, in its order. */
function half(cases: QualityCase[]): QualityCase[] {
  const sources = [...new Set(cases.map((c) => c.file ?? `${c.language}:${c.jsx ? 'jsx' : ''}:${c.code}`))];
  const kept = new Set(sources.filter((_, i) => i % 2 === 0));
  return cases.filter((c) => kept.has(c.file ?? `${c.language}:${c.jsx ? 'jsx' : ''}:${c.code}`));
}

const margin = (n: number) => Math.max(1, Math.floor(n * 0.02));

// The engines alone, no store: run once, on the SQLite pass (CI runs the suite again on PostgreSQL).
describe.skipIf(ENGINES_ONLY_ONCE)('JavaScript/TypeScript review quality floor', () => {
  for (const name of JS_CORPORA) {
    it(`${name}: recall and false alarms no worse than measured`, async () => {
      const outcomes = await evaluate(name, half(loadCorpus(name).cases));
      for (const [language, m] of Object.entries(MEASURED[name]!)) {
        const t = tally(outcomes.filter((o) => o.case.language === language));
        expect({ vulnerable: t.vulnerable, safe: t.safe }, `${name} ${language}: the subset changed`).toEqual({ vulnerable: m.vulnerable, safe: m.safe });
        expect(t.found, `${name} ${language}: vulnerable cases found`).toBeGreaterThanOrEqual(m.found - margin(m.vulnerable));
        expect(t.flagged, `${name} ${language}: safe cases flagged`).toBeLessThanOrEqual(m.flagged + margin(m.safe));
      }
    }, 120_000);
  }
});
