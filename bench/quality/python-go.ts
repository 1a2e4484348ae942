// Code review quality for Python and Go on public labelled corpora (issue 43), the ast-grep engine alone
// (ast-grep.ts: the YAML pattern rules and, for Python, the in-function source-to-sink check).
// - bandit's examples (Python): per line. Each issue bandit's functional tests expect is a vulnerable case, found
//   when a finding of the class its test id maps to (BANDIT_CLASSES) covers one of the issue's lines. Safe cases:
//   the lines bandit reports nothing on (and no `# nosec`) that call a function some labelled line of the same file
//   calls (the near misses: yaml.load with SafeLoader beside yaml.load), and every call line of a file whose test
//   expects nothing; flagged when any security finding starts on the line.
// - gosec's samples (Go): per sample, as gosec's rule tests count. A sample of rule Gxxx expecting n issues is found
//   when the findings of the classes Gxxx maps to (GOSEC_CLASSES) number at least n; a sample expecting 0 is flagged
//   when any security finding is reported on it.
// Test ids and rules mapped to no class are out of scope (listed with the reason) and reported apart.
import { pathToFileURL } from 'node:url';
import { parse } from '@ast-grep/napi';
import { RULES, scanAstGrep } from '../../tools/commercial/review/ast-grep.js';
import type { Finding } from '../../tools/commercial/review/findings.js';
import { banditCommit, banditFiles, type BanditFile } from '../../scripts/quality/bandit-cases.js';
import { gosecSamples, type GosecSample } from '../../scripts/quality/gosec-samples.js';
import { percent, type QualityReport } from './report.js';

type Scope = string[] | { out: string };
const AUDIT = { out: 'an audit note, not a vulnerability: running a program without a shell, or importing a module' };

/** bandit test id → the rule classes (rules/python/<class>.yml) that cover it. */
export const BANDIT_CLASSES: Record<string, Scope> = {
  B101: { out: 'assert statements: not a vulnerability' },
  B102: ['eval'], B307: ['eval'],
  B103: ['file-permissions'],
  B104: ['misconfiguration'], B201: ['misconfiguration'], B412: ['misconfiguration'], B612: ['misconfiguration'],
  B105: ['hardcoded-secret'], B106: ['hardcoded-secret'], B107: ['hardcoded-secret'],
  B108: ['insecure-temp'], B306: ['insecure-temp'],
  B110: { out: 'try/except/pass: error handling, not a vulnerability' }, B112: { out: 'try/except/continue: error handling, not a vulnerability' },
  B113: { out: 'a request without a timeout: availability, not in the rule set' },
  B202: ['path-traversal'],
  B301: ['unsafe-deserialization'], B302: ['unsafe-deserialization'], B506: ['unsafe-deserialization'], B614: ['unsafe-deserialization'],
  B303: ['weak-crypto'], B304: ['weak-crypto'], B305: ['weak-crypto'], B324: ['weak-crypto'], B505: ['weak-crypto'],
  B308: ['xss'], B701: ['xss'], B702: ['xss'], B703: ['xss'], B704: ['xss'],
  B310: ['ssrf'],
  B311: ['weak-random'],
  B312: ['insecure-transport'], B321: ['insecure-transport'], B401: ['insecure-transport'], B402: ['insecure-transport'], B323: ['insecure-transport'], B501: ['insecure-transport'], B502: ['insecure-transport'], B503: ['insecure-transport'], B504: ['insecure-transport'], B507: ['insecure-transport'], B508: ['insecure-transport'], B509: ['insecure-transport'],
  B313: ['xml'], B314: ['xml'], B315: ['xml'], B316: ['xml'], B317: ['xml'], B318: ['xml'], B319: ['xml'], B320: ['xml'], B411: ['xml'],
  B403: AUDIT, B404: AUDIT, B405: AUDIT, B406: AUDIT, B407: AUDIT, B408: AUDIT, B409: AUDIT, B410: AUDIT, B603: AUDIT, B606: AUDIT, B607: AUDIT,
  B413: ['supply-chain'], B615: ['supply-chain'],
  B415: { out: 'importing pyghmi (IPMI): an audit note' },
  B601: ['command-injection'], B602: ['command-injection'], B604: ['command-injection'], B605: ['command-injection'], B609: ['command-injection'],
  B608: ['sql-injection'], B610: ['sql-injection'], B611: ['sql-injection'],
  B613: ['trojan-source'],
};

