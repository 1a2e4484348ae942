// JavaScript and TypeScript: ESLint's Linter in memory (flat config, no files) with eslint-plugin-security,
// @microsoft/eslint-plugin-sdl, eslint-plugin-no-unsanitized, eslint-plugin-react's security rules, this project's
// rules (js-pattern-rules.ts) and a set of ESLint's own (js-rules.ts, js-plugins.ts); then the source-to-sink
// check (taint/) on the tree ESLint parsed. TypeScript is first stripped of its types by amaro (Node's own type
// stripper, which puts blanks where the types were, so every line and column stays the same) and then linted as
// JavaScript: typescript-eslint needs TypeScript ≤ 6.0 as a peer, and this project is on TypeScript 7.
import amaro from 'amaro';
import { Linter } from 'eslint';
import type { Finding } from './findings.js';
import { reviewConfig } from './js-plugins.js';
import { PATTERN_RULES } from './js-pattern-rules.js';
import { PLUGIN_RULES, type RuleInfo } from './js-rules.js';
import { stripTypes } from './js-ts-strip.js';
import { TypeAnnotations, withOriginalText } from './js-ts-types.js';
import { taintFindings } from './taint/analyze.js';

const RULES: Record<string, RuleInfo> = { ...PLUGIN_RULES, ...PATTERN_RULES };

let linter: Linter | undefined;

export type EslintOutcome = { findings: Finding[] } | { unsupported: string } | { syntax: string };

/**
 * Lints JavaScript, or TypeScript once stripped of its types; `unsupported` when the TypeScript needs more than
 * stripping (enums, namespaces). `jsx`: the file is JSX/TSX (a .tsx file's name says so; the caller knows it).
 */
export function lintJs(code: string, typescript: boolean, options: { jsx?: boolean } = {}): EslintOutcome {
  let js = code;
  let clientParams: string[] = [];
  if (typescript) {
    const stripped = stripTs(code, options.jsx ?? false);
    if (!('code' in stripped)) return stripped;
    js = stripped.code;
    clientParams = stripped.clientParams ?? [];
  }
  const l = (linter ??= new Linter({ configType: 'flat' }));
  // The rules that ask for types read the TypeScript's annotations from the original text (js-ts-types.ts).
  const original = typescript ? code : undefined;
  let run = withOriginalText(original, () => parse(l, js));
  if (!run.parsed && /Unexpected character '@'/.test(run.syntax?.message ?? '')) {
    // Decorators (TypeScript's, or a Babel setup's): ESLint's parser does not read them; blank them and read again.
    const plain = stripTypes(code, options.jsx ?? false);
    if ('code' in plain) {
      const again = withOriginalText(original, () => parse(l, plain.code));
      if (again.parsed) [js, run, clientParams] = [plain.code, again, plain.clientParams];
    }
  }
  const lines = lineStarts(js);
  const findings: Finding[] = [];
  const unsafeRegex = new Set<string>();
  if (run.syntax) findings.push(syntaxFinding(run.syntax, run.recovered));
  for (const m of run.messages) {
    if (m.fatal || !m.ruleId) continue;
    const info = RULES[m.ruleId];
    if (!info) continue;
    if (m.ruleId === 'security/detect-unsafe-regex') unsafeRegex.add(`${m.line}:${m.column}`);
    // Read with let/const as var (see parse), the style of declarations says nothing about the code as written.
    if (run.recovered && (m.ruleId === 'no-var' || m.ruleId === 'prefer-const')) continue;
    const f: Finding = { rule_id: m.ruleId, line: m.line, column: m.column, severity: info.severity, category: info.category, message: m.message, fix: info.fix, engine: 'eslint' };
    if (info.cwe) f.cwe = info.cwe;
    if (m.endLine !== undefined && m.endColumn !== undefined) Object.assign(f, { end_line: m.endLine, end_column: m.endColumn });
    // A patch made on stripped TypeScript is offered only where the stripping changed nothing (else it would drop types).
    if (m.fix && !run.recovered && js.slice(m.fix.range[0], m.fix.range[1]) === code.slice(m.fix.range[0], m.fix.range[1])) {
      const [s, e] = m.fix.range;
      const a = position(lines, s);
      const b = position(lines, e);
      f.patch = { line: a.line, column: a.column, end_line: b.line, end_column: b.column, replacement: m.fix.text };
    }
    findings.push(f);
  }
  if (run.parsed) {
    const sc = l.getSourceCode()!;
    const types = typescript && sc.text.length === code.length ? new TypeAnnotations(code, sc.text) : undefined;
    findings.push(...taintFindings(sc, { unsafeRegex, clientParams: new Set(clientParams), types }));
  }
  return { findings };
}

