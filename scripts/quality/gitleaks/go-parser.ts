// A parser for the subset of Go that gitleaks' rule generators (cmd/generate/config) are written in: package-level
// funcs, vars and consts, and inside functions assignments, var declarations, if, for (three-clause, condition,
// range), return, break and continue, over expressions with calls, selectors, indexes, slices, composite literals
// (with elided inner types), function literals and conversions. A construct outside it is an error naming the line.
import { GoSyntaxError, lex, type Token } from './go-lexer.js';

export type Type =
  | { t: 'name'; name: string }
  | { t: 'slice'; elem: Type }
  | { t: 'array'; elem: Type }
  | { t: 'map'; key: Type; val: Type }
  | { t: 'ptr'; elem: Type }
  | { t: 'func' }
  | { t: 'other' };

export interface Element {
  key?: Expr;
  value: Expr;
}

export type Expr =
  | { k: 'str'; v: string }
  | { k: 'num'; v: number }
  | { k: 'char'; v: string }
  | { k: 'ident'; name: string }
  | { k: 'sel'; x: Expr; name: string }
  | { k: 'call'; fn: Expr; args: Expr[]; spread: boolean; line: number }
  | { k: 'index'; x: Expr; index: Expr }
  | { k: 'slice'; x: Expr; lo?: Expr; hi?: Expr }
  | { k: 'unary'; op: string; x: Expr }
  | { k: 'binary'; op: string; l: Expr; r: Expr }
  | { k: 'composite'; type: Type | null; elts: Element[]; line: number }
  | { k: 'func'; params: string[]; variadic: boolean; body: Stmt[] }
  | { k: 'type'; type: Type };

export type Stmt =
  | { s: 'expr'; x: Expr }
  | { s: 'assign'; lhs: Expr[]; op: string; rhs: Expr[] }
  | { s: 'incdec'; x: Expr; op: string }
  | { s: 'var'; names: string[]; type?: Type; values: Expr[] }
  | { s: 'return'; values: Expr[] }
  | { s: 'if'; init?: Stmt; cond: Expr; then: Stmt[]; else?: Stmt }
  | { s: 'for'; init?: Stmt; cond?: Expr; post?: Stmt; body: Stmt[] }
  | { s: 'range'; key?: Expr; value?: Expr; define: boolean; x: Expr; body: Stmt[] }
  | { s: 'block'; body: Stmt[] }
  | { s: 'break' }
  | { s: 'continue' }
  | { s: 'nop' };

export interface FuncDecl {
  name: string;
  params: string[];
  variadic: boolean;
  body: Stmt[];
}

export interface GoFile {
  pkg: string;
  /** Local name → import path. */
  imports: Map<string, string>;
  funcs: FuncDecl[];
  vars: Stmt[];
}

const PREC: Record<string, number> = { '||': 1, '&&': 2, '==': 3, '!=': 3, '<': 3, '<=': 3, '>': 3, '>=': 3, '+': 4, '-': 4, '|': 4, '^': 4, '*': 5, '/': 5, '%': 5, '<<': 5, '>>': 5, '&': 5, '&^': 5 };

class Parser {
  private i = 0;
  /** In an if/for header a `{` opens the block, not a composite literal (the spec's exprLev < 0). */
  private noLit = false;

  constructor(private readonly toks: Token[]) {}

  private get tok(): Token {
    return this.toks[this.i];
  }

  private fail(msg: string): never {
    throw new GoSyntaxError(`${msg} at line ${this.tok.line} (found ${JSON.stringify(this.tok.value)})`);
  }

  private is(value: string): boolean {
    const t = this.tok;
    return (t.kind === 'op' || t.kind === 'kw' || t.kind === ';') && t.value === value;
  }

  private got(value: string): boolean {
    if (this.is(value) || (value === ';' && this.tok.kind === ';')) {
      this.i++;
      return true;
    }
    return false;
  }

  private want(value: string): void {
    if (!this.got(value)) this.fail(`${value} expected`);
  }

  private ident(): string {
    if (this.tok.kind !== 'ident') this.fail('identifier expected');
    return this.toks[this.i++].value;
  }

  private skipSemis(): void {
    while (this.tok.kind === ';') this.i++;
  }

