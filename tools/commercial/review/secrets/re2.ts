// A parser for the RE2 (Go regexp/syntax, Perl flags) patterns gitleaks writes its rules in, to a small tree that
// two consumers read: re2-to-js.ts (a JavaScript RegExp with the same matches) and the sample generator of
// scripts/quality/gitleaks (strings a pattern matches, as gitleaks' reggen makes them).
// Go's semantics kept here: flags set by `(?i)` last to the end of the enclosing group (across `|` too); `.` stops
// only at `\n`; `\s` is [\t\n\f\r ]; `[]a]` starts a class with `]`; `{` that is not a repeat is a literal; a
// case-folded class also holds the Kelvin sign and the long s, as Go's folding orbits do.

export type Range = [number, number];

export type Node =
  | { t: 'lit'; cp: number; fold: boolean }
  /** ranges: the positive set (case-folded already when the flag was on); neg: the class is its complement. */
  | { t: 'class'; ranges: Range[]; neg: boolean }
  | { t: 'any'; nl: boolean }
  | { t: 'assert'; kind: 'bol' | 'eol' | 'bot' | 'eot' | 'wb' | 'nwb' }
  | { t: 'group'; capture: boolean; body: Node }
  | { t: 'alt'; alts: Node[] }
  | { t: 'cat'; items: Node[] }
  /** op: which syntax wrote it (the generator treats `*` and `{0,}` differently, as reggen does); max -1: no bound. */
  | { t: 'rep'; op: 'star' | 'plus' | 'quest' | 'repeat'; min: number; max: number; greedy: boolean; body: Node }
  | { t: 'empty' };

interface Flags {
  i: boolean;
  s: boolean;
  m: boolean;
  U: boolean;
}

export const MAX_RUNE = 0x10ffff;
const DIGIT: Range[] = [[0x30, 0x39]];
const WORD: Range[] = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
const SPACE: Range[] = [[0x09, 0x0a], [0x0c, 0x0d], [0x20, 0x20]];
const POSIX: Record<string, Range[]> = {
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  ascii: [[0x00, 0x7f]],
  blank: [[0x09, 0x09], [0x20, 0x20]],
  cntrl: [[0x00, 0x1f], [0x7f, 0x7f]],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  space: [[0x09, 0x0d], [0x20, 0x20]],
  upper: [[0x41, 0x5a]],
  word: WORD,
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
};

export class Re2SyntaxError extends Error {}

export function normalize(ranges: Range[]): Range[] {
  const sorted = ranges.map((r): Range => [r[0], r[1]]).sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push(r);
  }
  return out;
}

export function complement(ranges: Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of normalize(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_RUNE) out.push([next, MAX_RUNE]);
  return out;
}

/** The runes Go's simple folding puts in one orbit with `cp` (ASCII letters, plus U+212A K and U+017F ſ). */
export function foldOrbit(cp: number): number[] {
  const lower = cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp === 0x212a ? 0x6b : cp === 0x17f ? 0x73 : cp;
  if (lower < 0x61 || lower > 0x7a) {
    const ch = String.fromCodePoint(cp);
    const others = [ch.toLowerCase(), ch.toUpperCase()].filter((c) => [...c].length === 1).map((c) => c.codePointAt(0)!);
    return [...new Set([cp, ...others])];
  }
  const orbit = [lower - 32, lower];
  if (lower === 0x6b) orbit.push(0x212a);
  if (lower === 0x73) orbit.push(0x17f);
  return orbit;
}

function foldRanges(ranges: Range[]): Range[] {
  const out = [...ranges];
  for (const [lo, hi] of ranges) {
    for (let c = Math.max(lo, 0x41); c <= Math.min(hi, 0x7a); c++) for (const o of foldOrbit(c)) out.push([o, o]);
    for (const special of [0x17f, 0x212a]) if (lo <= special && special <= hi) for (const o of foldOrbit(special)) out.push([o, o]);
  }
  return normalize(out);
}

/** A class item's ranges as Go adds them: folded first when (?i) is on, then negated (so `(?i)[\W]` keeps out k and s). */
function folded(ranges: Range[], neg: boolean, flags: Flags): Range[] {
  const set = flags.i ? foldRanges(ranges) : ranges;
  return neg ? complement(set) : set;
}

function isWordish(cp: number): boolean {
  return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f;
}

class Parser {
  private readonly s: number[];
  private pos = 0;

  constructor(private readonly source: string) {
    this.s = [...source].map((c) => c.codePointAt(0)!);
  }

  parse(): Node {
    const node = this.alternation({ i: false, s: false, m: false, U: false });
    if (this.pos < this.s.length) this.fail('unexpected )');
    return node;
  }

  private fail(msg: string): never {
    throw new Re2SyntaxError(`${msg} at ${this.pos} in ${JSON.stringify(this.source)}`);
  }