/** amaro for TypeScript; tree-sitter's grammar for TSX and for what amaro does not take (parameter properties). */
function stripTs(code: string, jsx: boolean): { code: string; clientParams?: string[] } | { unsupported: string } | { syntax: string } {
  if (jsx) return stripTypes(code, true);
  try {
    return { code: amaro.transformSync(code, { mode: 'strip-only' }).code };
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (e.code === 'UnsupportedSyntax') {
      const other = stripTypes(code, false);
      return 'code' in other ? other : { unsupported: e.message ?? 'syntax beyond type annotations' };
    }
    // TypeScript with JSX sent without a .tsx name.
    if (/<\/[A-Za-z][\w.]*>|\/>/.test(code)) {
      const tsx = stripTypes(code, true);
      if ('code' in tsx) return tsx;
    }
    // amaro refuses what is a slip rather than a type (a name declared twice, `await` or `return` outside a
    // function): stripped by the grammar instead, the file goes to ESLint, which reports the slip and, where
    // parse() can neutralise it, checks the rest, as it does for JavaScript.
    const tolerant = stripTypes(code, false);
    if ('code' in tolerant) return tolerant;
    return { syntax: e.message ?? 'invalid syntax' };
  }
}

interface Run { messages: Linter.LintMessage[]; parsed: boolean; syntax?: Linter.LintMessage; recovered?: boolean }

/**
 * Slips that make a file not JavaScript while everything else in it can still be checked (snippets pasted one after
 * another, a handler's body copied out of its async function): the text is read once more with the slip neutralised,
 * keeping every line and column, and the syntax error is still reported.
 */
const RECOVERIES: { error: RegExp; rewrite: (js: string) => string }[] = [
  { error: /has already been declared/, rewrite: (js) => js.replace(/\b(const|let)(?=\s+[\w$[{])/g, (k) => (k === 'let' ? 'var' : 'var  ')) },
  { error: /Cannot use keyword 'await' outside an async function/, rewrite: (js) => js.replace(/\bawait(?=\s)/g, '     ') },
];

/** Parses as an ES module, else as CommonJS (a top-level `return`), else after the recoveries above. */
function parse(l: Linter, js: string): Run {
  const attempt = (text: string): Run => {
    const asModule = l.verify(text, reviewConfig('module'), { filename: 'input.js' });
    const fatal = asModule.find((m) => m.fatal);
    if (!fatal) return { messages: asModule, parsed: true };
    const asScript = l.verify(text, reviewConfig('commonjs'), { filename: 'input.js' });
    if (!asScript.some((m) => m.fatal)) return { messages: asScript, parsed: true };
    return { messages: [], parsed: false, syntax: fatal };
  };
  const first = attempt(js);
  let run = first;
  let text = js;
  for (let i = 0; i < RECOVERIES.length && !run.parsed; i++) {
    const fix = RECOVERIES.find((r) => r.error.test(run.syntax?.message ?? ''));
    if (!fix) break;
    text = fix.rewrite(text);
    run = attempt(text);
  }
  return run.parsed && run !== first ? { ...run, syntax: first.syntax, recovered: true } : first;
}

function syntaxFinding(m: Linter.LintMessage, recovered?: boolean): Finding {
  const fix = recovered ? 'Fix the syntax; the rest of the file was still checked.' : 'Fix the syntax: nothing after this point could be analysed.';
  return { rule_id: 'syntax-error', line: m.line, column: m.column, severity: 'high', category: 'correctness', message: m.message, fix, engine: 'eslint' };
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
