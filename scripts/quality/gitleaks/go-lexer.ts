// Go's lexical grammar, as much as gitleaks' rule files use: identifiers, keywords, numbers, rune, interpreted and
// raw strings (values decoded), operators, comments, and the automatic semicolons the spec inserts at line ends.
export type TokKind = 'ident' | 'kw' | 'int' | 'float' | 'char' | 'string' | 'op' | ';' | 'EOF';

export interface Token {
  kind: TokKind;
  /** The identifier, keyword or operator; a literal's decoded value. */
  value: string;
  line: number;
}

const KEYWORDS = new Set('break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var'.split(' '));
// Longest first, so that `:=` is not read as `:` then `=`.
const OPS = ['<<=', '>>=', '&^=', '...', '&&', '||', '<-', '++', '--', '==', '!=', '<=', '>=', ':=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '>>', '&^', '+', '-', '*', '/', '%', '&', '|', '^', '<', '>', '=', '!', '(', ')', '[', ']', '{', '}', ',', ';', '.', ':', '~'];

export class GoSyntaxError extends Error {}

/** Decodes one escape after a backslash at s[i]; gives the text and the index after it. */
function unescape(s: string, i: number, quote: string): [string, number] {
  const c = s[i];
  const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };
  if (c in simple) return [simple[c], i + 1];
  if (c === quote) return [c, i + 1];
  if (c === 'x') return [String.fromCharCode(parseInt(s.slice(i + 1, i + 3), 16)), i + 3];
  if (c === 'u') return [String.fromCodePoint(parseInt(s.slice(i + 1, i + 5), 16)), i + 5];
  if (c === 'U') return [String.fromCodePoint(parseInt(s.slice(i + 1, i + 9), 16)), i + 9];
  if (c >= '0' && c <= '7') return [String.fromCharCode(parseInt(s.slice(i, i + 3), 8)), i + 3];
  throw new GoSyntaxError(`unknown escape \\${c}`);
}

export function lex(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  const push = (kind: TokKind, value: string) => out.push({ kind, value, line });
  /** The spec's rule: a newline ends the statement after these tokens. */
  const needsSemi = () => {
    const t = out[out.length - 1];
    if (!t) return false;
    if (t.kind === 'ident' || t.kind === 'int' || t.kind === 'float' || t.kind === 'char' || t.kind === 'string') return true;
    if (t.kind === 'kw') return ['break', 'continue', 'fallthrough', 'return'].includes(t.value);
    return t.kind === 'op' && ['++', '--', ')', ']', '}'].includes(t.value);
  };
  while (i < src.length) {
    const c = src[i];
    if (c === '\n') {
      if (needsSemi()) push(';', '\n');
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (src.startsWith('//', i)) {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (src.startsWith('/*', i)) {
      const end = src.indexOf('*/', i + 2);
      const body = src.slice(i, end);
      const lines = body.split('\n').length - 1;
      if (lines > 0 && needsSemi()) push(';', '\n');
      line += lines;
      i = end + 2;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_0-9]+/.exec(src.slice(i, i + 200))![0];
      push(KEYWORDS.has(m) ? 'kw' : 'ident', m);
      i += m.length;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(0[xX][0-9a-fA-F_]+|[0-9_]*\.?[0-9_]*([eE][+-]?[0-9]+)?)/.exec(src.slice(i, i + 100))![0];
      push(/[.eE]/.test(m) && !/^0[xX]/.test(m) ? 'float' : 'int', m.replace(/_/g, ''));
      i += m.length;
    } else if (c === '`') {
      const end = src.indexOf('`', i + 1);
      if (end < 0) throw new GoSyntaxError(`unterminated raw string at line ${line}`);
      const raw = src.slice(i + 1, end);
      push('string', raw.replace(/\r/g, ''));
      line += raw.split('\n').length - 1;
      i = end + 1;
    } else if (c === '"' || c === "'") {
      let v = '';
      i++;
      while (src[i] !== c) {
        if (i >= src.length || src[i] === '\n') throw new GoSyntaxError(`unterminated literal at line ${line}`);
        if (src[i] === '\\') {
          const [text, next] = unescape(src, i + 1, c);
          v += text;
          i = next;
        } else v += src[i++];
      }
      i++;
      push(c === '"' ? 'string' : 'char', v);
    } else {
      const op = OPS.find((o) => src.startsWith(o, i));
      if (!op) throw new GoSyntaxError(`unexpected ${JSON.stringify(c)} at line ${line}`);
      push(op === ';' ? ';' : 'op', op);
      i += op.length;
    }
  }
  if (needsSemi()) push(';', '\n');
  out.push({ kind: 'EOF', value: '', line });
  return out;
}