/** gosec rule → the rule classes (rules/go/<class>.yml) that cover it. */
export const GOSEC_CLASSES: Record<string, Scope> = {
  G101: ['hardcoded-secret'], G102: ['misconfiguration'], G103: ['unsafe'], G104: { out: 'unchecked errors: a correctness lint (needs types)' },
  G106: ['insecure-transport'], G107: ['ssrf'], G108: ['misconfiguration'], G109: { out: 'integer overflow after strconv.Atoi: needs types' },
  G110: ['resource-exhaustion'], G111: ['path-traversal'], G112: ['resource-exhaustion'], G113: { out: 'big.Rat.SetString: a Go release bug (CVE-2022-23772), not code' },
  G114: ['resource-exhaustion'], G115: { out: 'integer conversion overflow: needs types and value ranges' }, G116: ['trojan-source'],
  G117: { out: 'secret-named struct fields serialised: needs types across declarations' }, G118: { out: 'context propagation and goroutine leaks: needs data flow across calls' },
  G119: ['insecure-transport'], G120: ['resource-exhaustion'], G121: ['misconfiguration'], G122: { out: 'TOCTOU in filepath.Walk callbacks: needs data flow' },
  G123: ['insecure-transport'], G124: ['misconfiguration'],
  G201: ['sql-injection'], G202: ['sql-injection'], G203: ['xss'], G204: ['command-injection'],
  G301: ['file-permissions'], G302: ['file-permissions'], G303: ['insecure-temp'], G304: ['path-traversal'], G305: ['path-traversal'], G306: ['file-permissions'],
  G307: { out: 'deferred Close of a writable file: a correctness lint' },
  G401: ['weak-crypto'], G402: ['insecure-transport'], G403: ['weak-crypto'], G404: ['weak-random'], G405: ['weak-crypto'], G406: ['weak-crypto'], G407: ['weak-crypto'],
  G408: { out: 'stateful SSH PublicKeyCallback: needs data flow across calls' },
  G501: ['weak-crypto'], G502: ['weak-crypto'], G503: ['weak-crypto'], G504: ['insecure-transport'], G505: ['weak-crypto'], G506: ['weak-crypto'], G507: ['weak-crypto'],
  G601: { out: 'implicit memory aliasing in for loops: gone since Go 1.22' }, G602: { out: 'slice index out of range: needs value ranges' },
  G701: ['sql-injection'], G702: ['command-injection'], G703: ['path-traversal'], G704: ['ssrf'], G705: ['xss'], G706: ['log-injection'], G707: ['smtp-injection'],
  G708: ['template-injection'], G709: ['unsafe-deserialization'], G710: ['open-redirect'],
};

const TAINT_CLASS: Record<string, string> = {
  'python/tainted-sql': 'sql-injection', 'python/tainted-command': 'command-injection', 'python/tainted-path': 'path-traversal', 'python/tainted-redirect': 'open-redirect',
  'python/tainted-template': 'template-injection', 'python/tainted-eval': 'eval', 'python/tainted-url': 'ssrf', 'python/tainted-html': 'xss', 'python/tainted-deserialization': 'unsafe-deserialization',
};
const CLASS_OF = new Map<string, string>([...Object.values(RULES).flat().map((r) => [r.id, r.class] as [string, string]), ...Object.entries(TAINT_CLASS)]);
export const classOf = (f: Finding): string => CLASS_OF.get(f.rule_id) ?? 'other';

export interface BanditCase {
  file: string;
  lines: number[];
  vulnerable: boolean;
  /** Vulnerable: bandit's test id and the classes it maps to (none: out of scope). */
  test_id?: string;
  classes?: string[];
  hit: boolean;
  rules: string[];
}