  private nested<T>(f: () => T): T {
    const saved = this.noLit;
    this.noLit = false;
    try {
      return f();
    } finally {
      this.noLit = saved;
    }
  }

  file(): GoFile {
    this.skipSemis();
    this.want('package');
    const pkg = this.ident();
    const imports = new Map<string, string>();
    const funcs: FuncDecl[] = [];
    const vars: Stmt[] = [];
    this.skipSemis();
    while (this.tok.kind !== 'EOF') {
      if (this.got('import')) {
        const spec = () => {
          const alias = this.tok.kind === 'ident' ? this.ident() : undefined;
          if (this.tok.kind !== 'string') this.fail('import path expected');
          const p = this.toks[this.i++].value;
          imports.set(alias ?? p.split('/').pop()!, p);
        };
        if (this.got('(')) {
          this.skipSemis();
          while (!this.got(')')) {
            spec();
            this.skipSemis();
          }
        } else spec();
      } else if (this.got('func')) {
        if (this.is('(')) this.fail('methods are not handled');
        const name = this.ident();
        const { params, variadic } = this.signature();
        funcs.push({ name, params, variadic, body: this.block() });
      } else if (this.is('var') || this.is('const')) {
        vars.push(...this.varDecl());
      } else if (this.got('type')) {
        this.skipType();
      } else this.fail('declaration expected');
      this.skipSemis();
    }
    return { pkg, imports, funcs, vars };
  }

  /** `(a, b string, c ...int) results`: the parameter names, and whether the last is variadic. */
  private signature(): { params: string[]; variadic: boolean } {
    this.want('(');
    const groups: { names: string[]; typed: boolean; variadic: boolean }[] = [];
    while (!this.got(')')) {
      const names: string[] = [];
      let variadic = false;
      let typed = false;
      if (this.tok.kind === 'ident' && (this.toks[this.i + 1].value === ',' || this.toks[this.i + 1].value === ')')) names.push(this.ident());
      else {
        if (this.tok.kind === 'ident') names.push(this.ident());
        if (this.got('...')) variadic = true;
        this.type();
        typed = true;
      }
      groups.push({ names, typed, variadic });
      if (!this.got(',')) {
        this.want(')');
        break;
      }
    }
    if (!this.is('{') && this.tok.kind !== ';') {
      if (this.got('(')) while (!this.got(')')) this.i++;
      else this.type();
    }
    return { params: groups.flatMap((g) => g.names), variadic: groups.at(-1)?.variadic ?? false };
  }

  private skipType(): void {
    let depth = 0;
    while (this.tok.kind !== 'EOF') {
      if (this.is('{') || this.is('(')) depth++;
      if (this.is('}') || this.is(')')) depth--;
      if (depth === 0 && this.tok.kind === ';') return;
      this.i++;
    }
  }

  type(): Type {
    if (this.got('*')) return { t: 'ptr', elem: this.type() };
    if (this.got('[')) {
      if (this.got(']')) return { t: 'slice', elem: this.type() };
      while (!this.got(']')) this.i++;
      return { t: 'array', elem: this.type() };
    }
    if (this.got('map')) {
      this.want('[');
      const key = this.type();
      this.want(']');
      return { t: 'map', key, val: this.type() };
    }
    if (this.got('func')) {
      this.signature();
      return { t: 'func' };
    }
    if (this.is('struct') || this.is('interface')) {
      this.i++;
      this.want('{');
      let depth = 1;
      while (depth > 0) {
        if (this.is('{')) depth++;
        if (this.is('}')) depth--;
        this.i++;
      }
      return { t: 'other' };
    }
    let name = this.ident();
    if (this.got('.')) name += `.${this.ident()}`;
    return { t: 'name', name };
  }

  private block(): Stmt[] {
    this.want('{');
    const body = this.nested(() => {
      const out: Stmt[] = [];
      this.skipSemis();
      while (!this.is('}')) {
        out.push(...this.statement());
        if (!this.is('}')) this.want(';');
        this.skipSemis();
      }
      return out;
    });
    this.want('}');
    return body;
  }

