// Rebuilds gitleaks' labelled samples (test/fixtures/quality/gitleaks/samples.json) from a gitleaks checkout: every
// rule of the default config is built by its generator in cmd/generate/config/rules/*.go, and the `tps` (true
// positives) and `fps` (false positives) it hands to utils.Validate are the samples. The Go is interpreted
// (scripts/quality/gitleaks/go-*.ts); secrets.NewSecret(regex) is reimplemented after reggen with a random source
// seeded by the rule's function name, so the file is the same on every run. A sample that cannot be built is kept
// as `skipped` with the reason. The upstream LICENSE (MIT) and a SOURCE file (repository, commit) go beside it.
//   npx tsx scripts/quality/gitleaks-samples.ts <gitleaks checkout or bare git dir>
import { mkdirSync, writeFileSync } from 'node:fs';
import { EvalError, Interpreter, isSkip, type Validation, type Value } from './gitleaks/go-eval.js';
import { lex } from './gitleaks/go-lexer.js';
import { parseGo } from './gitleaks/go-parser.js';
import { Rand, seedOf } from './gitleaks/reggen.js';
import { openGitleaks, RULES_DIR, type GitleaksSource } from './gitleaks/source.js';

const OUT_DIR = 'test/fixtures/quality/gitleaks';
const UTILS_DIR = 'cmd/generate/config/utils';

export interface Sample {
  rule: string;
  /** The rules/*.go file the rule is defined in (aws, github, generic…). */
  provider: string;
  label: 'tp' | 'fp';
  text: string;
  /** For the rules validated with paths (ValidateWithPaths): the file the text is in. */
  path?: string;
}

export interface Skipped {
  rule: string;
  provider: string;
  label: 'tp' | 'fp' | 'all';
  reason: string;
}

/** The rule functions main.go puts in the default config, in its order (a commented-out call is not one). */
function defaultRuleFunctions(src: GitleaksSource): string[] {
  const toks = lex(src.read('cmd/generate/config/main.go'));
  const out: string[] = [];
  for (let i = 0; i + 4 < toks.length; i++) {
    const [a, dot, name, open, close] = toks.slice(i, i + 5);
    if (a.value === 'rules' && dot.value === '.' && name.kind === 'ident' && open.value === '(' && close.value === ')') out.push(name.value);
  }
  return out;
}

function goFiles(src: GitleaksSource, dir: string, except: string[] = []) {
  return src
    .list(dir)
    .filter((f) => f.endsWith('.go') && !f.endsWith('_test.go') && !except.includes(f))
    .map((f) => ({ name: f.replace(/\.go$/, ''), ast: parseGo(src.read(`${dir}/${f}`)) }));
}

function samplesOf(v: Validation, provider: string, samples: Sample[], skipped: Skipped[]): void {
  const rule = String(v.rule.fields.RuleID);
  for (const [label, list] of [['tp', v.tps], ['fp', v.fps]] as const) {
    const add = (text: Value, path?: string) => {
      if (isSkip(text)) skipped.push({ rule, provider, label, reason: text.reason });
      else if (typeof text === 'string') samples.push({ rule, provider, label, text, ...(path !== undefined && { path }) });
      else skipped.push({ rule, provider, label, reason: 'not a string' });
    };
    if (list === null) continue;
    if (isSkip(list)) skipped.push({ rule, provider, label, reason: list.reason });
    else if (v.withPaths && list instanceof Map) for (const [path, text] of list) add(text, String(path));
    else if (Array.isArray(list)) for (const text of list) add(text);
  }
}

function main(): void {
  const root = process.argv[2];
  if (!root) throw new Error('usage: gitleaks-samples.ts <gitleaks checkout or bare git dir>');
  const src = openGitleaks(root);
  const go = new Interpreter();
  const record = (withPaths: boolean) => ({
    kind: 'native' as const,
    name: withPaths ? 'utils.ValidateWithPaths' : 'utils.Validate',
    call: ([rule, tps, fps]: Value[]) => {
      go.validations.push({ rule: rule as Validation['rule'], tps, fps, withPaths });
      return rule;
    },
  });
  // validate.go runs gitleaks' detector; here it only records what it was given.
  go.loadPackage('utils', goFiles(src, UTILS_DIR, ['validate.go']).map((f) => f.ast), { Validate: record(false), ValidateWithPaths: record(true) });
  const ruleFiles = goFiles(src, RULES_DIR);
  go.loadPackage('rules', ruleFiles.map((f) => f.ast));
  const fileOf = new Map(ruleFiles.flatMap((f) => f.ast.funcs.map((fn) => [fn.name, f.name] as const)));

  const samples: Sample[] = [];
  const skipped: Skipped[] = [];
  const functions = defaultRuleFunctions(src);
  for (const fn of functions) {
    const provider = fileOf.get(fn) ?? 'unknown';
    go.rand = new Rand(seedOf(fn));
    go.validations.length = 0;
    try {
      go.callPackageFunc('rules', fn);
    } catch (e) {
      if (!(e instanceof EvalError)) throw e;
      skipped.push({ rule: fn, provider, label: 'all', reason: `the generator failed: ${e.message}` });
      continue;
    }
    for (const v of go.validations) samplesOf(v, provider, samples, skipped);
  }

  mkdirSync(OUT_DIR, { recursive: true });
  const fixture = { source: { repo: 'https://github.com/gitleaks/gitleaks', commit: src.commit, license: 'MIT' }, functions: functions.length, samples, skipped };
  writeFileSync(`${OUT_DIR}/samples.json`, `${JSON.stringify(fixture, null, 1)}\n`);
  writeFileSync(`${OUT_DIR}/LICENSE`, src.read('LICENSE'));
  writeFileSync(
    `${OUT_DIR}/SOURCE`,
    [
      'repository: https://github.com/gitleaks/gitleaks',
      `commit: ${src.commit}`,
      'files: cmd/generate/config/rules/*.go (the tps and fps of each rule), cmd/generate/config/utils/generate.go',
      'license: MIT (LICENSE beside this file)',
      'rebuilt by: npx tsx scripts/quality/gitleaks-samples.ts <gitleaks checkout or bare git dir>',
      '',
    ].join('\n'),
  );
  const tp = samples.filter((s) => s.label === 'tp').length;
  process.stdout.write(`${functions.length} rule functions: ${tp} true-positive and ${samples.length - tp} false-positive samples, ${skipped.length} skipped\n`);
  for (const s of skipped) process.stdout.write(`  skipped ${s.rule} (${s.label}): ${s.reason}\n`);
}

main();