/** Every bandit case of every example, judged on the engine's findings for its file. */
export function banditCases(files: BanditFile[] = banditFiles()): BanditCase[] {
  const out: BanditCase[] = [];
  for (const f of files) {
    const findings = scanAstGrep(f.code, 'python');
    const labelled = new Set(f.issues.flatMap((i) => i.line_range));
    for (const i of f.issues) {
      const scope = BANDIT_CLASSES[i.test_id];
      if (!scope) throw new Error(`bandit test ${i.test_id} (${f.file}:${i.line}) is not mapped`);
      const classes = Array.isArray(scope) ? scope : [];
      const hits = findings.filter((x) => classes.includes(classOf(x)) && x.line <= Math.max(...i.line_range) && (x.end_line ?? x.line) >= Math.min(...i.line_range));
      out.push({ file: f.file, lines: i.line_range, vulnerable: true, test_id: i.test_id, classes, hit: hits.length > 0, rules: hits.map((x) => x.rule_id) });
    }
    for (const line of safeLines(f, labelled)) {
      const flagged = findings.filter((x) => x.line === line && x.category === 'security');
      out.push({ file: f.file, lines: [line], vulnerable: false, hit: flagged.length > 0, rules: flagged.map((x) => x.rule_id) });
    }
  }
  return out;
}

/** Unlabelled lines calling what a labelled line of the file calls (every call line when nothing is labelled). */
function safeLines(f: BanditFile, labelled: Set<number>): number[] {
  const root = parse('python', f.code).root();
  const calls = root.findAll({ rule: { kind: 'call' } }).map((c) => ({ line: c.range().start.line + 1, name: (c.field('function')?.text() ?? '').split('.').pop()! }));
  const nosec = new Set(root.findAll({ rule: { kind: 'comment', regex: 'nosec' } }).map((c) => c.range().start.line + 1));
  const labelledNames = new Set(calls.filter((c) => labelled.has(c.line)).map((c) => c.name));
  const lines = new Set<number>();
  for (const c of calls) if (!labelled.has(c.line) && !nosec.has(c.line) && (f.issues.length === 0 || labelledNames.has(c.name))) lines.add(c.line);
  return [...lines].sort((a, b) => a - b);
}

export interface GosecOutcome {
  sample: GosecSample;
  classes: string[];
  /** Findings of the sample's classes (vulnerable) or security findings (safe). */
  count: number;
  hit: boolean;
  rules: string[];
}

export function gosecOutcomes(samples: GosecSample[] = gosecSamples()): GosecOutcome[] {
  return samples.map((s) => {
    const scope = GOSEC_CLASSES[s.rule];
    if (!scope) throw new Error(`gosec rule ${s.rule} is not mapped`);
    const classes = Array.isArray(scope) ? scope : [];
    const findings = s.files.flatMap((code) => scanAstGrep(code, 'go'));
    const counted = s.expected > 0 ? findings.filter((f) => classes.includes(classOf(f))) : findings.filter((f) => f.category === 'security');
    return { sample: s, classes, count: counted.length, hit: s.expected > 0 ? counted.length >= s.expected : counted.length > 0, rules: counted.map((f) => f.rule_id) };
  });
}

export interface Tally { vulnerable: number; found: number; safe: number; flagged: number }
const tally = (xs: { vulnerable: boolean; hit: boolean }[]): Tally => ({
  vulnerable: xs.filter((x) => x.vulnerable).length,
  found: xs.filter((x) => x.vulnerable && x.hit).length,
  safe: xs.filter((x) => !x.vulnerable).length,
  flagged: xs.filter((x) => !x.vulnerable && x.hit).length,
});

export function banditTally(cases = banditCases()): { inScope: Tally; all: Tally } {
  return { inScope: tally(cases.filter((c) => !c.vulnerable || c.classes!.length > 0)), all: tally(cases) };
}

export function gosecTally(outcomes = gosecOutcomes()): { inScope: Tally; all: Tally } {
  const cases = outcomes.map((o) => ({ vulnerable: o.sample.expected > 0, hit: o.hit, inScope: o.classes.length > 0 }));
  return { inScope: tally(cases.filter((c) => !c.vulnerable || c.inScope)), all: tally(cases) };
}

const row = (name: string, t: Tally) => ({ family: name, vulnerable: t.vulnerable, found: t.found, recall: percent(t.found, t.vulnerable), safe: t.safe, flagged: t.flagged, 'safe flagged': percent(t.flagged, t.safe) });

