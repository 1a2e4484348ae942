// The pieces under the secret scan: RE2 → JavaScript translation (Go's flags, dot, \s, classes), the two ways the
// scan avoids backtracking blow-ups (lazy prefixes walked back by hand, curl rules tried at their word) checked
// against the whole regex on gitleaks' samples, and the sample rebuilder's regex generator and Go interpreter.
import { describe, expect, it } from 'vitest';
import { loadSamples } from '../../bench/quality/secrets.js';
import { Interpreter, isSkip, type Value } from '../../scripts/quality/gitleaks/go-eval.js';
import { parseGo } from '../../scripts/quality/gitleaks/go-parser.js';
import { newSecret, Rand } from '../../scripts/quality/gitleaks/reggen.js';
import { matchesOf } from '../../tools/commercial/review/secrets/detect.js';
import { compileRe2, re2ToJs } from '../../tools/commercial/review/secrets/re2-to-js.js';
import { Re2SyntaxError } from '../../tools/commercial/review/secrets/re2.js';
import { defaultRules, type Matcher, RULES_FILE } from '../../tools/commercial/review/secrets/rules.js';
import fs from 'node:fs';

const full = (re: string) => (s: string) => compileRe2(`^(?:${re})$`).test(s);

describe('RE2 to JavaScript', () => {
  it('spells out (?i), keeping Go’s scope: to the end of the enclosing group, across |', () => {
    expect(full('(?i)abc')('aBC')).toBe(true);
    expect(full('(?i:a)b')('Ab')).toBe(true);
    expect(full('(?i:a)b')('AB')).toBe(false);
    const mid = full('a(?i)b|c');
    expect([mid('aB'), mid('C'), mid('AB')]).toEqual([true, true, false]);
    const api = full('(?i)x(?-i:[Aa]pi|API)');
    expect([api('XApi'), api('xAPI'), api('xaPI')]).toEqual([true, true, false]);
    expect(full('(?i)k')('\u212a')).toBe(true); // Go folds the Kelvin sign with k
    expect(full('(?i)[^k]')('K')).toBe(false);
    expect(full('(?i)[\\W]')('s')).toBe(false);
  });

  it("keeps Go's dot, \\s, anchors, classes and escapes", () => {
    expect([full('a.b')('a\rb'), full('a.b')('a\nb'), full('(?s)a.b')('a\nb')]).toEqual([true, false, true]);
    expect(full('\\s')('\v')).toBe(false); // JavaScript's \s has \v, Go's does not
    expect(compileRe2('a\\z').test('a\n')).toBe(false);
    expect(full('[]a]+')(']a]')).toBe(true);
    expect([full('[^]]+')('abc'), full('[^]]+')(']')]).toEqual([true, false]);
    expect([full('[[:alnum:]]+')('aZ9'), full('[[:alnum:]]+')('_')]).toEqual([true, false]);
    expect(full('x{')('x{')).toBe(true);
    expect(full('\\x41\\x{263a}\\101')('A\u263aA')).toBe(true);
    expect(full('\\Qa.b\\E')('a.b')).toBe(true);
    expect(full('\\Qa.b\\E')('axb')).toBe(false);
  });

  it('numbers groups as Go does (named groups are plain groups)', () => {
    expect(re2ToJs('(?P<name>x)(?:y)(z)').groups).toBe(2);
    expect(compileRe2('(?P<a>x)(z)').exec('xz')?.[2]).toBe('z');
  });

  it('refuses what it does not translate, rather than guessing', () => {
    expect(() => re2ToJs('(a)\\1')).toThrow(Re2SyntaxError);
    expect(() => re2ToJs('\\pL')).toThrow(Re2SyntaxError);
    expect(() => compileRe2('a', 'i')).toThrow();
  });

  it("compiles every pattern of gitleaks' default config", () => {
    const data = JSON.parse(fs.readFileSync(RULES_FILE, 'utf8')) as { rules: { regex?: string; path?: string; allowlists?: { regexes?: string[]; paths?: string[] }[] }[] };
    const patterns = data.rules.flatMap((r) => [r.regex, r.path, ...(r.allowlists ?? []).flatMap((a) => [...(a.regexes ?? []), ...(a.paths ?? [])])]).filter((p): p is string => p !== undefined);
    expect(patterns.length).toBeGreaterThan(250);
    for (const p of patterns) expect(() => compileRe2(p, 'g'), p).not.toThrow();
  });
});

