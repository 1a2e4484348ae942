// Secret scan quality (issue 43) on gitleaks' own labelled samples: the `tps` and `fps` each rule of its default
// config is validated with, rebuilt into test/fixtures/quality/gitleaks/samples.json by
// scripts/quality/gitleaks-samples.ts. Each sample is one text, scanned as a review scans a file (scanSecrets: the
// gitleaks rules and secretlint's extra rules, with the sample's path where gitleaks gives one). A true-positive
// sample is found when the scan reports any finding on it. A false-positive sample is written against one rule
// (a Cloudflare global key offered as "not an origin CA key"), so it is flagged when the scan reports a finding
// there, except a finding of a rule that gitleaks lists this very text among the true positives of; the strict
// count (any finding at all) is given beside it. Provider family: the rules/*.go file that defines the rule.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Finding } from '../../tools/commercial/review/findings.js';
import { scanSecrets } from '../../tools/commercial/review/secrets.js';
import { detect } from '../../tools/commercial/review/secrets/detect.js';
import { defaultRules } from '../../tools/commercial/review/secrets/rules.js';
import { percent, type QualityReport } from './report.js';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures', 'quality', 'gitleaks', 'samples.json');

export interface Sample {
  rule: string;
  provider: string;
  label: 'tp' | 'fp';
  text: string;
  path?: string;
}

export interface SamplesFile {
  source: { repo: string; commit: string; license: string };
  functions: number;
  samples: Sample[];
  skipped: { rule: string; provider: string; label: string; reason: string }[];
}

export function loadSamples(): SamplesFile {
  return JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as SamplesFile;
}

/** Rules on a file's path alone (a .p12 file): a review reads text, so their samples (paths, no text) are not run. */
export const PATH_ONLY_RULES = new Set(defaultRules().rules.filter((r) => r.matcher().scan === undefined).map((r) => r.id));

export interface Outcome {
  sample: Sample;
  /** TP: found. FP: flagged (a false alarm). */
  hit: boolean;
  /** FP: flagged by any finding at all, the strict reading. */
  strict: boolean;
  rules: string[];
}

/** Whole scan: every sample through scanSecrets. */
export async function evaluate(samples: Sample[]): Promise<Outcome[]> {
  const tpTexts = new Map<string, Set<string>>();
  for (const s of samples) if (s.label === 'tp') tpTexts.set(s.rule, (tpTexts.get(s.rule) ?? new Set()).add(s.text));
  const listedAsTp = (f: Finding, text: string) => f.rule_id.startsWith('secrets/') && (tpTexts.get(f.rule_id.slice('secrets/'.length))?.has(text) ?? false);
  const out: Outcome[] = [];
  for (const sample of samples) {
    if (PATH_ONLY_RULES.has(sample.rule)) continue;
    const findings = await scanSecrets(sample.text, sample.path);
    const counted = sample.label === 'tp' ? findings : findings.filter((f) => !listedAsTp(f, sample.text));
    out.push({ sample, hit: counted.length > 0, strict: findings.length > 0, rules: counted.map((f) => f.rule_id) });
  }
  return out;
}

/** Each sample against its own rule alone, as gitleaks' utils.Validate checks them: the translation's fidelity. */
export function evaluateOwnRule(samples: Sample[]): Outcome[] {
  return samples
    .filter((s) => !PATH_ONLY_RULES.has(s.rule))
    .map((sample) => {
      const found = detect(sample.text, { filePath: sample.path, only: (r) => r.id === sample.rule });
      return { sample, hit: found.length > 0, strict: found.length > 0, rules: found.map((d) => `secrets/${d.rule.id}`) };
    });
}

export interface Tally {
  tp: number;
  found: number;
  fp: number;
  flagged: number;
  strict: number;
}

export function tally(outcomes: Outcome[]): Tally {
  const tps = outcomes.filter((o) => o.sample.label === 'tp');
  const fps = outcomes.filter((o) => o.sample.label === 'fp');
  return { tp: tps.length, found: tps.filter((o) => o.hit).length, fp: fps.length, flagged: fps.filter((o) => o.hit).length, strict: fps.filter((o) => o.strict).length };
}

function row(name: string, t: Tally, skipped: number): Record<string, string | number> {
  return {
    provider: name,
    'TP samples': t.tp,
    found: t.found,
    recall: percent(t.found, t.tp),
    'FP samples': t.fp,
    flagged: t.flagged,
    'false-alarm rate': percent(t.flagged, t.fp),
    skipped,
  };
}

const clip = (s: string) => JSON.stringify(s.length > 90 ? `${s.slice(0, 90)}…` : s);

