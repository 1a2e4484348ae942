// Rebuilds test/fixtures/quality/<corpus>/ from a checkout of an ESLint security plugin: the valid and invalid
// cases of its rule tests (how the plugin measures itself) as labelled snippets in cases.json.
//   git --git-dir=<mirror> archive <commit> | tar -x -C /tmp/<corpus>
//   npx tsx scripts/quality/eslint-rule-tests.ts <corpus> /tmp/<corpus> <commit>
// with <corpus> one of eslint-plugin-security, eslint-plugin-sdl, eslint-plugin-no-unsanitized.
//
// The test files are run as they are, with `eslint`'s RuleTester replaced by one that records what it is given
// (and the parsers and the rules under test replaced by markers: neither is needed to read the cases). An invalid
// case gives one vulnerable case per line its errors name (the whole snippet when an error names no line); a valid
// case is one safe case covering the whole snippet. Cases that pass rule options or settings are left out (they
// test an option, and a review runs one configuration), and so are those written for Flow or for a test parser.
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { ROOT_DIR, writeCorpus } from './eslint-corpus-io.js';
import type { Family, QualityCase, QualityCorpus } from './eslint-families.js';

interface Layout { repo: string; tests: string; license: string; ruleId: (file: string, name: string) => string; families: Record<string, Family> }

const LAYOUTS: Record<string, Layout> = {
  'eslint-plugin-security': {
    repo: 'https://github.com/eslint-community/eslint-plugin-security',
    tests: 'test/rules',
    license: 'Apache-2.0 (LICENSE beside this file)',
    ruleId: (_f, name) => `security/${name.split(' ')[0]}`,
    families: {
      'detect-bidi-characters': 'trojan-source', 'detect-buffer-noassert': 'buffer', 'detect-child-process': 'command-injection',
      'detect-disable-mustache-escape': 'xss', 'detect-eval-with-expression': 'code-injection', 'detect-new-buffer': 'buffer',
      'detect-no-csrf-before-method-override': 'csrf', 'detect-non-literal-fs-filename': 'path-traversal', 'detect-non-literal-regexp': 'redos',
      'detect-non-literal-require': 'code-injection', 'detect-object-injection': 'prototype-pollution', 'detect-possible-timing-attacks': 'timing-attack',
      'detect-pseudoRandomBytes': 'insecure-random', 'detect-unsafe-regex': 'redos',
    },
  },
  'eslint-plugin-sdl': {
    repo: 'https://github.com/microsoft/eslint-plugin-sdl',
    tests: 'tests/lib/rules',
    license: 'MIT (LICENSE beside this file)',
    ruleId: (f) => `@microsoft/sdl/${path.basename(f, '.js')}`,
    families: {
      'no-angular-bypass-sanitizer': 'xss', 'no-angular-sanitization-trusted-urls': 'xss', 'no-angularjs-bypass-sce': 'xss', 'no-angularjs-enable-svg': 'xss',
      'no-angularjs-sanitization-whitelist': 'xss', 'no-cookies': 'cookie', 'no-document-domain': 'origin', 'no-document-write': 'xss',
      'no-electron-node-integration': 'electron', 'no-html-method': 'xss', 'no-inner-html': 'xss', 'no-insecure-random': 'insecure-random',
      'no-insecure-url': 'tls', 'no-msapp-exec-unsafe': 'xss', 'no-postmessage-star-origin': 'origin', 'no-unsafe-alloc': 'buffer', 'no-winjs-html-unsafe': 'xss',
    },
  },
  'eslint-plugin-no-unsanitized': {
    repo: 'https://github.com/mozilla/eslint-plugin-no-unsanitized',
    tests: 'tests/rules',
    license: 'MPL-2.0 (LICENSE beside this file)',
    ruleId: (f) => `no-unsanitized/${path.basename(f, '.js')}`,
    families: { method: 'xss', property: 'xss' },
  },
};

interface Recorded { name: string; tests: { valid?: unknown[]; invalid?: unknown[] }; config?: Record<string, unknown> }
interface RawCase { code: string; options?: unknown[]; settings?: unknown; filename?: string; languageOptions?: Record<string, any>; errors?: unknown }

const recorded: Recorded[] = [];
class RecordingRuleTester {
  constructor(private readonly config?: Record<string, unknown>) {}
  run(name: string, _rule: unknown, tests: Recorded['tests']): void {
    recorded.push({ name, tests, config: this.config });
  }
}

/** Runs one test file with the recording tester; returns what its RuleTester.run calls were given. */
function readTestFile(file: string): Recorded[] {
  recorded.length = 0;
  const mod = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = mod._load;
  mod._load = function (this: unknown, request: string, ...rest: unknown[]) {
    if (request === 'eslint') return { RuleTester: RecordingRuleTester };
    if (request.includes('@typescript-eslint/parser')) return { parser: 'typescript' };
    if (request.includes('@babel/eslint-parser')) return { parser: 'babel' };
    if (/parsers[\\/]/.test(request)) return { parser: 'test-parser' };
    if (/(^|[\\/])(lib[\\/]rules|rules)[\\/]/.test(request) && !/tests?[\\/]/.test(request)) {
      // The rule under test: some test files read its meta; one whose own dependencies are not installed is a marker.
      try {
        return load.call(this, request, ...rest);
      } catch {
        return { meta: {} };
      }
    }
    return load.call(this, request, ...rest);
  } as typeof load;
  try {
    Module.createRequire(file)(file);
  } finally {
    mod._load = load;
  }
  return [...recorded];
}

