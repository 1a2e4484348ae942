// bandit's labelled examples (test/fixtures/quality/bandit/, from PyCQA/bandit; scripts/quality/bandit-fixtures.sh
// rebuilds them): each example file with the issues bandit's functional test for it expects, per line.
import fs from 'node:fs';
import path from 'node:path';

export interface BanditIssue {
  test_id: string;
  line: number;
  line_range: number[];
  severity: 'LOW' | 'MEDIUM' | 'HIGH' | 'UNDEFINED';
  confidence: string;
  cwe: string | null;
}

export interface BanditFile {
  /** The example's path under examples/. */
  file: string;
  code: string;
  /** The functional test that checks it (its settings are those the labels were made with). */
  test: string;
  issues: BanditIssue[];
}

export const BANDIT_DIR = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'test', 'fixtures', 'quality', 'bandit');

export function banditFiles(dir = BANDIT_DIR): BanditFile[] {
  const labels = JSON.parse(fs.readFileSync(path.join(dir, 'labels.json'), 'utf8')) as { files: { file: string; test: string; issues: BanditIssue[] }[] };
  return labels.files.map((f) => ({ file: f.file, test: f.test, issues: f.issues, code: fs.readFileSync(path.join(dir, 'examples', f.file), 'utf8') }));
}

export const banditCommit = (dir = BANDIT_DIR): string => fs.readFileSync(path.join(dir, 'SOURCE'), 'utf8').match(/commit: (\w+)/)?.[1] ?? 'unknown';
