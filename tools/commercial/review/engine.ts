// A review without a model: the language's engine (ESLint for JavaScript and TypeScript, ast-grep rules for Python,
// Go, Java, PHP, Ruby and shell, tree-sitter rules for Rust and C#) and the secret scan for every language (gitleaks'
// rules, and secretlint's for what they lack). A language none reads gets the secret scan and a note.
import { lintJs } from './eslint.js';
import { applyFocus, foldAndSort, type Finding, type Focus } from './findings.js';
import { isJsx, languageOf } from './languages.js';
import { scanSecrets } from './secrets.js';
import { scanAstGrep } from './ast-grep.js';
import { isAstGrepLanguage } from './ast-grep-rules.js';
import { scanTree } from './tree-sitter.js';

export interface ReviewInput {
  code: string;
  language?: string;
  filename?: string;
  focus?: Focus[];
}

export async function review(input: ReviewInput) {
  const lang = languageOf(input.language, input.filename);
  const notes: string[] = [];
  const engines: string[] = ['secrets', 'secretlint'];
  let found: Finding[] = [];
  if ('unknown' in lang) {
    notes.push(`The language “${lang.unknown}” is not one this review parses (javascript, typescript, python, go, java, rust, ruby, php, csharp, shell): only the secret scan ran.`);
  } else if (lang.known === 'javascript' || lang.known === 'typescript') {
    const ts = lang.known === 'typescript';
    const out = lintJs(input.code, ts, { jsx: isJsx(input.filename) });
    if ('findings' in out) {
      engines.unshift('eslint');
      found = out.findings;
    } else {
      // TypeScript that no stripper can make JavaScript, or that does not parse: the parser finds where the syntax
      // breaks; the rules are ESLint's, so only the syntax and the secrets are reported.
      engines.unshift('tree-sitter');
      found = await scanTree(input.code, isJsx(input.filename) ? 'tsx' : 'typescript', false);
      if ('unsupported' in out) notes.push(`This TypeScript uses syntax beyond type annotations (${out.unsupported}): ESLint's rules did not run; the syntax was checked and the secrets scanned.`);
    }
  } else if (isAstGrepLanguage(lang.known)) {
    // ast-grep's pattern rules (rules/<language>/*.yml); for Python also the in-function source-to-sink check.
    engines.unshift(...(lang.known === 'python' ? ['ast-grep', 'taint'] : ['ast-grep']));
    found = scanAstGrep(input.code, lang.known);
  } else {
    // Rust and C#: no ast-grep pack is installed for them; tree-sitter queries (rules.ts).
    engines.unshift('tree-sitter');
    found = await scanTree(input.code, lang.known);
  }
  // The file name too: some secret rules are for one kind of file (Kubernetes YAML, Terraform, nuget.config).
  found.push(...(await scanSecrets(input.code, input.filename)));
  const findings = foldAndSort(applyFocus(found, input.focus));
  return { language: 'known' in lang ? lang.known : lang.unknown, supported: 'known' in lang, engines, findings, notes };
}
