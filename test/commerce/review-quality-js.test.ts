// A floor under the JavaScript/TypeScript review's quality (issue 43): the model-free review (engine.ts) run directly
// on a fixed half of the labelled corpora of test/fixtures/quality/ (every other file or snippet, in corpus order, so
// that every family stays represented), judged as bench/quality/javascript.ts judges the whole. A change that finds
// fewer vulnerable cases, or flags more safe ones, than measured here (beyond a margin of 2% of the cases, at least
// one case) fails. The same JavaScript cases given TypeScript's annotations and reviewed as TypeScript must find
// what they find as JavaScript (the TypeScript path loses nothing), and TypeScript-only spellings of the classes
// (types the rules ask for, slips amaro refuses, framework-typed handlers) are held case by case below.
import { describe, expect, it } from 'vitest';
import { evaluate, JS_CORPORA, loadCorpus, tally } from '../../bench/quality/javascript.js';
import { lintJs } from '../../tools/commercial/review/eslint.js';
import type { QualityCase } from '../../scripts/quality/eslint-families.js';
import { ENGINES_ONLY_ONCE } from '../helpers/each-store.js';

/** Measured on the subset: vulnerable cases found, safe cases flagged (of how many). */
const MEASURED: Record<string, Record<string, { vulnerable: number; found: number; safe: number; flagged: number }>> = {
  njsscan: { javascript: { vulnerable: 160, found: 152, safe: 208, flagged: 10 } },
  'eslint-plugin-security': { javascript: { vulnerable: 43, found: 42, safe: 51, flagged: 0 } },
  'eslint-plugin-sdl': { javascript: { vulnerable: 45, found: 37, safe: 35, flagged: 0 }, typescript: { vulnerable: 7, found: 4, safe: 3, flagged: 0 } },
  'eslint-plugin-no-unsanitized': { javascript: { vulnerable: 32, found: 32, safe: 31, flagged: 0 }, typescript: { vulnerable: 3, found: 3, safe: 5, flagged: 0 } },
};

/** Every other file or snippet of a corpus, in its order. */
function half(cases: QualityCase[]): QualityCase[] {
  const sources = [...new Set(cases.map((c) => c.file ?? `${c.language}:${c.jsx ? 'jsx' : ''}:${c.code}`))];
  const kept = new Set(sources.filter((_, i) => i % 2 === 0));
  return cases.filter((c) => kept.has(c.file ?? `${c.language}:${c.jsx ? 'jsx' : ''}:${c.code}`));
}

const margin = (n: number) => Math.max(1, Math.floor(n * 0.02));

// The engines alone, no store: run once, on the SQLite pass (CI runs the suite again on PostgreSQL).
describe.skipIf(ENGINES_ONLY_ONCE)('JavaScript/TypeScript review quality floor', () => {
  for (const name of JS_CORPORA) {
    it(`${name}: recall and false alarms no worse than measured`, async () => {
      const outcomes = await evaluate(name, half(loadCorpus(name).cases));
      for (const [language, m] of Object.entries(MEASURED[name]!)) {
        const t = tally(outcomes.filter((o) => o.case.language === language));
        expect({ vulnerable: t.vulnerable, safe: t.safe }, `${name} ${language}: the subset changed`).toEqual({ vulnerable: m.vulnerable, safe: m.safe });
        expect(t.found, `${name} ${language}: vulnerable cases found`).toBeGreaterThanOrEqual(m.found - margin(m.vulnerable));
        expect(t.flagged, `${name} ${language}: safe cases flagged`).toBeLessThanOrEqual(m.flagged + margin(m.safe));
      }
      // The JavaScript cases typed and reviewed as TypeScript: what the TypeScript path finds.
      const js = MEASURED[name]!.javascript!;
      const typed = tally(await evaluate(name, half(loadCorpus(name).cases).filter((c) => c.language === 'javascript'), { asTypeScript: true }));
      expect(typed.found, `${name} typed as TypeScript: vulnerable cases found`).toBeGreaterThanOrEqual(js.found - margin(js.vulnerable));
      expect(typed.flagged, `${name} typed as TypeScript: safe cases flagged`).toBeLessThanOrEqual(js.flagged + margin(js.safe));
    }, 120_000);
  }
});

