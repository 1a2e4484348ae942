// JavaScript and TypeScript: ESLint's Linter in memory (flat config, no files) with eslint-plugin-security and a
// set of ESLint's own rules. TypeScript is first stripped of its types by amaro (Node's own type stripper, which
// puts blanks where the types were, so every line and column stays the same) and then linted as JavaScript:
// typescript-eslint needs TypeScript ≤ 6.0 as a peer, and this project is on TypeScript 7 (the decisions doc).
import amaro from 'amaro';
import { Linter } from 'eslint';
import security from 'eslint-plugin-security';
import type { Finding, Focus, Severity } from './findings.js';

interface RuleInfo { category: Focus; severity: Severity; fix: string }

const SECURITY: Record<string, RuleInfo> = {
  'security/detect-eval-with-expression': { category: 'security', severity: 'critical', fix: 'Do not evaluate strings as code: parse the data (JSON.parse) or dispatch on known values.' },
  'security/detect-child-process': { category: 'security', severity: 'high', fix: 'Use execFile/spawn with a fixed command and an argument array; never build a shell command from input.' },
  'security/detect-non-literal-fs-filename': { category: 'security', severity: 'medium', fix: 'Resolve the path against a fixed base directory and check it stays inside it before opening it.' },
  'security/detect-non-literal-regexp': { category: 'security', severity: 'medium', fix: 'Escape input before building a RegExp from it, or match it as a plain string.' },
  'security/detect-non-literal-require': { category: 'security', severity: 'medium', fix: 'Require fixed module names; map input to a known list of modules.' },
  'security/detect-unsafe-regex': { category: 'security', severity: 'high', fix: 'Rewrite the pattern without nested quantifiers (catastrophic backtracking), or bound the input length.' },
  'security/detect-pseudoRandomBytes': { category: 'security', severity: 'high', fix: 'Use crypto.randomBytes.' },
  'security/detect-possible-timing-attacks': { category: 'security', severity: 'medium', fix: 'Compare secrets with crypto.timingSafeEqual.' },
  'security/detect-buffer-noassert': { category: 'security', severity: 'medium', fix: 'Drop the noAssert argument.' },
  'security/detect-new-buffer': { category: 'security', severity: 'medium', fix: 'Use Buffer.from or Buffer.alloc.' },
  'security/detect-no-csrf-before-method-override': { category: 'security', severity: 'medium', fix: 'Register the CSRF middleware before methodOverride.' },
  'security/detect-disable-mustache-escape': { category: 'security', severity: 'high', fix: 'Keep template escaping on.' },
  'security/detect-bidi-characters': { category: 'security', severity: 'high', fix: 'Remove the bidirectional control characters (Trojan Source).' },
};
const CORE: Record<string, RuleInfo> = {
  'no-eval': { category: 'security', severity: 'critical', fix: 'Do not evaluate strings as code.' },
  'no-implied-eval': { category: 'security', severity: 'high', fix: 'Pass a function to setTimeout/setInterval, not a string.' },
  'no-new-func': { category: 'security', severity: 'high', fix: 'Do not build functions from strings.' },
  'no-debugger': { category: 'correctness', severity: 'medium', fix: 'Remove the debugger statement.' },
  'no-dupe-keys': { category: 'correctness', severity: 'high', fix: 'Remove or rename the duplicate key: the last one silently wins.' },
  'no-unreachable': { category: 'correctness', severity: 'medium', fix: 'Remove the unreachable code or fix the control flow before it.' },
  'no-fallthrough': { category: 'correctness', severity: 'medium', fix: 'End the case with break/return, or mark the fall-through with a comment.' },
  'no-self-compare': { category: 'correctness', severity: 'medium', fix: 'Compare with the intended value (Number.isNaN for NaN checks).' },
  'use-isnan': { category: 'correctness', severity: 'high', fix: 'Use Number.isNaN(value).' },
  'valid-typeof': { category: 'correctness', severity: 'high', fix: 'Compare typeof with a valid type name.' },
  'no-cond-assign': { category: 'correctness', severity: 'medium', fix: 'Use === in the condition, or move the assignment out of it.' },
  'no-unsafe-finally': { category: 'correctness', severity: 'high', fix: 'Do not return or throw from finally.' },
  'no-unsafe-negation': { category: 'correctness', severity: 'high', fix: 'Put the negation around the whole expression: !(key in obj).' },
  'no-compare-neg-zero': { category: 'correctness', severity: 'medium', fix: 'Use Object.is(x, -0).' },
  'no-await-in-loop': { category: 'performance', severity: 'low', fix: 'Start the independent calls together and await Promise.all.' },
  'eqeqeq': { category: 'style', severity: 'low', fix: 'Use === and !== .' },
  'no-var': { category: 'style', severity: 'low', fix: 'Use let or const.' },
  'prefer-const': { category: 'style', severity: 'info', fix: 'Use const for a binding never reassigned.' },
};
const RULES: Record<string, RuleInfo> = { ...SECURITY, ...CORE };

// detect-object-injection flags every obj[variable]: in ordinary code nearly all false alarms, so it is left out.
const config: Linter.Config[] = [
  {
    plugins: { security: security as never },
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: true } } },
    rules: Object.fromEntries(Object.keys(RULES).map((id) => [id, id === 'eqeqeq' ? ['warn', 'always', { null: 'ignore' }] : 'warn'])) as Linter.RulesRecord,
  },
];

let linter: Linter | undefined;

export type EslintOutcome = { findings: Finding[] } | { unsupported: string } | { syntax: string };

/** Lints JavaScript, or TypeScript once stripped; `unsupported` when the TypeScript needs more than stripping. */
export function lintJs(code: string, typescript: boolean): EslintOutcome {
  let js = code;
  if (typescript) {
    try {
      js = amaro.transformSync(code, { mode: 'strip-only' }).code;
    } catch (err) {
      const e = err as { code?: string; message?: string };
      if (e.code === 'UnsupportedSyntax') return { unsupported: e.message ?? 'syntax beyond type annotations' };
      return { syntax: e.message ?? 'invalid syntax' };
    }
  }
  linter ??= new Linter({ configType: 'flat' });
  const lines = lineStarts(js);
  const findings: Finding[] = [];
  for (const m of linter.verify(js, config, { filename: 'input.js' })) {
    if (m.fatal || !m.ruleId) {
      findings.push({ rule_id: 'syntax-error', line: m.line, column: m.column, severity: 'high', category: 'correctness', message: m.message, fix: 'Fix the syntax: nothing after this point could be analysed.', engine: 'eslint' });
      continue;
    }
    const info = RULES[m.ruleId];
    if (!info) continue;
    const f: Finding = { rule_id: m.ruleId, line: m.line, column: m.column, severity: info.severity, category: info.category, message: m.message, fix: info.fix, engine: 'eslint' };
    if (m.endLine !== undefined && m.endColumn !== undefined) Object.assign(f, { end_line: m.endLine, end_column: m.endColumn });
    // A patch made on stripped TypeScript is offered only where the stripping changed nothing (else it would drop types).
    if (m.fix && js.slice(m.fix.range[0], m.fix.range[1]) === code.slice(m.fix.range[0], m.fix.range[1])) {
      const [s, e] = m.fix.range;
      const a = position(lines, s);
      const b = position(lines, e);
      f.patch = { line: a.line, column: a.column, end_line: b.line, end_column: b.column, replacement: m.fix.text };
    }
    findings.push(f);
  }
  return { findings };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function position(starts: number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo]! + 1 };
}
