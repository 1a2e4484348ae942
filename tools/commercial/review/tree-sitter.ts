// Rust and C# (no ast-grep pack is installed for them), and the syntax check of TypeScript that ESLint cannot read: a
// real parser (tree-sitter, as WebAssembly, with the grammars VS Code ships prebuilt in @vscode/tree-sitter-wasm) and
// this project's rules written as tree-sitter queries (rules.ts). The other languages run on ast-grep (ast-grep.ts).
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TS from '@vscode/tree-sitter-wasm';
import type { Finding } from './findings.js';
import type { Language } from './languages.js';
import { RULES, type Rule } from './rules.js';

const require = createRequire(import.meta.url);
const WASM_DIR = path.dirname(require.resolve('@vscode/tree-sitter-wasm'));
const GRAMMAR: Record<string, string> = { python: 'python', go: 'go', java: 'java', rust: 'rust', ruby: 'ruby', php: 'php', csharp: 'c-sharp', shell: 'bash', typescript: 'typescript', tsx: 'tsx', javascript: 'javascript' };

let runtime: Promise<typeof TS> | undefined;
const languages = new Map<string, Promise<{ lang: TS.Language; queries: { rule: Rule; query: TS.Query }[] }>>();

async function load(name: string) {
  const ts = await (runtime ??= (async () => {
    const mod = require('@vscode/tree-sitter-wasm') as typeof TS;
    await mod.Parser.init();
    return mod;
  })());
  let l = languages.get(name);
  if (!l) {
    l = (async () => {
      const lang = await ts.Language.load(path.join(WASM_DIR, `tree-sitter-${GRAMMAR[name]}.wasm`));
      return { lang, queries: (RULES[name as Language] ?? []).map((rule) => ({ rule, query: new ts.Query(lang, rule.query) })) };
    })();
    languages.set(name, l);
  }
  return { ts, ...(await l) };
}

export const treeSitterLanguages = (): string[] => Object.keys(GRAMMAR);

/** Parses and runs the language's rules; a syntax error is a finding (the first ERROR or MISSING node). */
export async function scanTree(code: string, language: string, withRules = true): Promise<Finding[]> {
  const { ts, lang, queries } = await load(language);
  const parser = new ts.Parser();
  parser.setLanguage(lang);
  const tree = parser.parse(code);
  if (!tree) return [];
  try {
    const findings: Finding[] = [];
    if (tree.rootNode.hasError) {
      const bad = firstError(tree.rootNode);
      if (bad) {
        findings.push({
          rule_id: `${language}/syntax-error`,
          line: bad.startPosition.row + 1,
          column: bad.startPosition.column + 1,
          severity: 'high',
          category: 'correctness',
          message: bad.isMissing ? `Syntax error: missing ${bad.type}.` : `Syntax error near “${bad.text.slice(0, 40).split('\n')[0]}”.`,
          fix: 'Fix the syntax: the code does not parse, and the rest of it may not have been analysed as intended.',
          engine: 'tree-sitter',
        });
      }
    }
    if (!withRules) return findings;
    for (const { rule, query } of queries) {
      for (const m of query.matches(tree.rootNode)) {
        const node = m.captures.find((c) => c.name === 'hit')?.node ?? m.captures[0]?.node;
        if (!node || (rule.check && !rule.check(node))) continue;
        findings.push({
          rule_id: rule.id,
          line: node.startPosition.row + 1,
          column: node.startPosition.column + 1,
          end_line: node.endPosition.row + 1,
          end_column: node.endPosition.column + 1,
          severity: rule.severity,
          category: rule.category,
          message: rule.message,
          fix: rule.fix,
          engine: 'tree-sitter',
        });
      }
    }
    return findings;
  } finally {
    tree.delete();
    parser.delete();
  }
}

function firstError(node: TS.Node): TS.Node | null {
  if (node.isError || node.isMissing) return node;
  for (const child of node.children) {
    if (child && (child.hasError || child.isError || child.isMissing)) {
      const found = firstError(child);
      if (found) return found;
    }
  }
  return null;
}
