// Code review quality for JavaScript and TypeScript on public labelled corpora (issue 43): njsscan's Node test
// assets and the rule tests of eslint-plugin-security, @microsoft/eslint-plugin-sdl and eslint-plugin-no-unsanitized,
// derived into test/fixtures/quality/<corpus>/cases.json by scripts/quality/. Each file or snippet is reviewed once
// by the model-free review (engine.ts's review: ESLint with its plugins, the taint check, the secret scan), and each
// case is judged on the findings: a vulnerable case is found when a finding whose CWE is in the case's family
// starts within the case's lines; a safe case is flagged when any security finding starts within them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Lang, parse, type SgNode } from '@ast-grep/napi';
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

/**
 * Reviews each distinct file or snippet of the cases once and judges every case. `asTypeScript`: the JavaScript
 * cases are first given TypeScript's usual annotations (typeAnnotated) and reviewed as TypeScript.
 */
export async function evaluate(corpus: string, cases: QualityCase[], options: { asTypeScript?: boolean } = {}): Promise<CaseOutcome[]> {
  const bySource = new Map<string, QualityCase[]>();
  for (const c of cases) bySource.set(sourceKey(c), [...(bySource.get(sourceKey(c)) ?? []), c]);
  const out: CaseOutcome[] = [];
  for (const group of bySource.values()) {
    const first = group[0]!;
    let code = first.code ?? fs.readFileSync(path.join(FIXTURES, corpus, first.file!), 'utf8');
    let language = first.language;
    if (options.asTypeScript && language === 'javascript') [code, language] = [typeAnnotated(code, first.jsx ?? /\.jsx$/.test(first.file ?? '')), 'typescript'];
    const ext = language === 'typescript' ? (first.jsx ? 'tsx' : 'ts') : first.jsx ? 'jsx' : 'js';
    const r = await review({ code, language, filename: first.file?.replace(/\.js$/, `.${ext}`) ?? `case.${ext}` });
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

const PARAM_TYPES: Record<string, string> = { req: 'Request', request: 'Request', res: 'Response', response: 'Response', next: 'NextFunction' };
const REQUEST_ROOT = /^(req|request)$/;

/**
 * JavaScript given the annotations TypeScript code carries, on the same lines: every parameter typed (`req:
 * Request`, `res: Response`, `next: NextFunction`, others `any`), every read of the request's data asserted
 * (`(req.query.id as string)`). What the TypeScript path finds on it should be what the JavaScript path finds.
 */
export function typeAnnotated(code: string, jsx: boolean): string {
  const edits: [number, string][] = [];
  const visit = (n: SgNode): void => {
    const kind = n.kind() as string;
    const kids = n.children();
    if ((kind === 'required_parameter' || kind === 'optional_parameter') && !kids.some((k) => (k.kind() as string) === 'type_annotation')) {
      const target = kids.find((k) => k.isNamed() && (k.kind() as string) !== 'decorator');
      if (target) edits.push([target.range().end.index, `: ${PARAM_TYPES[target.text()] ?? 'any'}`]);
    }
    if (kind === 'arrow_function') {
      const bare = kids.find((k) => (k.kind() as string) === 'identifier');
      if (bare && bare.range().end.index < (kids.find((k) => (k.kind() as string) === '=>')?.range().start.index ?? 0)) {
        edits.push([bare.range().start.index, '(']);
        edits.push([bare.range().end.index, `: ${PARAM_TYPES[bare.text()] ?? 'any'})`]);
      }
    }
    if ((kind === 'member_expression' || kind === 'subscript_expression') && isRequestRead(n)) {
      edits.push([n.range().start.index, '(']);
      edits.push([n.range().end.index, ' as string)']);
      return;
    }
    kids.forEach(visit);
  };
  visit(parse(jsx ? Lang.Tsx : Lang.TypeScript, code).root());
  const chars = [...code.split('').map((ch) => [ch]), []];
  for (const [at, text] of edits) chars[at]!.unshift(text);
  return chars.map((c) => c.join('')).join('');
}

/** `req.query.id`, `req.body['k']`: two reads deep from the request, read as a value (not called, not written). */
function isRequestRead(n: SgNode): boolean {
  const obj = n.children()[0];
  const root = obj?.children()[0];
  if (!obj || !root || !/member_expression|subscript_expression/.test(obj.kind() as string) || (root.kind() as string) !== 'identifier' || !REQUEST_ROOT.test(root.text())) return false;
  const parent = n.parent();
  const pk = (parent?.kind() as string | undefined) ?? '';
  if (/member_expression|subscript_expression|update_expression|augmented_assignment_expression/.test(pk)) return false;
  if ((pk === 'call_expression' || pk === 'assignment_expression' || pk === 'new_expression') && parent!.children()[0]!.range().start.index === n.range().start.index) return false;
  return true;
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
  reports.push(await typedCheck());
  const byLang = LANGS.map(([lang, title]) => ({ title, t: tally(all.filter((o) => o.case.language === lang)) })).map(({ title, t }) => row(title, t));
  reports.push({ title: 'Code review: JavaScript and TypeScript, all four corpora (targets: recall ≥ 70%, safe cases flagged ≤ 10%)', rows: [...byLang, row('All', tally(all))] });
  return reports;
}

/**
 * The TypeScript path held to the JavaScript one: every JavaScript case of the four corpora given TypeScript's
 * annotations (typeAnnotated) and reviewed as TypeScript, beside the same cases reviewed as JavaScript. Not part of
 * the targets' figures (the labels are the JavaScript's); a gap is something the TypeScript path loses.
 */
async function typedCheck(): Promise<QualityReport> {
  const rows: Record<string, string | number>[] = [];
  for (const name of JS_CORPORA) {
    const cases = loadCorpus(name).cases.filter((c) => c.language === 'javascript');
    const [js, ts] = [tally(await evaluate(name, cases)), tally(await evaluate(name, cases, { asTypeScript: true }))];
    rows.push({ corpus: name, vulnerable: js.vulnerable, 'recall as JavaScript': percent(js.found, js.vulnerable), 'recall typed, as TypeScript': percent(ts.found, ts.vulnerable), safe: js.safe, 'flagged as JavaScript': percent(js.flagged, js.safe), 'flagged typed, as TypeScript': percent(ts.flagged, ts.safe) });
  }
  return { title: 'Code review: the JavaScript cases given TypeScript annotations (parameters typed, request reads asserted), reviewed as TypeScript', rows };
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