/** bandit's examples, Python, per line. */
export function measurePython(): QualityReport {
  const cases = banditCases();
  const b = banditTally(cases);
  const byClass = new Map<string, BanditCase[]>();
  for (const c of cases) if (c.vulnerable) byClass.set(c.classes![0] ?? `out of scope (${c.test_id})`, [...(byClass.get(c.classes![0] ?? `out of scope (${c.test_id})`) ?? []), c]);
  const missed = cases.filter((c) => c.vulnerable && c.classes!.length > 0 && !c.hit);
  const flagged = cases.filter((c) => !c.vulnerable && c.hit);
  return {
    title: 'Code review, ast-grep engine: bandit examples (Python), per line',
    rows: [row('all in-scope families (target: recall ≥ 70%, safe flagged ≤ 10%)', b.inScope), row('every bandit issue, audit notes included', b.all), ...[...byClass].sort(([a], [z]) => a.localeCompare(z)).map(([k, v]) => row(k, tally(v)))],
    notes: [
      `PyCQA/bandit ${banditCommit()}: labels are the issues bandit's own functional tests expect, per line (scripts/quality/bandit-labels.py).`,
      `Missed in scope: ${missed.map((c) => `${c.file}:${c.lines[0]} ${c.test_id}`).join(', ') || 'none'}.`,
      `Safe lines flagged: ${flagged.map((c) => `${c.file}:${c.lines[0]} ${c.rules.join('+')}`).join(', ') || 'none'}.`,
    ],
  };
}

/** gosec's samples, Go, per sample. */
export function measureGo(): QualityReport {
  const outcomes = gosecOutcomes();
  const g = gosecTally(outcomes);
  const byRule = new Map<string, GosecOutcome[]>();
  for (const o of outcomes) byRule.set(o.sample.rule, [...(byRule.get(o.sample.rule) ?? []), o]);
  return {
    title: 'Code review, ast-grep engine: gosec samples (Go), per sample',
    rows: [
      row('all in-scope rules (target: recall ≥ 70%, safe flagged ≤ 10%)', g.inScope),
      row('every gosec sample, out-of-scope rules included', g.all),
      ...[...byRule].map(([rule, os]) => ({ ...row(`${rule} → ${os[0]!.classes.join(', ') || 'out of scope'}`, tally(os.map((o) => ({ vulnerable: o.sample.expected > 0, hit: o.hit })))) })),
    ],
    notes: [
      `securego/gosec testutils samples; a vulnerable sample is found when the findings of its rule's classes are at least the count gosec expects.`,
      `A safe sample is flagged by any security finding, also one that another gosec rule reports on the same code (math/rand in G115's samples is G404's); docs/decisions/commercial-review.md lists those.`,
      `Missed in scope: ${outcomes.filter((o) => o.sample.expected > 0 && o.classes.length > 0 && !o.hit).map((o) => o.sample.name).join(', ') || 'none'}.`,
      `Safe samples flagged: ${outcomes.filter((o) => o.sample.expected === 0 && o.hit).map((o) => `${o.sample.name} ${[...new Set(o.rules)].join('+')}`).join(', ') || 'none'}.`,
    ],
  };
}

export async function measure(): Promise<QualityReport[]> {
  return [measurePython(), measureGo()];
}

// `npx tsx bench/quality/python-go.ts [python|go]`: one corpus's table alone, without the rest of the quality bench.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const which = process.argv[2];
  if (which !== undefined && which !== 'python' && which !== 'go') throw new Error('usage: python-go.ts [python|go]');
  for (const r of which === 'python' ? [measurePython()] : which === 'go' ? [measureGo()] : await measure()) {
    const columns = Object.keys(r.rows[0] ?? {});
    console.log([`### ${r.title}`, '', `| ${columns.join(' | ')} |`, `| ${columns.map(() => '---').join(' | ')} |`, ...r.rows.map((x) => `| ${columns.map((c) => String(x[c] ?? '')).join(' | ')} |`), ...(r.notes ?? []).map((n) => `\n- ${n}`)].join('\n'));
  }
}
