// RE2 (Go) pattern → JavaScript RegExp source with the same matches, for gitleaks' rules. JavaScript before V8 12.5
// (Node 20, 22) has no inline flags, so case-insensitive parts are spelt out as classes ([Kk\u212A]) instead of
// (?i:…); `.` becomes [^\n] (Go's `.` stops only at \n) and (?s) dots [\s\S]; `\s` becomes Go's five spaces; `$` and
// `\z` are the end of the text (no m flag is ever set); named groups become plain ones so the numbers stay Go's.
// The result is used without the u flag: runes above U+FFFF only appear as the ends of negated or wide classes.
import { captureCount, foldOrbit, type Node, parseRe2, type Range } from './re2.js';

const SPECIAL = new Set('\\^$.|?*+()[]{}/'.split(''));

function hex4(cp: number): string {
  return `\\u${cp.toString(16).padStart(4, '0')}`;
}

function literalChar(cp: number): string {
  if (cp > 0xffff) return String.fromCodePoint(cp).split('').map((u) => hex4(u.charCodeAt(0))).join('');
  const ch = String.fromCharCode(cp);
  if (SPECIAL.has(ch)) return `\\${ch}`;
  if (cp < 0x20 || cp >= 0x7f) return hex4(cp);
  return ch;
}

function classChar(cp: number): string {
  const c = Math.min(cp, 0xffff);
  const ch = String.fromCharCode(c);
  if ('\\]^-['.includes(ch)) return `\\${ch}`;
  if (c < 0x20 || c >= 0x7f) return hex4(c);
  return ch;
}

function classSource(ranges: Range[], neg: boolean): string {
  const body = ranges
    .filter(([lo]) => lo <= 0xffff)
    .map(([lo, hi]) => (hi === lo ? classChar(lo) : `${classChar(lo)}${hi - 1 === lo ? '' : '-'}${classChar(hi)}`))
    .join('');
  if (!neg && body === '') return '[^\\s\\S]';
  return `[${neg ? '^' : ''}${body}]`;
}

/** Whether the emitted text is one atom a quantifier can follow without a group. */
function isAtom(node: Node): boolean {
  return node.t === 'class' || node.t === 'any' || node.t === 'group' || (node.t === 'lit' && node.cp <= 0xffff);
}

function emit(node: Node): string {
  switch (node.t) {
    case 'lit': {
      if (!node.fold) return literalChar(node.cp);
      const orbit = foldOrbit(node.cp);
      return classSource(orbit.map((c): Range => [c, c]).sort((a, b) => a[0] - b[0]), false);
    }
    case 'class':
      return classSource(node.ranges, node.neg);
    case 'any':
      return node.nl ? '[\\s\\S]' : '[^\\n]';
    case 'assert':
      return { bot: '^', eot: '$', bol: '(?<![^\\n])', eol: '(?![^\\n])', wb: '\\b', nwb: '\\B' }[node.kind];
    case 'group':
      return `${node.capture ? '(' : '(?:'}${emit(node.body)})`;
    case 'alt':
      return node.alts.map(emit).join('|');
    case 'cat':
      return node.items.map((n) => (n.t === 'alt' ? `(?:${emit(n)})` : emit(n))).join('');
    case 'empty':
      return '';
    case 'rep': {
      const body = emit(node.body);
      const atom = isAtom(node.body) ? body : `(?:${body})`;
      const { min, max } = node;
      const q = max === -1 ? (min === 0 ? '*' : min === 1 ? '+' : `{${min},}`) : min === 0 && max === 1 ? '?' : min === max ? `{${min}}` : `{${min},${max}}`;
      return `${atom}${q}${node.greedy ? '' : '?'}`;
    }
  }
}

export interface Translated {
  source: string;
  /** Capture groups, numbered as in Go. */
  groups: number;
}

export function re2ToJs(pattern: string | Node): Translated {
  const tree = typeof pattern === 'string' ? parseRe2(pattern) : pattern;
  return { source: emit(tree), groups: captureCount(tree) };
}

/** A compiled JavaScript RegExp for an RE2 pattern; `flags` may add g, y or d (never i, m, s or u). */
export function compileRe2(pattern: string, flags = ''): RegExp {
  if (/[imsu]/.test(flags)) throw new Error(`compileRe2: flag ${flags} would change Go's semantics`);
  return new RegExp(re2ToJs(pattern).source, flags);
}

/** A leading lazy `[class]{0,max}?` of a pattern, which the scan applies by hand (see leadingLazyPrefix). */
export interface PrefixStep {
  ranges: Range[];
  max: number;
}