  private varDecl(): Stmt[] {
    this.i++; // var or const
    const one = (): Stmt => {
      const names = [this.ident()];
      while (this.got(',')) names.push(this.ident());
      const type = this.is('=') || this.tok.kind === ';' || this.is(')') ? undefined : this.type();
      const values = this.got('=') ? this.exprList() : [];
      return { s: 'var', names, type, values };
    };
    if (!this.got('(')) return [one()];
    const out: Stmt[] = [];
    this.skipSemis();
    while (!this.got(')')) {
      out.push(one());
      this.skipSemis();
    }
    return out;
  }

  private statement(): Stmt[] {
    if (this.is('var') || this.is('const')) return this.varDecl();
    if (this.got('type')) {
      this.skipType();
      return [{ s: 'nop' }];
    }
    if (this.got('return')) return [{ s: 'return', values: this.tok.kind === ';' || this.is('}') ? [] : this.exprList() }];
    if (this.got('break')) return [{ s: 'break' }];
    if (this.got('continue')) return [{ s: 'continue' }];
    if (this.is('{')) return [{ s: 'block', body: this.block() }];
    if (this.got('if')) return [this.ifStmt()];
    if (this.got('for')) return [this.forStmt()];
    for (const kw of ['switch', 'select', 'go', 'defer', 'goto', 'fallthrough']) if (this.is(kw)) this.fail(`${kw} is not handled`);
    return [this.simple()];
  }

  private simple(): Stmt {
    const lhs = this.exprList();
    const t = this.tok;
    if (t.kind === 'op' && (t.value === '++' || t.value === '--')) {
      this.i++;
      return { s: 'incdec', x: lhs[0], op: t.value };
    }
    if (t.kind === 'op' && (t.value === '=' || t.value === ':=' || /^[-+*/%&|^]=$|^(<<|>>|&\^)=$/.test(t.value))) {
      this.i++;
      if (this.is('range')) {
        this.i++;
        return { s: 'range', key: lhs[0], value: lhs[1], define: t.value === ':=', x: this.expr(), body: [] };
      }
      return { s: 'assign', lhs, op: t.value, rhs: this.exprList() };
    }
    if (lhs.length !== 1) this.fail('assignment expected');
    return { s: 'expr', x: lhs[0] };
  }

  private header<T>(f: () => T): T {
    const saved = this.noLit;
    this.noLit = true;
    try {
      return f();
    } finally {
      this.noLit = saved;
    }
  }

  private ifStmt(): Stmt {
    const { init, cond } = this.header(() => {
      const first = this.simple();
      if (this.got(';')) {
        const c = this.expr();
        return { init: first, cond: c };
      }
      if (first.s !== 'expr') this.fail('condition expected');
      return { init: undefined, cond: first.x };
    });
    const then = this.block();
    let otherwise: Stmt | undefined;
    if (this.got('else')) otherwise = this.got('if') ? this.ifStmt() : { s: 'block', body: this.block() };
    return { s: 'if', init, cond, then, else: otherwise };
  }

  private forStmt(): Stmt {
    if (this.is('{')) return { s: 'for', body: this.block() };
    if (this.got('range')) {
      const x = this.header(() => this.expr());
      return { s: 'range', define: false, x, body: this.block() };
    }
    const head = this.header(() => {
      const init = this.tok.kind === ';' ? undefined : this.simple();
      if (init?.s === 'range') return { range: init };
      if (!this.got(';')) {
        if (init?.s !== 'expr') this.fail('for condition expected');
        return { cond: init.x };
      }
      const cond = this.tok.kind === ';' ? undefined : this.expr();
      this.want(';');
      const post = this.is('{') ? undefined : this.simple();
      return { init, cond, post };
    });
    const body = this.block();
    if ('range' in head && head.range) return { ...(head.range as Extract<Stmt, { s: 'range' }>), body };
    const h = head as { init?: Stmt; cond?: Expr; post?: Stmt };
    return { s: 'for', init: h.init, cond: h.cond, post: h.post, body };
  }

  private exprList(): Expr[] {
    const out = [this.expr()];
    while (this.got(',')) out.push(this.expr());
    return out;
  }

  expr(minPrec = 1): Expr {
    let l = this.unary();
    for (;;) {
      const t = this.tok;
      const p = t.kind === 'op' ? PREC[t.value] : undefined;
      if (p === undefined || p < minPrec) return l;
      this.i++;
      const r = this.expr(p + 1);
      l = { k: 'binary', op: t.value, l, r };
    }
  }

