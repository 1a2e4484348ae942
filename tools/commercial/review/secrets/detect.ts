// gitleaks' detection (detect/detect.go) over one text, as its `DetectString` does it with no decoding pass: rules
// whose keywords the lower-cased text holds, every match of the regex, the secret group, the entropy floor, the
// global allowlist then the rule's, a `gitleaks:allow` on the line, and generic findings dropped where a provider
// rule found a secret holding theirs on the same line. Departures, each for a text gitleaks' samples never hold:
// the "line" an allowlist reads is the lines the match spans (gitleaks takes the text from its start when the match
// is on a last line without a newline), cut to LINE_WINDOW characters either side of the match on a very long line
// (so a minified file costs no more per match than a short one); a curl rule's match must end within ANCHOR_WINDOW
// characters of its `curl`; empty matches are ignored (no secret is empty); a generic finding inside the span of a
// provider rule's secret is dropped even when the two matches start on different lines.
import type { PrefixStep } from './re2-to-js.js';
import { defaultRules, type Allowlist, type Matcher, type Rule, type RuleSet } from './rules.js';

export interface Detection {
  rule: Rule;
  /** UTF-16 offsets in the text: the secret (the secret group, or the whole match without the newlines around it). */
  start: number;
  end: number;
  secret: string;
  /** Where the whole match starts (before the secret: the variable a generic key is assigned to…). */
  matchStart: number;
  /** 0-based line of the match's start, which gitleaks compares to fold generic findings. */
  matchLine: number;
}

export interface DetectOptions {
  /** The file's path, for the rules and allowlists that read it (Kubernetes secrets are YAML files…). */
  filePath?: string;
  rules?: RuleSet;
  /** Only these rules (gitleaks' own validation runs one rule at a time). */
  only?: (rule: Rule) => boolean;
}

export const LINE_WINDOW = 2_000;
export const ANCHOR_WINDOW = 2_048;
const ALLOW_MARK = 'gitleaks:allow';

/** Shannon entropy as gitleaks computes it: over runes, divided by the length in UTF-8 bytes. */
export function shannonEntropy(s: string): number {
  if (s === '') return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const len = Buffer.byteLength(s, 'utf8');
  let e = 0;
  for (const n of counts.values()) {
    const f = n / len;
    e -= f * Math.log2(f);
  }
  return e;
}

/** gitleaks' RegexAllowed: the leftmost match must be non-empty. */
function regexAllows(re: RegExp | undefined, target: string): boolean {
  if (!re || target === '') return false;
  const m = re.exec(target);
  return m !== null && m[0] !== '';
}

function hasStopword(a: Allowlist, secret: string): boolean {
  if (a.stopwords.length === 0 || secret === '') return false;
  const s = secret.toLowerCase();
  return a.stopwords.some((w) => s.includes(w));
}

/** gitleaks' checkCommitOrPathAllowed, without commits: a path allowlist skips the whole file. */
function pathAllowed(allowlists: Allowlist[], filePath: string | undefined): boolean {
  if (!filePath) return false;
  return allowlists.some((a) => {
    const byPath = a.path !== undefined && a.path.test(filePath);
    if (!a.and) return byPath;
    if (a.regex || a.stopwords.length) return false; // checked with the finding
    return byPath;
  });
}

interface Candidate {
  secret: string;
  match: string;
  line: () => string;
}

/** gitleaks' checkFindingAllowed. */
function findingAllowed(allowlists: Allowlist[], c: Candidate, filePath: string | undefined): boolean {
  return allowlists.some((a) => {
    const target = a.target === 'match' ? c.match : a.target === 'line' ? c.line() : c.secret;
    const byRegex = regexAllows(a.regex, target);
    const byStopword = hasStopword(a, c.secret);
    if (!a.and) return byRegex || byStopword;
    const checks: boolean[] = [];
    if (a.path) checks.push(filePath !== undefined && a.path.test(filePath));
    if (a.regex) checks.push(byRegex);
    if (a.stopwords.length) checks.push(byStopword);
    return checks.every(Boolean);
  });
}

/** Line starts of a text, for the line an offset is on. */
export class Lines {
  private readonly starts: number[] = [0];
  /** Lines holding `gitleaks:allow`. */
  private readonly marked = new Set<number>();

  constructor(private readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
    for (let i = text.indexOf(ALLOW_MARK); i !== -1; i = text.indexOf(ALLOW_MARK, i + 1)) this.marked.add(this.lineOf(i));
  }