/**
 * Lines marked `// vuln` carry a finding of the CWE (or of the one the marker names, `// vuln CWE-346`), lines
 * marked `// safe` no security finding (of the rules `only` picks, when given). The code is TypeScript.
 */
function expectMarkedTs(code: string, cwe: string, only?: RegExp): void {
  const out = lintJs(code, true);
  if (!('findings' in out)) throw new Error(`not linted: ${JSON.stringify(out)}`);
  code.split('\n').forEach((l, i) => {
    const at = out.findings.filter((f) => f.line === i + 1 && f.category === 'security' && (!only || only.test(f.rule_id)));
    const vuln = /\/\/ vuln(?: (CWE-\d+))?/.exec(l);
    if (vuln) expect(at.map((f) => f.cwe), `line ${i + 1}: ${l.trim()}`).toContain(vuln[1] ?? cwe);
    if (l.includes('// safe')) expect(at.map((f) => `${f.rule_id} ${f.message}`), `line ${i + 1}: ${l.trim()}`).toEqual([]);
  });
}

describe.skipIf(ENGINES_ONLY_ONCE)('TypeScript: what the types say reaches the rules', () => {
  it('finds the document behind a name, a typed parameter or a function declared to return it, not a look-alike', () => {
    expectMarkedTs(`interface Jar { cookie: string; domain: string }
const page = window.document;
page.domain = 'example.org'; // vuln CWE-346
function setCookie(target: Document, v: string) {
  target.cookie = v; // vuln
}
const currentDoc = (): Document => document;
currentDoc().cookie = 'a=b'; // vuln
function store(jar: Jar) {
  jar.cookie = 'x'; // safe
  jar.domain = 'y'; // safe
}
const frameDoc = (frame as HTMLIFrameElement).contentDocument!;
frameDoc.cookie = 'k=v'; // vuln`, 'CWE-565');
  });

  it('finds Math.random through what holds Math, not a random() of something else', () => {
    expectMarkedTs(`function rng(): Math { return Math; }
const token = rng().random().toString(36); // vuln
const M = Math;
const id = M.random(); // vuln
class Dice { random(): number { return 4; } }
const dice: Dice = new Dice();
const roll = dice.random(); // safe`, 'CWE-338');
  });

  it('reads handlers typed by their framework whatever their parameters are named', () => {
    expectMarkedTs(`import { exec } from 'node:child_process';
import type { Request, Response } from 'express';
export function run(input: Request, output: Response): void {
  exec('tar xf ' + input.query.archive); // vuln
  exec('uptime'); // safe
  output.end();
}`, 'CWE-78');
    expectMarkedTs(`export async function GET(incoming: Request) {
  const q = new URL(incoming.url).searchParams.get('q');
  const page = new Response('<h1>' + q + '</h1>', { headers: { 'Content-Type': 'text/html' } }); // vuln
  const text = new Response('you asked for ' + q); // safe
  return Math.random() > 0.5 ? page : text;
}`, 'CWE-79');
  });

  it('reviews TypeScript that amaro refuses: CommonJS imports, and a handler body with await outside its function', () => {
    expectMarkedTs(`import cp = require('child_process');
import express = require('express');
const app = express();
app.get('/x', (req: express.Request, res: express.Response) => {
  cp.exec(req.query.cmd as string); // vuln
});`, 'CWE-78');
    expectMarkedTs(`import { exec } from 'node:child_process';
const cmd: string = req.body.cmd;
const out = await new Promise<string>((ok) => exec(cmd, (_e, so) => ok(so))); // vuln`, 'CWE-78');
  });

  it('does not take a type check for validation', () => {
    expectMarkedTs(`import { exec } from 'node:child_process';
const isString = (x: unknown): x is string => typeof x === 'string';
const isAllowedHost = (x: string) => ['a', 'b'].includes(x);
export function h(req: Request) {
  const target = req.body.target;
  if (isString(target)) exec('ping ' + target); // vuln
  if (isAllowedHost(target)) exec('ping ' + target); // safe
}`, 'CWE-78', /^taint\//);
  });
});