function isSubset(a: Range[], b: Range[]): boolean {
  return a.every(([lo, hi]) => b.some(([l, h]) => l <= lo && hi <= h));
}

/**
 * gitleaks' keyword rules start `[\w.-]{0,50}?(?i:[\w.-]{0,50}?(?:okta)…`: lazy prefixes that a backtracking engine
 * retries at every position of the text (50 × 50 ways before failing), which on a long line of word characters
 * costs seconds where RE2 takes milliseconds. Split off, the rest is searched alone and the prefix is put back by
 * walking left from where the rest matched, as far as its classes and bounds allow. The matches are the same: with
 * lazy prefixes the leftmost match starts at the leftmost position from which the first place the rest matches can
 * be reached, and that position only moves right as the rest's match does. Only done when each prefix's class
 * holds the one before it (the walk takes the later ones first), else `steps` is empty and the pattern is whole.
 */
export function leadingLazyPrefix(pattern: string | Node): { steps: PrefixStep[]; rest: Translated } {
  const tree = typeof pattern === 'string' ? parseRe2(pattern) : pattern;
  const steps: PrefixStep[] = [];
  const strip = (node: Node): Node => {
    if (node.t !== 'cat') return node;
    const items = [...node.items];
    while (items.length > 1) {
      const first = items[0];
      if (first.t === 'rep' && !first.greedy && first.min === 0 && first.max > 0 && first.body.t === 'class' && !first.body.neg) {
        steps.push({ ranges: first.body.ranges, max: first.max });
        items.shift();
      } else if (first.t === 'group' && !first.capture && first.body.t === 'cat') {
        items[0] = { t: 'group', capture: false, body: strip(first.body) };
        break;
      } else break;
    }
    return items.length === 1 ? items[0] : { t: 'cat', items };
  };
  const rest = strip(tree);
  const nested = steps.every((s, i) => i === 0 || isSubset(steps[i - 1].ranges, s.ranges));
  if (steps.length === 0 || !nested) return { steps: [], rest: { source: emit(tree), groups: captureCount(tree) } };
  return { steps, rest: { source: emit(rest), groups: captureCount(rest) } };
}

/** The text of a node that is a plain literal (no case folding), or undefined. */
function literalText(n: Node): string | undefined {
  if (n.t === 'lit') return n.fold ? undefined : String.fromCodePoint(n.cp);
  if (n.t === 'cat') {
    const parts = n.items.map(literalText);
    return parts.every((p) => p !== undefined) ? parts.join('') : undefined;
  }
  if (n.t === 'group') return literalText(n.body);
  return undefined;
}

export interface Anchor {
  word: string;
  /** One of these is in every match (the first group of plain literal alternatives after the word), if any. */
  oneOf?: string[];
}

/**
 * For a pattern that starts with a literal word (after `\b`) and then lets `.*` run: the word, so the scan can try
 * it only where the word is and within a window (gitleaks' curl rules: `\bcurl\b(?:.*|.*(?:[\r\n]{1,2}.*){1,5})…`
 * retry the rest of the line at every `curl`, quadratic on a long line full of them). Undefined otherwise.
 */
export function anchorOf(pattern: string | Node): Anchor | undefined {
  const tree = typeof pattern === 'string' ? parseRe2(pattern) : pattern;
  if (tree.t !== 'cat') return undefined;
  let word = '';
  let i = 0;
  for (; i < tree.items.length; i++) {
    const item = tree.items[i];
    if (item.t === 'assert' && item.kind === 'wb' && word === '') continue;
    if (item.t !== 'lit' || item.fold) break;
    word += String.fromCodePoint(item.cp);
  }
  const unboundedAny = (n: Node): boolean => {
    switch (n.t) {
      case 'rep':
        return (n.max === -1 && n.body.t === 'any') || unboundedAny(n.body);
      case 'group':
        return unboundedAny(n.body);
      case 'alt':
        return n.alts.some(unboundedAny);
      case 'cat':
        return n.items.some(unboundedAny);
      default:
        return false;
    }
  };
  if (word.length < 3 || !unboundedAny(tree)) return undefined;
  for (const item of tree.items.slice(i)) {
    const body = item.t === 'group' ? item.body : item;
    const alts = body.t === 'alt' ? body.alts.map(literalText) : [literalText(body)];
    if (alts.every((a): a is string => a !== undefined && a.length >= 2)) return { word, oneOf: alts };
  }
  return { word };
}