describe('backtracking guards give the matches of the whole regex', () => {
  const samples = loadSamples().samples;
  const wholeMatches = (regex: string, text: string) => {
    const re = compileRe2(regex, 'g');
    const out: string[] = [];
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0] === '') re.lastIndex++;
      else out.push(`${m.index}:${m[0]}`);
    }
    return out;
  };
  const data = JSON.parse(fs.readFileSync(RULES_FILE, 'utf8')) as { rules: { id: string; regex?: string }[] };
  const regexOf = new Map(data.rules.map((r) => [r.id, r.regex]));

  it('lazy prefixes walked back (100 rules): same matches on every sample, and on samples run together', () => {
    const rules = defaultRules().rules.filter((r) => r.matcher().prefix.length > 0);
    expect(rules.length).toBeGreaterThanOrEqual(90);
    const texts = samples.map((s) => s.text);
    const together = Array.from({ length: 12 }, (_, i) => texts.slice(i * 550, i * 550 + 40).join(i % 2 ? ' ' : '\n'));
    for (const rule of rules) {
      const regex = regexOf.get(rule.id)!;
      const own = samples.filter((s) => s.rule === rule.id).map((s) => s.text);
      for (const text of [...own, ...together]) {
        const got = matchesOf(rule.matcher(), text).map((m) => `${m.index}:${m.text}`);
        expect(got, `${rule.id} on ${JSON.stringify(text.slice(0, 80))}`).toEqual(wholeMatches(regex, text));
      }
    }
  });

  it('curl rules tried at their word: same matches on their samples', () => {
    const rules = defaultRules().rules.filter((r) => r.matcher().anchor);
    expect(rules.map((r) => r.id).sort()).toEqual(['curl-auth-header', 'curl-auth-user']);
    const curl = samples.filter((s) => s.provider === 'curl').map((s) => s.text);
    for (const rule of rules) {
      for (const text of [...curl, curl.join('\n')]) {
        const got = matchesOf(rule.matcher() as Matcher, text).map((m) => `${m.index}:${m.text}`);
        expect(got, `${rule.id} on ${JSON.stringify(text.slice(0, 80))}`).toEqual(wholeMatches(regexOf.get(rule.id)!, text));
      }
    }
  });
});

describe('sample rebuilder', () => {
  it('generates as reggen does with limit 1: {n,} gives n, * and ? give 0 or 1, (?i) letters upper-case', () => {
    const rand = new Rand(7);
    expect(newSecret('[a-z]{17,}', rand)).toMatch(/^[a-z]{17}$/);
    expect(newSecret('ab{2,5}', rand)).toBe('abb');
    expect(newSecret('(?i)abc', rand)).toBe('ABC');
    for (let i = 0; i < 50; i++) {
      expect(newSecret('x*', rand)).toMatch(/^x?$/);
      expect(newSecret('[^a]', rand)).toMatch(/^[^a]$/);
      expect(newSecret('.', rand)).not.toBe('\n');
    }
    const a = newSecret('[A-Z2-7]{16}', new Rand(1));
    expect(newSecret('[A-Z2-7]{16}', new Rand(1))).toBe(a); // seeded: the fixture is the same on every run
  });

  it('makes strings the regex matches, for the generators gitleaks calls', () => {
    const rand = new Rand(11);
    const regexes = ['ey[a-zA-Z0-9]{17,}\\.ey[a-zA-Z0-9\\/\\\\_-]{17,}\\.(?:[a-zA-Z0-9\\/\\\\_-]{10,}={0,2})?', '(?:EAAA|sq0atp-)[\\w-]{22,60}', 'ops_eyJ[a-zA-Z0-9+/]{250,}={0,3}', 'sntryu_[a-f0-9]{64}', '\\{"iat":[\\d\\.]{3,6},"url":"https://\\w{10,20}"\\}'];
    for (const re of regexes) for (let i = 0; i < 20; i++) expect(full(re)(newSecret(re, rand)), re).toBe(true);
  });

  it('interprets the Go of the rule generators: literals, maps, append, range, Sprintf, replacers, multiple returns', () => {
    const go = new Interpreter();
    go.loadPackage('rules', [
      parseGo(`package rules
import ("fmt"; "strings")
var words = []string{"alpha", "beta"}
func pair() (string, int) { return "x", 2 }
func Samples() []string {
	m := map[string]string{"a": "{i}_token = \\"{s}\\"", "b": \`{I}={s}\`}
	r := strings.NewReplacer("{i}", "aws", "{I}", strings.ToUpper("aws"), "{s}", "S3")
	var out []string
	for _, v := range m {
		out = append(out, r.Replace(v))
	}
	s, n := pair()
	out = append(out, fmt.Sprintf("%s-%d", s, n), words[1]+"!")
	out = append(out, words...)
	return append(out, unknown.Thing("z"))
}`),
    ]);
    const out = go.callPackageFunc('rules', 'Samples') as Value[];
    expect(out.slice(0, -1)).toEqual(['aws_token = "S3"', 'AWS=S3', 'x-2', 'beta!', 'alpha', 'beta']);
    expect(isSkip(out[out.length - 1])).toBe(true); // one sample it cannot build is kept as skipped, not fatal
  });
});
