// A floor on the ast-grep engine's quality, on fixed corpora: bandit's examples (Python, per line) and gosec's
// samples (Go, per sample), as bench/quality/python-go.ts measures them. Measured when this was written: bandit
// in scope 410/429 found (95.6%), 7/221 safe lines flagged (3.2%); gosec in scope 214/333 (64.3%), 60/425 (14.1%).
// A change that loses recall or raises false alarms beyond a small margin fails here.
import { describe, expect, it } from 'vitest';
import { banditTally, gosecTally } from '../../bench/quality/python-go.js';
import { ENGINES_ONLY_ONCE } from '../helpers/each-store.js';

// The engines alone, no store: run once, on the SQLite pass (CI runs the suite again on PostgreSQL).
describe.skipIf(ENGINES_ONLY_ONCE)('ast-grep review quality floor', () => {
  it('bandit examples (Python): recall and false alarms no worse than measured', () => {
    const { inScope } = banditTally();
    expect(inScope.vulnerable).toBe(429);
    expect(inScope.safe).toBe(221);
    expect(inScope.found).toBeGreaterThanOrEqual(405);
    expect(inScope.flagged).toBeLessThanOrEqual(10);
  });

  it('gosec samples (Go): recall and false alarms no worse than measured', () => {
    const { inScope } = gosecTally();
    expect(inScope.vulnerable).toBe(333);
    expect(inScope.safe).toBe(425);
    expect(inScope.found).toBeGreaterThanOrEqual(208);
    expect(inScope.flagged).toBeLessThanOrEqual(64);
  });
});
