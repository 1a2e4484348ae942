// A finding as every engine reports it, and what the services do with a list of them: keep the caller's focus,
// fold duplicates (the same line and the same kind of defect from two engines), sort by place.
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const FOCUSES = ['security', 'performance', 'style', 'correctness'] as const;
export type Focus = (typeof FOCUSES)[number];

export interface Patch {
  /** 1-based line and column where the replaced text starts, and where it ends (exclusive). */
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  replacement: string;
}

export interface Finding {
  rule_id: string;
  line: number;
  column: number;
  end_line?: number;
  end_column?: number;
  severity: Severity;
  category: Focus;
  message: string;
  /** What to do about it. */
  fix: string;
  /** The exact edit, where the engine offers one. */
  patch?: Patch;
  /** The weakness, as a CWE id ("CWE-79"), where the rule names one. */
  cwe?: string;
  engine: Engine;
}

/** Which engine found it: ESLint and its plugins, the ast-grep rules, the in-function source-to-sink check, the secret scans, the model. */
export type Engine = 'eslint' | 'tree-sitter' | 'ast-grep' | 'taint' | 'secretlint' | 'secrets' | 'model';

const RANK: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 };

/** Syntax errors are kept whatever the focus: nothing else about the code can be trusted without them. */
export function applyFocus(findings: Finding[], focus: readonly Focus[] | undefined): Finding[] {
  if (!focus || focus.length === 0) return findings;
  return findings.filter((f) => f.rule_id.endsWith('syntax-error') || focus.includes(f.category));
}

/** One finding per line and defect (`also` names the other engines' rule ids), ordered by place then severity. */
export function foldAndSort(findings: Finding[]): (Finding & { also?: string[] })[] {
  const out: (Finding & { also?: string[] })[] = [];
  const byKey = new Map<string, Finding & { also?: string[] }>();
  for (const f of [...findings].sort((a, b) => a.line - b.line || a.column - b.column || RANK[a.severity] - RANK[b.severity])) {
    const key = `${f.line}:${kindOf(f)}`;
    const seen = byKey.get(key);
    if (seen && kindOf(f) !== 'other') {
      // A secret is told by the secret scan: it names the provider and the secret's exact span.
      if (f.engine === 'secrets' && seen.engine !== 'secrets') {
        const { also = [], severity, patch } = seen;
        Object.assign(seen, f, { also: [...also, seen.rule_id], patch: f.patch ?? patch, severity: RANK[severity] < RANK[f.severity] ? severity : f.severity });
        continue;
      }
      if (RANK[f.severity] < RANK[seen.severity]) seen.severity = f.severity;
      seen.patch ??= f.patch;
      (seen.also ??= []).push(f.rule_id);
      continue;
    }
    const copy = { ...f };
    byKey.set(key, copy);
    out.push(copy);
  }
  return out;
}

/** The keyword a CWE shares with the rule ids below, so that a finding with a CWE folds with one named only by its id. */
const CWE_KIND: Record<string, string> = { 'CWE-94': 'eval', 'CWE-95': 'eval', 'CWE-798': 'secret', 'CWE-89': 'sql', 'CWE-78': 'command', 'CWE-502': 'deserial', 'CWE-295': 'tls', 'CWE-327': 'hash', 'CWE-328': 'hash', 'CWE-1333': 'regexp' };

/** The defect a finding names, coarsely: by its CWE when it carries one, else by a keyword of its rule id. */
function kindOf(f: Finding): string {
  if (f.cwe) return CWE_KIND[f.cwe] ?? f.cwe;
  const id = f.rule_id.toLowerCase();
  for (const k of ['eval', 'secret', 'sql', 'command', 'deserial', 'tls', 'hash', 'regexp', 'syntax']) if (id.includes(k)) return k;
  return f.engine === 'model' ? 'model' : 'other';
}
