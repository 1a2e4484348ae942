// gitleaks' secrets.NewSecret(regex): a string the regex matches, made as github.com/lucasjones/reggen makes it
// with limit 1 (the only limit gitleaks passes), from a seeded random source so the fixture is reproducible.
// reggen's choices, kept: `*` and `?` give 0 or 1 copies, `+` one; `{n,m}` gives n copies, or 0–1 when n is 0,
// and `{n,}` exactly n; a class picks uniformly among its runes, and a negated one (or `.`) among reggen's printable
// ASCII characters it admits; an alternation picks a branch uniformly; a case-folded literal is written as Go's
// parser stores it, the smallest rune of its orbit ('A' for (?i)a).
import { complement, foldOrbit, MAX_RUNE, type Node, parseRe2, type Range } from '../../../tools/commercial/review/secrets/re2.js';

const PRINTABLE = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~ \t\n\r';
const PRINTABLE_NO_NL = PRINTABLE.slice(0, -2);

/** A small seeded generator (mulberry32); `intn(n)` as Go's rand.Intn. */
export class Rand {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  intn(n: number): number {
    if (n <= 0) throw new Error('intn: n <= 0');
    return Math.floor(this.next() * n);
  }
}

/** A 32-bit seed from a name (FNV-1a), so each rule's samples do not depend on the others'. */
export function seedOf(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

function pickFromClass(ranges: Range[], rand: Rand): string {
  if (ranges.length > 0 && ranges[ranges.length - 1][1] === MAX_RUNE) {
    const chars = [...PRINTABLE].filter((c) => ranges.some(([lo, hi]) => c.charCodeAt(0) >= lo && c.charCodeAt(0) <= hi));
    if (chars.length > 0) return chars[rand.intn(chars.length)];
  }
  const sum = ranges.reduce((n, [lo, hi]) => n + hi - lo + 1, 0);
  let r = rand.intn(sum);
  for (const [lo, hi] of ranges) {
    if (r <= hi - lo) return String.fromCodePoint(lo + r);
    r -= hi - lo + 1;
  }
  throw new Error('unreachable');
}

function gen(node: Node, rand: Rand): string {
  switch (node.t) {
    case 'lit':
      return String.fromCodePoint(node.fold ? Math.min(...foldOrbit(node.cp)) : node.cp);
    case 'class':
      return pickFromClass(node.neg ? complement(node.ranges) : node.ranges, rand);
    case 'any': {
      const chars = node.nl ? PRINTABLE : PRINTABLE_NO_NL;
      return chars[rand.intn(chars.length)];
    }
    case 'assert':
    case 'empty':
      return '';
    case 'group':
      return gen(node.body, rand);
    case 'cat':
      return node.items.map((n) => gen(n, rand)).join('');
    case 'alt':
      return gen(node.alts[rand.intn(node.alts.length)], rand);
    case 'rep': {
      let count: number;
      if (node.op === 'star') count = rand.intn(2);
      else if (node.op === 'plus') count = rand.intn(1) + 1;
      else if (node.op === 'quest') count = rand.intn(2);
      else {
        const max = Math.min(node.max, 1);
        count = node.min + (max > node.min ? rand.intn(max - node.min + 1) : 0);
      }
      let out = '';
      for (let i = 0; i < count; i++) out += gen(node.body, rand);
      return out;
    }
  }
}

export function newSecret(regex: string, rand: Rand): string {
  return gen(parseRe2(regex), rand);
}
