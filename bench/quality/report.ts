// What each quality corpus reports to `npm run bench -- quality` (bench/scenarios/quality.ts): a titled table,
// one row per language or rule family, and the figures the issue sets targets for.
export interface QualityReport {
  /** "Code review: bandit examples (Python)". */
  title: string;
  /** One row per language, family or page: column name → value (a percentage already formatted, a count…). */
  rows: Record<string, string | number>[];
  /** What a reader needs beside the table: the corpus's commit, how a case maps to a finding, the misses. */
  notes?: string[];
}

export const percent = (part: number, whole: number): string => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`);