  private peek(off = 0): number | undefined {
    return this.s[this.pos + off];
  }

  private eat(ch: string): boolean {
    if (this.peek() === ch.codePointAt(0)) {
      this.pos++;
      return true;
    }
    return false;
  }

  /** A group's body: alternatives up to `)` or the end; a `(?flags)` inside changes the flags for the rest of it. */
  private alternation(outer: Flags): Node {
    const flags = { ...outer };
    const alts: Node[] = [];
    let items: Node[] = [];
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === 0x29) break;
      if (c === 0x7c) {
        this.pos++;
        alts.push(cat(items));
        items = [];
        continue;
      }
      const atom = this.atom(flags);
      if (atom === null) continue;
      items.push(this.quantified(atom, flags));
    }
    alts.push(cat(items));
    return alts.length === 1 ? alts[0] : { t: 'alt', alts };
  }

  private quantified(atom: Node, flags: Flags): Node {
    let node = atom;
    for (;;) {
      const c = this.peek();
      let op: 'star' | 'plus' | 'quest' | 'repeat';
      let min: number;
      let max: number;
      if (c === 0x2a) [op, min, max] = ['star', 0, -1];
      else if (c === 0x2b) [op, min, max] = ['plus', 1, -1];
      else if (c === 0x3f) [op, min, max] = ['quest', 0, 1];
      else if (c === 0x7b) {
        const rep = this.repeatBounds();
        if (!rep) return node;
        [op, min, max] = ['repeat', rep[0], rep[1]];
        this.pos--; // repeatBounds consumed the braces; the step below consumes one character
      } else return node;
      this.pos++;
      if (node.t === 'rep') this.fail('invalid nested repetition operator');
      const lazy = this.eat('?');
      node = { t: 'rep', op, min, max, greedy: lazy === flags.U, body: node };
    }
  }

  /** `{n}`, `{n,}`, `{n,m}` at the cursor: consumes it and gives the bounds; anything else is a literal `{`. */
  private repeatBounds(): [number, number] | null {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(String.fromCodePoint(...this.s.slice(this.pos, this.pos + 24)));
    if (!m) return null;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? -1 : Number(m[3]);
    if (min > 1000 || max > 1000 || (max !== -1 && max < min)) this.fail('invalid repeat count');
    this.pos += m[0].length;
    return [min, max];
  }

  /** One atom, or null for a flag group `(?i)` that only changed `flags`. */
  private atom(flags: Flags): Node | null {
    const c = this.s[this.pos++];
    switch (c) {
      case 0x28:
        return this.group(flags);
      case 0x5b:
        return this.klass(flags);
      case 0x2e:
        return { t: 'any', nl: flags.s };
      case 0x5e:
        return { t: 'assert', kind: flags.m ? 'bol' : 'bot' };
      case 0x24:
        return { t: 'assert', kind: flags.m ? 'eol' : 'eot' };
      case 0x5c:
        return this.escape(flags);
      case 0x2a:
      case 0x2b:
      case 0x3f:
        return this.fail('missing argument to repetition operator');
      default:
        return lit(c, flags);
    }
  }

  private group(flags: Flags): Node | null {
    if (!this.eat('?')) {
      const body = this.alternation(flags);
      if (!this.eat(')')) this.fail('missing )');
      return { t: 'group', capture: true, body };
    }
    if (this.eat('P') || this.peek() === 0x3c) {
      if (!this.eat('<')) this.fail('invalid named capture');
      while (this.peek() !== undefined && this.peek() !== 0x3e) this.pos++;
      if (!this.eat('>')) this.fail('invalid named capture');
      const body = this.alternation(flags);
      if (!this.eat(')')) this.fail('missing )');
      return { t: 'group', capture: true, body };
    }
    const set = { ...flags };
    let negate = false;
    for (;;) {
      const c = this.s[this.pos++];
      if (c === undefined) this.fail('missing )');
      const ch = String.fromCodePoint(c);
      if (ch === '-') negate = true;
      else if (ch === 'i' || ch === 's' || ch === 'm' || ch === 'U') set[ch] = !negate;
      else if (ch === ')') {
        Object.assign(flags, set); // `(?i)`: the rest of the enclosing group
        return null;
      } else if (ch === ':') {
        const body = this.alternation(set);
        if (!this.eat(')')) this.fail('missing )');
        return { t: 'group', capture: false, body };
      } else this.fail(`invalid flag ${ch}`);
    }
  }

  private escape(flags: Flags): Node {
    const c = this.s[this.pos++];
    if (c === undefined) this.fail('trailing backslash');
    const ch = String.fromCodePoint(c);
    switch (ch) {
      case 'A':
        return { t: 'assert', kind: 'bot' };
      case 'z':
        return { t: 'assert', kind: 'eot' };
      case 'b':
        return { t: 'assert', kind: 'wb' };
      case 'B':
        return { t: 'assert', kind: 'nwb' };
      case 'Q': {
        const items: Node[] = [];
        while (this.pos < this.s.length && !(this.peek() === 0x5c && this.peek(1) === 0x45)) items.push(lit(this.s[this.pos++], flags));
        this.pos += 2;
        return cat(items);
      }
    }
    const perl = this.perlClass(ch);
    if (perl) return { t: 'class', ranges: flags.i ? foldRanges(perl.ranges) : perl.ranges, neg: perl.neg };
    return lit(this.escapedRune(c), flags);
  }

  private perlClass(ch: string): { ranges: Range[]; neg: boolean } | null {
    const sets: Record<string, Range[]> = { d: DIGIT, w: WORD, s: SPACE };
    const base = sets[ch.toLowerCase()];
    if (!base) return null;
    return { ranges: base, neg: ch !== ch.toLowerCase() };
  }

  /** The rune of an escape whose backslash and first character (`c`) were read. */
  private escapedRune(c: number): number {
    const ch = String.fromCodePoint(c);
    const simple: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };
    if (ch in simple) return simple[ch];
    if (ch === 'x') {
      if (this.eat('{')) {
        let hex = '';
        while (this.peek() !== undefined && this.peek() !== 0x7d) hex += String.fromCodePoint(this.s[this.pos++]);
        if (!this.eat('}') || !/^[0-9a-fA-F]+$/.test(hex)) this.fail('invalid escape');
        return parseInt(hex, 16);
      }
      const hex = String.fromCodePoint(...this.s.slice(this.pos, this.pos + 2));
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) this.fail('invalid escape');
      this.pos += 2;
      return parseInt(hex, 16);
    }
    if (ch >= '0' && ch <= '7') {
      if (ch !== '0' && !(this.peek() !== undefined && this.peek()! >= 0x30 && this.peek()! <= 0x37)) this.fail('invalid escape (backreference)');
      let oct = ch;
      while (oct.length < 3 && this.peek() !== undefined && this.peek()! >= 0x30 && this.peek()! <= 0x37) oct += String.fromCodePoint(this.s[this.pos++]);
      return parseInt(oct, 8);
    }
    if (c < 0x80 && !isWordish(c)) return c; // punctuation stands for itself
    return this.fail(`invalid escape \\${ch}`);
  }

  private klass(flags: Flags): Node {
    const neg = this.eat('^');
    const ranges: Range[] = [];
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined) this.fail('missing ]');
      if (c === 0x5d && !first) {
        this.pos++;
        break;
      }
      first = false;
      if (c === 0x5b && this.peek(1) === 0x3a) {
        const m = /^\[:(\^?)([a-z]+):\]/.exec(String.fromCodePoint(...this.s.slice(this.pos, this.pos + 12)));
        if (m && POSIX[m[2]]) {
          this.pos += m[0].length;
          ranges.push(...folded(POSIX[m[2]], m[1] === '^', flags));
          continue;
        }
      }
      if (c === 0x5c) {
        const perl = this.perlClass(String.fromCodePoint(this.peek(1) ?? 0));
        if (perl) {
          this.pos += 2;
          ranges.push(...folded(perl.ranges, perl.neg, flags));
          continue;
        }
      }
      const lo = this.classRune();
      if (this.peek() === 0x2d && this.peek(1) !== undefined && this.peek(1) !== 0x5d) {
        this.pos++;
        const hi = this.classRune();
        if (hi < lo) this.fail('invalid character class range');
        ranges.push(...folded([[lo, hi]], false, flags));
      } else ranges.push(...folded([[lo, lo]], false, flags));
    }
    return { t: 'class', ranges: normalize(ranges), neg };
  }

  private classRune(): number {
    const c = this.s[this.pos++];
    if (c !== 0x5c) return c;
    const e = this.s[this.pos++];
    if (e === undefined) this.fail('trailing backslash');
    return this.escapedRune(e);
  }
}

function lit(cp: number, flags: Flags): Node {
  const fold = flags.i && foldOrbit(cp).length > 1;
  return { t: 'lit', cp, fold };
}

function cat(items: Node[]): Node {
  if (items.length === 0) return { t: 'empty' };
  return items.length === 1 ? items[0] : { t: 'cat', items };
}

export function parseRe2(pattern: string): Node {
  return new Parser(pattern).parse();
}

/** How many capture groups a tree has (Go numbers them left to right by their opening parenthesis, as JS does). */
export function captureCount(node: Node): number {
  switch (node.t) {
    case 'group':
      return (node.capture ? 1 : 0) + captureCount(node.body);
    case 'alt':
      return node.alts.reduce((n, a) => n + captureCount(a), 0);
    case 'cat':
      return node.items.reduce((n, a) => n + captureCount(a), 0);
    case 'rep':
      return captureCount(node.body);
    default:
      return 0;
  }
}
