// Writes a derived JavaScript/TypeScript quality corpus: cases.json (the labelled cases) and SOURCE (where they
// come from, at which commit, under which licence, and how a case maps to a finding).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { QualityCorpus } from './eslint-families.js';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function writeCorpus(dir: string, corpus: QualityCorpus): void {
  fs.mkdirSync(dir, { recursive: true });
  // One case a line: the file stays readable and a change to one case is one line of diff.
  const { cases, ...head } = corpus;
  const body = JSON.stringify(head, null, 1).replace(/\n}$/, `,\n "cases": [\n${cases.map((c) => `  ${JSON.stringify(c)}`).join(',\n')}\n ]\n}`);
  fs.writeFileSync(path.join(dir, 'cases.json'), `${body}\n`);
  const source = [
    `repo: ${corpus.repo}`,
    `commit: ${corpus.commit}`,
    `licence: ${corpus.license}`,
    `derived by: scripts/quality/${corpus.corpus === 'njsscan' ? 'njsscan-cases.ts' : 'eslint-rule-tests.ts'}`,
    `cases: ${corpus.cases.filter((c) => c.vulnerable).length} vulnerable, ${corpus.cases.filter((c) => !c.vulnerable).length} safe`,
    `mapping: ${corpus.mapping}`,
    ...corpus.excluded.map((e) => `left out: ${e.count} ${e.why}`),
  ];
  fs.writeFileSync(path.join(dir, 'SOURCE'), `${source.join('\n')}\n`);
}
