// Code review quality for JavaScript and TypeScript on public labelled corpora (issue 43): njsscan's Node test
// assets and the rule tests of eslint-plugin-security, @microsoft/eslint-plugin-sdl and eslint-plugin-no-unsanitized,
// derived into test/fixtures/quality/<corpus>/cases.json by scripts/quality/. Each file or snippet is reviewed once
// by the model-free review (engine.ts's review: ESLint with its plugins, the taint check, the secret scan), and each
// case is judged on the findings: a vulnerable case is found when a finding whose CWE is in the case's family
// starts within the case's lines; a safe case is flagged when any security finding starts within them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { review } from '../../tools/commercial/review/engine.js';
import type { Finding } from '../../tools/commercial/review/findings.js';
import { FAMILIES, type QualityCase, type QualityCorpus } from '../../scripts/quality/eslint-families.js';
import { percent, type QualityReport } from './report.js';

export const JS_CORPORA = ['njsscan', 'eslint-plugin-security', 'eslint-plugin-sdl', 'eslint-plugin-no-unsanitized'] as const;
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures', 'quality');

export function loadCorpus(name: string): QualityCorpus {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name, 'cases.json'), 'utf8')) as QualityCorpus;
}

export interface CaseOutcome {
  case: QualityCase;
  /** Vulnerable: a finding of its family in its lines. Safe: a security finding in its lines (a false alarm). */
  hit: boolean;
  /** Vulnerable only: found on the labelled line itself, the strict reading. */
  onLine?: boolean;
  /** The rule ids that decided it (found it, or flagged it). */
  rules: string[];
}

const sourceKey = (c: QualityCase) => c.file ?? `${c.language}:${c.jsx ? 'jsx' : ''}:${c.code}`;

/** Reviews each distinct file or snippet of the cases once and judges every case. */
export async function evaluate(corpus: string, cases: QualityCase[]): Promise<CaseOutcome[]> {
  const bySource = new Map<string, QualityCase[]>();
  for (const c of cases) bySource.set(sourceKey(c), [...(bySource.get(sourceKey(c)) ?? []), c]);
  const out: CaseOutcome[] = [];
  for (const group of bySource.values()) {
    const first = group[0]!;
    const code = first.code ?? fs.readFileSync(path.join(FIXTURES, corpus, first.file!), 'utf8');
    const ext = first.language === 'typescript' ? (first.jsx ? 'tsx' : 'ts') : first.jsx ? 'jsx' : 'js';
    const r = await review({ code, language: first.language, filename: first.file ?? `case.${ext}` });
    const findings = r.findings as (Finding & { also?: string[] })[];
    for (const c of group) out.push(judge(c, findings));
  }
  return out;
}

function judge(c: QualityCase, findings: (Finding & { also?: string[] })[]): CaseOutcome {
  const [from, to] = c.lines;
  const inRange = findings.filter((f) => f.line >= from && f.line <= to && f.category === 'security');
  if (!c.vulnerable) return { case: c, hit: inRange.length > 0, rules: inRange.map((f) => f.rule_id) };
  const cwes: readonly string[] = FAMILIES[c.family].cwes;
  const ofFamily = inRange.filter((f) => f.cwe && cwes.includes(f.cwe));
  return { case: c, hit: ofFamily.length > 0, onLine: ofFamily.some((f) => f.line === c.line), rules: ofFamily.map((f) => f.rule_id) };
}

export interface Tally { vulnerable: number; found: number; safe: number; flagged: number }

export function tally(outcomes: CaseOutcome[]): Tally {
  const v = outcomes.filter((o) => o.case.vulnerable);
  const s = outcomes.filter((o) => !o.case.vulnerable);
  return { vulnerable: v.length, found: v.filter((o) => o.hit).length, safe: s.length, flagged: s.filter((o) => o.hit).length };
}

const LANGS = [['javascript', 'JavaScript'], ['typescript', 'TypeScript']] as const;

export async function measure(): Promise<QualityReport[]> {
  const reports: QualityReport[] = [];
  const all: CaseOutcome[] = [];
  for (const name of JS_CORPORA) {
    const corpus = loadCorpus(name);
    const outcomes = await evaluate(name, corpus.cases);
    all.push(...outcomes);
    const rows = LANGS.map(([lang, title]) => ({ title, t: tally(outcomes.filter((o) => o.case.language === lang)) }))
      .filter((r) => r.t.vulnerable + r.t.safe > 0)
      .map(({ title, t }) => row(title, t));
    const notes = [`${corpus.repo} at ${corpus.commit.slice(0, 12)}; ${corpus.mapping}`];
    if (name === 'njsscan') {
      const v = outcomes.filter((o) => o.case.vulnerable);
      notes.push(`Strict reading (a finding of the family on the labelled line itself): ${percent(v.filter((o) => o.onLine).length, v.length)} recall.`);
    }
    notes.push(...missNotes(outcomes));
    for (const e of corpus.excluded) notes.push(`Left out: ${e.count} ${e.why}.`);
    reports.push({ title: `Code review: ${name} (JavaScript, TypeScript)`, rows, notes });
  }
  const byLang = LANGS.map(([lang, title]) => ({ title, t: tally(all.filter((o) => o.case.language === lang)) })).map(({ title, t }) => row(title, t));
  reports.push({ title: 'Code review: JavaScript and TypeScript, all four corpora (targets: recall ≥ 70%, safe cases flagged ≤ 10%)', rows: [...byLang, row('All', tally(all))] });
  return reports;
}

function row(title: string, t: Tally): Record<string, string | number> {
  return { language: title, vulnerable: t.vulnerable, found: t.found, recall: percent(t.found, t.vulnerable), safe: t.safe, flagged: t.flagged, 'false alarms': percent(t.flagged, t.safe) };
}

/** Per family, the vulnerable cases missed; per rule, the safe cases flagged. */
function missNotes(outcomes: CaseOutcome[]): string[] {
  const missed = new Map<string, [number, number]>();
  for (const o of outcomes.filter((x) => x.case.vulnerable)) {
    const k = o.case.family;
    const [m, n] = missed.get(k) ?? [0, 0];
    missed.set(k, [m + (o.hit ? 0 : 1), n + 1]);
  }
  const misses = [...missed].filter(([, [m]]) => m > 0).sort((a, b) => b[1][0] - a[1][0]).map(([k, [m, n]]) => `${k} ${m}/${n}`);
  const flaggedBy = new Map<string, number>();
  for (const o of outcomes.filter((x) => !x.case.vulnerable && x.hit)) for (const r of new Set(o.rules)) flaggedBy.set(r, (flaggedBy.get(r) ?? 0) + 1);
  const flags = [...flaggedBy].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} ${n}`);
  return [
    ...(misses.length ? [`Missed, by family (missed/labelled): ${misses.join(', ')}.`] : []),
    ...(flags.length ? [`Safe cases flagged, by rule: ${flags.join(', ')}.`] : []),
  ];
}