type Language = Pick<QualityCase, 'language' | 'jsx'> | { skip: string };

function languageOf(c: RawCase, config: Record<string, any> | undefined): Language {
  const lo = { ...(config?.languageOptions ?? {}), ...(c.languageOptions ?? {}) };
  const parser = lo.parser?.parser as string | undefined;
  const jsx = Boolean(lo.parserOptions?.ecmaFeatures?.jsx) || /\.[jt]sx$/.test(c.filename ?? '');
  if (parser === 'test-parser') return { skip: 'written for a test parser (fantasy ASTs)' };
  if (parser === 'babel' && JSON.stringify(lo.parserOptions ?? {}).includes('flow')) return { skip: 'written in Flow' };
  if (parser === 'typescript' || /\.tsx?$/.test(c.filename ?? '')) return { language: 'typescript', ...(jsx ? { jsx } : {}) };
  return { language: 'javascript', ...(jsx ? { jsx } : {}) };
}

function errorLines(errors: unknown): (number | undefined)[] {
  if (typeof errors === 'number') return Array.from({ length: errors }, () => undefined);
  if (!Array.isArray(errors)) return [undefined];
  return errors.map((e) => (typeof e === 'object' && e && typeof (e as { line?: unknown }).line === 'number' ? (e as { line: number }).line : undefined));
}

/** The whole snippet's lines, from its first to its last non-blank one. */
function snippetRange(code: string): [number, number] {
  const lines = code.split('\n');
  let a = 1;
  let b = lines.length;
  while (a < b && lines[a - 1]!.trim() === '') a++;
  while (b > a && lines[b - 1]!.trim() === '') b--;
  return [a, b];
}

function main(): void {
  const [name, checkout, commit] = process.argv.slice(2);
  const layout = name ? LAYOUTS[name] : undefined;
  if (!layout || !checkout || !commit) throw new Error(`usage: eslint-rule-tests.ts <${Object.keys(LAYOUTS).join('|')}> <checkout> <commit>`);
  const dir = path.join(path.resolve(checkout), layout.tests);
  const cases: QualityCase[] = [];
  const excluded = new Map<string, number>();
  const leaveOut = (why: string) => excluded.set(why, (excluded.get(why) ?? 0) + 1);
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.js')).sort()) {
    for (const run of readTestFile(path.join(dir, f))) {
      const rule = layout.ruleId(f, run.name);
      const short = rule.split('/').at(-1)!;
      const family = layout.families[short];
      if (!family) throw new Error(`no family for ${rule}`);
      const each = (list: unknown[] | undefined, vulnerable: boolean) =>
        (list ?? []).forEach((raw, i) => {
          const c: RawCase = typeof raw === 'string' ? { code: raw } : (raw as RawCase);
          if ((c.options && c.options.length > 0) || c.settings) return leaveOut('cases that pass rule options or settings (they test the option)');
          const lang = languageOf(c, run.config as Record<string, any> | undefined);
          if ('skip' in lang) return leaveOut(`cases ${lang.skip}`);
          const base = { code: c.code, ...lang, family, label: rule };
          const id = `${short}:${vulnerable ? 'invalid' : 'valid'}:${i}`;
          if (!vulnerable) return void cases.push({ id, ...base, line: snippetRange(c.code)[0], lines: snippetRange(c.code), vulnerable });
          const lines = new Set(errorLines(c.errors).map((l) => l ?? 0));
          for (const l of [...lines].sort((x, y) => x - y)) {
            const range: [number, number] = l === 0 ? snippetRange(c.code) : [l, l];
            cases.push({ id: `${id}:${l || 'snippet'}`, ...base, line: range[0], lines: range, vulnerable });
          }
        });
      each(run.tests.valid, false);
      each(run.tests.invalid, true);
    }
  }
  const out = path.join(ROOT_DIR, 'test', 'fixtures', 'quality', name!);
  fs.mkdirSync(out, { recursive: true });
  fs.copyFileSync(path.join(checkout, 'LICENSE'), path.join(out, 'LICENSE'));
  const corpus: QualityCorpus = {
    corpus: name!,
    repo: layout.repo,
    commit,
    license: layout.license,
    mapping: 'Each invalid case of a rule test gives one vulnerable case per line its expected errors name (the whole snippet when an error names none); found when a finding whose CWE belongs to the rule’s family starts on that line. Each valid case is one safe case; flagged when any security finding starts anywhere in the snippet.',
    excluded: [...excluded].map(([why, count]) => ({ count, why })),
    cases,
  };
  writeCorpus(out, corpus);
  process.stdout.write(`${name}: ${cases.filter((c) => c.vulnerable).length} vulnerable, ${cases.filter((c) => !c.vulnerable).length} safe; left out ${JSON.stringify(corpus.excluded)}\n`);
}

main();