/** The slowest scan of adversarial 100 KB texts (long lines of keywords, of word characters, of `curl -u`…), ms. */
export function adversarialTimes(): { name: string; ms: number }[] {
  const N = 100_000;
  const keywords = [...new Set(defaultRules().rules.flatMap((r) => r.keywords))];
  const texts: Record<string, string> = {
    'every keyword, one line': `${keywords.join(' ')} `.repeat(Math.ceil(N / keywords.join(' ').length)).slice(0, N),
    'keyword = value, one line': keywords.map((k) => `${k}_key = "${'ab12'.repeat(6)}"`).join(' ').repeat(3).slice(0, N),
    'word characters after a keyword': `okta ${'a'.repeat(N)}`,
    'a keyword repeated': 'atlassian'.repeat(N / 9),
    '`curl -u ` repeated': 'curl -u '.repeat(N / 8),
    '`curl ` repeated': 'curl '.repeat(N / 5),
    'base64 after a keyword': `token=${'Ab1+'.repeat(N / 4)}!`,
    'an unterminated private key': `-----BEGIN RSA PRIVATE KEY-----\n${'A'.repeat(N)}`,
    'JWT-like runs': `${'eyJ'.repeat(10)}${'a'.repeat(20)}.`.repeat(N / 51),
  };
  return Object.entries(texts).map(([name, text]) => {
    detect(text, { filePath: 'x.yaml' });
    const t = performance.now();
    detect(text, { filePath: 'x.yaml' });
    return { name, ms: performance.now() - t };
  });
}

export async function measure(): Promise<QualityReport[]> {
  const file = loadSamples();
  const samples = file.samples;
  const whole = await evaluate(samples);
  const own = evaluateOwnRule(samples);
  const providers = [...new Set(samples.map((s) => s.provider))].sort();
  const skippedOf = (p?: string) =>
    file.skipped.filter((s) => p === undefined || s.provider === p).length + samples.filter((s) => PATH_ONLY_RULES.has(s.rule) && (p === undefined || s.provider === p)).length;
  const rows = providers.map((p) => row(p, tally(whole.filter((o) => o.sample.provider === p)), skippedOf(p)));
  const total = tally(whole);
  rows.push(row('Overall', total, skippedOf()));

  const misses = whole.filter((o) => o.sample.label === 'tp' && !o.hit);
  const alarms = whole.filter((o) => o.sample.label === 'fp' && o.hit);
  const ownTally = tally(own);
  const ownWrong = own.filter((o) => (o.sample.label === 'tp') !== o.hit);
  const pathOnly = samples.filter((s) => PATH_ONLY_RULES.has(s.rule));
  const slowest = adversarialTimes().sort((a, b) => b.ms - a.ms);
  return [
    {
      title: "Secrets: gitleaks' labelled samples, the whole scan (gitleaks rules + secretlint's extra rules)",
      rows,
      notes: [
        `${file.source.repo} at ${file.source.commit.slice(0, 12)}: ${file.functions} rule generators, ${samples.length} samples rebuilt by scripts/quality/gitleaks-samples.ts. Targets: recall ≥ 90%, false alarms ≤ 5%.`,
        `Overall: recall ${percent(total.found, total.tp)} (${total.found}/${total.tp}); false alarms ${percent(total.flagged, total.fp)} (${total.flagged}/${total.fp}). Strictly, counting every finding on a false-positive sample, even one of a rule that lists the same text as its own true positive: ${percent(total.strict, total.fp)} (${total.strict}/${total.fp}).`,
        `Skipped: ${file.skipped.length} samples the generator could not build${file.skipped.length ? ` (${file.skipped.map((s) => `${s.rule}: ${s.reason}`).join('; ')})` : ''}, and ${pathOnly.length} of ${[...PATH_ONLY_RULES].join(', ')} (a rule on a file's path alone; a review reads text).`,
        `Missed true positives (${misses.length}): ${misses.map((o) => `${o.sample.rule} ${clip(o.sample.text)}`).join('; ') || 'none'}.`,
        `Flagged false positives (${alarms.length}): ${alarms.map((o) => `${o.sample.rule} sample flagged by ${[...new Set(o.rules)].join(', ')}: ${clip(o.sample.text)}`).join('; ') || 'none'}.`,
        `Each sample against its own rule alone, as gitleaks' utils.Validate runs it (the translation's fidelity): ${ownTally.found}/${ownTally.tp} true positives found, ${ownTally.flagged}/${ownTally.fp} false positives flagged${ownWrong.length ? `; differing: ${ownWrong.map((o) => `${o.sample.rule} ${o.sample.label} ${clip(o.sample.text)}`).join('; ')}` : ''}.`,
        `Adversarial 100 KB texts, every rule (no timing target; linear, not catastrophic): ${slowest.map((s) => `${s.name} ${s.ms.toFixed(0)} ms`).join(', ')}.`,
      ],
    },
  ];
}