  /** 0-based line holding offset `i`. */
  lineOf(i: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** 1-based line and column (UTF-16 units, as editors and ESLint count) of offset `i`. */
  position(i: number): { line: number; column: number } {
    const l = this.lineOf(i);
    return { line: l + 1, column: i - this.starts[l] + 1 };
  }

  /** Whether a line from the one holding `from` to the one holding `to - 1` says gitleaks:allow. */
  allowed(from: number, to: number): boolean {
    if (this.marked.size === 0) return false;
    for (let l = this.lineOf(from), last = this.lineOf(Math.max(from, to - 1)); l <= last; l++) if (this.marked.has(l)) return true;
    return false;
  }

  /** The whole lines from the one holding `from` to the one holding `to - 1`, at most LINE_WINDOW either side. */
  span(from: number, to: number): string {
    const first = Math.max(this.starts[this.lineOf(from)], from - LINE_WINDOW);
    const nl = this.text.indexOf('\n', Math.max(from, to - 1));
    return this.text.slice(first, Math.min(nl === -1 ? this.text.length : nl, to + LINE_WINDOW));
  }
}

function inRanges(code: number, step: PrefixStep): boolean {
  return step.ranges.some(([lo, hi]) => code >= lo && code <= hi);
}

export interface Match {
  index: number;
  text: string;
  end: number;
}

/**
 * The next match of an anchored rule (Rule.anchor): its regex can only match where its word is, so it is tried
 * there, on the text from the word to ANCHOR_WINDOW characters on. A match running to the window's end, short of
 * the text's end, could be cut short (or end at the cut as if at the end of the text): it is not reported.
 */
function nextAnchoredMatch(rule: Matcher, text: string, from: number): Match | null {
  const re = rule.scan!;
  const { word, oneOf } = rule.anchor!;
  for (let i = text.indexOf(word, from); i !== -1; i = text.indexOf(word, i + 1)) {
    const regionStart = Math.max(0, i - 1); // the character before the word, for \b
    const regionEnd = Math.min(text.length, i + ANCHOR_WINDOW);
    const region = text.slice(regionStart, regionEnd);
    if (oneOf && !oneOf.some((s) => region.includes(s))) continue;
    re.lastIndex = i - regionStart;
    const m = re.exec(region);
    if (m === null || m.index !== i - regionStart || m[0] === '') continue;
    const end = regionStart + m.index + m[0].length;
    if (end === regionEnd && regionEnd < text.length) continue;
    return { index: i, text: m[0], end };
  }
  return null;
}

/** The next match at or after `from`: the rule's regex without its lazy prefixes, then the prefixes walked back. */
function nextMatch(rule: Matcher, text: string, from: number): Match | null {
  if (rule.anchor) return nextAnchoredMatch(rule, text, from);
  const re = rule.scan!;
  for (re.lastIndex = from; ; ) {
    const m = re.exec(text);
    if (m === null) return null;
    const end = m.index + m[0].length;
    let start = m.index;
    for (let s = rule.prefix.length - 1; s >= 0; s--) {
      const step = rule.prefix[s];
      for (let n = 0; n < step.max && start > from && inRanges(text.charCodeAt(start - 1), step); n++) start--;
    }
    if (m[0] === '') {
      re.lastIndex = m.index + 1; // no secret is empty; stepping on keeps the search from stopping here
      continue;
    }
    return { index: start, text: text.slice(start, end), end };
  }
}

/** Every match of a rule in a text, left to right without overlap, as Go's FindAllStringIndex gives them. */
export function matchesOf(matcher: Matcher, text: string): Match[] {
  const out: Match[] = [];
  for (let m = nextMatch(matcher, text, 0); m !== null; m = nextMatch(matcher, text, m.end)) out.push(m);
  return out;
}

function detectRule(rule: Rule, text: string, lines: Lines, set: RuleSet, filePath: string | undefined): Detection[] {
  const matcher = rule.matcher();
  const { scan, once, path, allowlists } = matcher;
  if (pathAllowed(allowlists, filePath)) return [];
  if (path && !(filePath !== undefined && path.test(filePath))) return [];
  if (!scan || !once) return []; // a rule on the path alone names a kind of file, not a secret in text
  const out: Detection[] = [];
  for (const m of matchesOf(matcher, text)) {
    const lead = m.text.length - m.text.replace(/^\n+/, '').length;
    const match = m.text.replace(/^\n+|\n+$/g, '');
    const matchStart = m.index + lead;
    if (lines.allowed(matchStart, matchStart + match.length)) continue;
    let secret = match;
    let start = matchStart;
    const g = once.exec(match);
    if (g && g.length >= 2) {
      let k = rule.secretGroup;
      if (k > 0 && g.length <= k) continue;
      if (k === 0) k = g.findIndex((s, i) => i > 0 && s !== undefined && s !== '');
      if (k > 0) {
        secret = g[k] ?? '';
        start = matchStart + (g.indices?.[k]?.[0] ?? 0);
      }
    }
    if (rule.entropy !== 0 && shannonEntropy(secret) <= rule.entropy) continue;
    const c: Candidate = { secret, match, line: () => lines.span(matchStart, matchStart + match.length) };
    if (findingAllowed([set.global], c, filePath) || findingAllowed(allowlists, c, filePath)) continue;
    out.push({ rule, start, end: start + secret.length, secret, matchStart, matchLine: lines.lineOf(m.index) });
  }
  return out;
}

export function detect(text: string, opts: DetectOptions = {}): Detection[] {
  const set = opts.rules ?? defaultRules();
  if (pathAllowed([set.global], opts.filePath)) return [];
  const lower = text.toLowerCase();
  const lines = new Lines(text);
  const found: Detection[] = [];
  for (const rule of set.rules) {
    if (opts.only && !opts.only(rule)) continue;
    if (rule.keywords.length > 0 && !rule.keywords.some((k) => lower.includes(k))) continue;
    found.push(...detectRule(rule, text, lines, set, opts.filePath));
  }
  // gitleaks' filter(): a provider rule's finding wins over a generic one for the same secret on the same line; and
  // here also wherever its secret's span holds the generic one's (a Kubernetes Secret's data line, matched from
  // its `kind:` lines above), so one secret is one finding.
  const covered = (f: Detection, o: Detection) => !o.rule.generic && ((o.matchLine === f.matchLine && o.secret.includes(f.secret)) || (o.start <= f.start && f.end <= o.end));
  return found.filter((f) => !f.rule.generic || !found.some((o) => covered(f, o)));
}
