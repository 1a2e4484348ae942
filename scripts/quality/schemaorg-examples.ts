// Rebuilds the extraction corpus from schema.org's own examples (github.com/schemaorg/schemaorg): each example of
// `data/examples.txt` (and, kept apart to check that the extraction generalises, of every other
// `data/**/*examples.txt` but the frozen copies under `data/releases/`) that has a JSON-LD version and a microdata
// or RDFa version. Kept per example: its id, file, TYPES line, the microdata and RDFa markup ("" when the example
// is JSON-only) and the JSON-LD parsed. The pre-markup is left out: nothing reads it.
//
//   npx tsx scripts/quality/schemaorg-examples.ts <git dir of schemaorg/schemaorg>   (the fetch tool's mirror)
// writes test/fixtures/quality/schemaorg/{examples,others}.json and SOURCE (repository and commit); LICENSE is
// the repository's Apache-2.0 text with the CC BY-SA 3.0 notice for schema.org's content.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SchemaOrgExample {
  id: string;
  file: string;
  types: string;
  microdata: string;
  rdfa: string;
  jsonld: unknown;
}

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = path.join(root, 'test/fixtures/quality/schemaorg');
const gitDir = process.argv[2];
if (!gitDir) throw new Error('usage: npx tsx scripts/quality/schemaorg-examples.ts <git dir of schemaorg/schemaorg>');

const git = (...args: string[]): string => execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 256 << 20 }).toString('utf8');
const commit = git('rev-parse', 'HEAD').trim();
const files = git('ls-tree', '-r', '--name-only', 'HEAD', 'data')
  .split('\n')
  .filter((f) => /examples\.txt$/.test(f) && !f.startsWith('data/releases/'))
  .sort();

const SECTION = /^(PRE-MARKUP|MICRODATA|RDFA|JSON|URL):/m;
/** Markup that says something: the examples write "This example is JSON only.", "n/a" or "todo" instead. */
const hasMarkup = (s: string, attr: RegExp): boolean => attr.test(s);

function parseFile(file: string): { examples: SchemaOrgExample[]; skipped: string[] } {
  const examples: SchemaOrgExample[] = [];
  const skipped: string[] = [];
  for (const chunk of git('show', `HEAD:${file}`).split(/^TYPES:/m).slice(1)) {
    const parts = chunk.split(new RegExp(SECTION.source, 'gm'));
    const head = parts[0]!.trim();
    const sections: Record<string, string> = {};
    for (let i = 1; i < parts.length; i += 2) sections[parts[i]!] = parts[i + 1] ?? '';
    const id = /^#(\S+)/.exec(head)?.[1] ?? `${file}#${examples.length + skipped.length}`;
    const types = head.replace(/^#\S+\s*/, '');
    const script = /<script[^>]*>([\s\S]*?)<\/script>/.exec(sections.JSON ?? '')?.[1];
    let jsonld: unknown;
    try {
      jsonld = script === undefined ? undefined : JSON.parse(script);
    } catch {
      jsonld = undefined;
    }
    const microdata = hasMarkup(sections.MICRODATA ?? '', /\bitemscope\b/) ? sections.MICRODATA!.trim() : '';
    const rdfa = hasMarkup(sections.RDFA ?? '', /\b(typeof|property)=/i) ? sections.RDFA!.trim() : '';
    if (jsonld === undefined || (!microdata && !rdfa)) {
      skipped.push(id);
      continue;
    }
    examples.push({ id, file, types, microdata, rdfa, jsonld });
  }
  return { examples, skipped };
}

const main: SchemaOrgExample[] = [];
const others: SchemaOrgExample[] = [];
let skipped = 0;
for (const file of files) {
  const r = parseFile(file);
  (file === 'data/examples.txt' ? main : others).push(...r.examples);
  skipped += r.skipped.length;
}
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'examples.json'), `${JSON.stringify(main, null, 1)}\n`);
fs.writeFileSync(path.join(out, 'others.json'), `${JSON.stringify(others, null, 1)}\n`);
fs.writeFileSync(
  path.join(out, 'SOURCE'),
  [
    'Repository: https://github.com/schemaorg/schemaorg',
    `Commit: ${commit}`,
    'examples.json: the examples of data/examples.txt with a JSON-LD version and a microdata or RDFa version.',
    `others.json: the same from the other data/**/*examples.txt files (${files.length - 1} files; data/releases/ left out).`,
    'Built by scripts/quality/schemaorg-examples.ts; the pre-markup is left out.',
    '',
  ].join('\n'),
);
const apache = git('show', 'HEAD:LICENSE');
fs.writeFileSync(
  path.join(out, 'LICENSE'),
  'The examples are schema.org content, licensed under the Creative Commons Attribution-ShareAlike License 3.0\n' +
    '(https://creativecommons.org/licenses/by-sa/3.0/), as https://schema.org/docs/terms.html and the schema.org FAQ\n' +
    'state; the schemaorg repository\'s software is under the Apache License 2.0, whose text follows as the\n' +
    'repository gives it.\n\n' +
    apache,
);
process.stdout.write(`${main.length} examples from data/examples.txt, ${others.length} from ${files.length - 1} other files, ${skipped} without JSON-LD or markup left out (commit ${commit})\n`);
