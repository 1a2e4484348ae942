// A floor on the secret scan's quality, on gitleaks' labelled samples (test/fixtures/quality/gitleaks), measured as
// bench/quality/secrets.ts measures them. When this was written: 6,770 samples from 222 rule generators, none
// skipped by the rebuilder, 5 of a path-only rule not run; the whole scan found 6,393/6,393 true positives (100%) and
// flagged 13/372 false positives (3.5%; 30 counting findings of rules that list the same text as their own true
// positive); each sample against its own rule alone, as gitleaks validates it, 6,393/6,393 and 0/372.
import { describe, expect, it } from 'vitest';
import { adversarialTimes, evaluate, evaluateOwnRule, loadSamples, PATH_ONLY_RULES, tally } from '../../bench/quality/secrets.js';
import { ENGINES_ONLY_ONCE } from '../helpers/each-store.js';

const file = loadSamples();

// The engines alone, no store: run once, on the SQLite pass (CI runs the suite again on PostgreSQL).
describe.skipIf(ENGINES_ONLY_ONCE)('secret scan quality floor (gitleaks samples)', () => {
  it('has the rebuilt corpus: every default rule, nothing skipped', () => {
    expect(file.functions).toBe(222);
    expect(file.skipped).toEqual([]);
    expect(file.samples.length).toBe(6770);
    expect([...PATH_ONLY_RULES]).toEqual(['pkcs12-file']);
  });

  it('the whole scan: recall ≥ 90% and false alarms ≤ 5% (the targets), no worse than measured', async () => {
    const t = tally(await evaluate(file.samples));
    expect(t.tp).toBe(6393);
    expect(t.fp).toBe(372);
    expect(t.found / t.tp).toBeGreaterThanOrEqual(0.9);
    expect(t.flagged / t.fp).toBeLessThanOrEqual(0.05);
    expect(t.found).toBeGreaterThanOrEqual(6380);
    expect(t.flagged).toBeLessThanOrEqual(15);
    expect(t.strict).toBeLessThanOrEqual(32);
  });

  it("each sample against its own rule alone gives gitleaks' own verdict (the translation is faithful)", () => {
    const t = tally(evaluateOwnRule(file.samples));
    expect(t).toEqual({ tp: 6393, found: 6393, fp: 372, flagged: 0, strict: 0 });
  });

  it('scans adversarial 100 KB texts to the end (a catastrophic backtrack would time this test out)', () => {
    const runs = adversarialTimes();
    expect(runs.length).toBe(9);
  });
});
