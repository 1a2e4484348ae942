// Python, Go, Java, PHP, Ruby and shell: ast-grep (@ast-grep/napi with the @ast-grep/lang-* packs' prebuilt
// parsers) running the YAML pattern rules of rules/ (ast-grep-rules.ts). One parse per review: the syntax check,
// every rule of the language and, for Python, the in-function source-to-sink check all read the same tree.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, type SgNode } from '@ast-grep/napi';
import { projectRoot } from '../../../src/paths.js';
import { AST_GREP_LANGUAGES, combineRules, loadRules, TAG_PREFIX, type AstGrepLanguage, type CombinedRules, type PatternRule } from './ast-grep-rules.js';
import type { Finding, Patch } from './findings.js';
import { pythonTaint } from './python-taint.js';

export const RULES_DIR = path.join(projectRoot(fileURLToPath(import.meta.url)), 'tools', 'commercial', 'review', 'rules');
/** Read and checked when this module loads: a bad rule file is an error naming it, before any review. */
export const RULES = loadRules(RULES_DIR);
/** Each language's rules as one matcher (ast-grep-rules.ts `combineRules`), built on first use. */
const COMBINED = new Map<AstGrepLanguage, CombinedRules>();

/** The comment that tells bandit (`# nosec`) or gosec (`// #nosec`, `//nolint:gosec`) a line's risk is accepted. */
const SUPPRESS: Partial<Record<AstGrepLanguage, RegExp>> = { python: /#\s*nosec\b(?!\s*:?\s*[A-Z]\d)/, go: /(#nosec\b|nolint:[\w,]*gosec|gosec:disable)/ };

export function scanAstGrep(code: string, language: AstGrepLanguage): Finding[] {
  const root = parse(AST_GREP_LANGUAGES[language], code).root();
  const found: Finding[] = [];
  const syntax = syntaxError(root, language);
  if (syntax) found.push(syntax);
  found.push(...patternFindings(root, language, code));
  if (language === 'python') found.push(...pythonTaint(root));
  return unsuppressed(dedupe(found), root, language);
}

/** Every rule's matches, rule by rule in the rules' order, from one search of the combined matcher. */
function patternFindings(root: SgNode, language: AstGrepLanguage, code: string): Finding[] {
  let combined = COMBINED.get(language);
  if (!combined) COMBINED.set(language, (combined = combineRules(RULES[language])));
  const byRule = new Map<PatternRule, SgNode[]>();
  if (combined.rules.length > 0)
    for (const node of root.findAll(combined.config))
      combined.rules.forEach((rule, i) => {
        if (!node.getMatch(`${TAG_PREFIX}${i}`)) return;
        const nodes = byRule.get(rule);
        if (nodes) nodes.push(node);
        else byRule.set(rule, [node]);
      });
  for (const rule of combined.separate) byRule.set(rule, root.findAll(rule.config));
  return RULES[language].flatMap((rule) => (byRule.get(rule) ?? []).map((node) => toFinding(rule, node, code)));
}

function toFinding(rule: PatternRule, node: SgNode, code: string): Finding {
  const { start, end } = node.range();
  const patch = rule.fix === undefined ? undefined : patchOf(rule.fix, node, code);
  return {
    rule_id: rule.id,
    line: start.line + 1,
    column: start.column + 1,
    end_line: end.line + 1,
    end_column: end.column + 1,
    severity: rule.severity,
    category: rule.category,
    message: rule.message,
    fix: rule.note,
    ...(patch ? { patch } : {}),
    ...(rule.cwe ? { cwe: rule.cwe } : {}),
    engine: 'ast-grep',
  };
}

/** ast-grep's rewrite template with the match's meta-variables filled in; none if one it names is unbound. */
function patchOf(template: string, node: SgNode, code: string): Patch | undefined {
  let unbound = false;
  const bytes = Buffer.from(code);
  const replacement = template.replace(/\$\$\$([A-Z_][A-Z0-9_]*)|\$([A-Z_][A-Z0-9_]*)/g, (_, multi: string | undefined, single: string | undefined) => {
    if (multi) {
      const nodes = node.getMultipleMatches(multi);
      return nodes.length === 0 ? '' : bytes.subarray(nodes[0]!.range().start.index, nodes.at(-1)!.range().end.index).toString();
    }
    const m = node.getMatch(single!);
    if (!m) unbound = true;
    return m?.text() ?? '';
  });
  if (unbound) return undefined;
  const { start, end } = node.range();
  return { line: start.line + 1, column: start.column + 1, end_line: end.line + 1, end_column: end.column + 1, replacement };
}

/** The first place the code does not parse: an ERROR node, or a token the parser had to assume (zero width). */
function syntaxError(root: SgNode, language: AstGrepLanguage): Finding | undefined {
  const rootKind = root.kind();
  const bad = root
    .findAll({ rule: { any: [{ kind: 'ERROR' }, { regex: '^$' }] } })
    .filter((n) => n.kind() === 'ERROR' || (n.kind() !== rootKind && n.range().start.index === n.range().end.index && !n.isNamed()))
    .sort((a, b) => a.range().start.index - b.range().start.index)[0];
  if (!bad) return undefined;
  const { start } = bad.range();
  const missing = bad.kind() !== 'ERROR';
  return {
    rule_id: `${language}/syntax-error`,
    line: start.line + 1,
    column: start.column + 1,
    severity: 'high',
    category: 'correctness',
    message: missing ? `Syntax error: missing ${bad.kind()}.` : `Syntax error near “${bad.text().slice(0, 40).split('\n')[0]}”.`,
    fix: 'Fix the syntax: the code does not parse, and the rest of it may not have been analysed as intended.',
    engine: 'ast-grep',
  };
}

/** One finding per rule and line (two matches of one rule on a line are the same defect). */
function dedupe(found: Finding[]): Finding[] {
  const seen = new Set<string>();
  return found.filter((f) => {
    const key = `${f.rule_id}:${f.line}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Drops findings on lines the author marked with the language's analyzer's suppression comment (on a line of the
 * finding; for Go also alone on the line above it, and at the end of the line a statement starts on, which covers the
 * whole statement, as gosec reads `_ = Config{ // #nosec` for every line of the literal). A marker naming the
 * analyzer's own test ids is not honoured for Python: those ids are not this engine's rules, so such a line is still
 * reported.
 */
function unsuppressed(found: Finding[], root: SgNode, language: AstGrepLanguage): Finding[] {
  const marker = SUPPRESS[language];
  if (!marker || found.length === 0) return found;
  const lines = new Set<number>();
  for (const c of root.findAll({ rule: { kind: 'comment', regex: 'nosec|nolint|gosec:disable' } })) {
    if (!marker.test(c.text())) continue;
    const line = c.range().start.line + 1;
    lines.add(line);
    const prev = c.prev();
    // gosec reads a marker alone on its line as the next statement's; bandit reads only the marker's own line.
    if (language === 'go' && (!prev || prev.range().end.line + 1 < line)) lines.add(line + 1);
    if (language === 'go') for (let l = line + 1; l <= statementEnd(c); l++) lines.add(l);
  }
  if (lines.size === 0) return found;
  return found.filter((f) => {
    if (f.rule_id.endsWith('/syntax-error')) return true;
    for (let l = f.line; l <= (f.end_line ?? f.line); l++) if (lines.has(l)) return false;
    return true;
  });
}

/** The last line of the outermost statement or declaration that starts on a comment's line (inside one function). */
function statementEnd(comment: SgNode): number {
  const line = comment.range().start.line;
  let end = line;
  for (let n = comment.parent(); n && n.range().start.line === line && !GO_CONTAINERS.has(String(n.kind())); n = n.parent()) end = n.range().end.line;
  return end + 1;
}
const GO_CONTAINERS = new Set(['source_file', 'block', 'statement_list', 'function_declaration', 'method_declaration', 'func_literal']);