  private unary(): Expr {
    const t = this.tok;
    if (t.kind === 'op' && ['+', '-', '!', '^', '&', '<-'].includes(t.value)) {
      this.i++;
      return { k: 'unary', op: t.value, x: this.unary() };
    }
    if (t.kind === 'op' && t.value === '*') {
      this.i++;
      return { k: 'unary', op: '*', x: this.unary() };
    }
    return this.primary();
  }

  private operand(): Expr {
    const t = this.tok;
    if (t.kind === 'string') {
      this.i++;
      return { k: 'str', v: t.value };
    }
    if (t.kind === 'int' || t.kind === 'float') {
      this.i++;
      return { k: 'num', v: Number(t.value) };
    }
    if (t.kind === 'char') {
      this.i++;
      return { k: 'char', v: t.value };
    }
    if (t.kind === 'ident') {
      this.i++;
      return { k: 'ident', name: t.value };
    }
    if (this.got('(')) {
      const x = this.nested(() => this.expr());
      this.want(')');
      return x;
    }
    if (this.is('func')) {
      this.i++;
      const { params, variadic } = this.signature();
      return { k: 'func', params, variadic, body: this.block() };
    }
    if (this.is('[') || this.is('map') || this.is('struct') || this.is('interface')) return { k: 'type', type: this.type() };
    return this.fail('expression expected');
  }

  private primary(): Expr {
    let x = this.operand();
    for (;;) {
      const line = this.tok.line;
      if (this.got('.')) {
        if (this.got('(')) {
          const type = this.type();
          this.want(')');
          x = { k: 'call', fn: { k: 'ident', name: '.(type assertion)' }, args: [x, { k: 'type', type }], spread: false, line };
        } else x = { k: 'sel', x, name: this.ident() };
      } else if (this.is('(')) {
        this.i++;
        const { args, spread } = this.nested(() => {
          const a: Expr[] = [];
          let s = false;
          this.skipSemis();
          while (!this.is(')')) {
            a.push(this.expr());
            if (this.got('...')) s = true;
            if (!this.got(',')) break;
            this.skipSemis();
          }
          return { args: a, spread: s };
        });
        this.want(')');
        x = { k: 'call', fn: x, args, spread, line };
      } else if (this.is('[')) {
        this.i++;
        const r = this.nested(() => {
          const lo = this.is(':') ? undefined : this.expr();
          if (this.got(':')) return { k: 'slice' as const, lo, hi: this.is(']') ? undefined : this.expr() };
          return { k: 'index' as const, index: lo! };
        });
        this.want(']');
        x = r.k === 'slice' ? { k: 'slice', x, lo: r.lo, hi: r.hi } : { k: 'index', x, index: r.index };
      } else if (this.is('{') && this.isTypeLike(x) && !this.noLit) {
        x = this.composite(this.typeOf(x), line);
      } else return x;
    }
  }

  private isTypeLike(x: Expr): boolean {
    return x.k === 'type' || x.k === 'ident' || (x.k === 'sel' && x.x.k === 'ident');
  }

  private typeOf(x: Expr): Type {
    if (x.k === 'type') return x.type;
    if (x.k === 'ident') return { t: 'name', name: x.name };
    if (x.k === 'sel' && x.x.k === 'ident') return { t: 'name', name: `${x.x.name}.${x.name}` };
    return this.fail('type expected');
  }

  /** `{…}` after the type (null: the type is elided, as inside a slice or map literal). */
  private composite(type: Type | null, line: number): Expr {
    this.want('{');
    const elts = this.nested(() => {
      const out: Element[] = [];
      this.skipSemis();
      while (!this.is('}')) {
        const first = this.is('{') ? this.composite(null, this.tok.line) : this.expr();
        if (this.got(':')) {
          this.skipSemis();
          out.push({ key: first, value: this.is('{') ? this.composite(null, this.tok.line) : this.expr() });
        } else out.push({ value: first });
        this.skipSemis();
        if (!this.got(',')) break;
        this.skipSemis();
      }
      this.skipSemis();
      return out;
    });
    this.want('}');
    return { k: 'composite', type, elts, line };
  }
}

export function parseGo(src: string): GoFile {
  return new Parser(lex(src)).file();
}
