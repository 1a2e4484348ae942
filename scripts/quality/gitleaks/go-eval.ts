// An interpreter for the Go that go-parser.ts reads, with the few standard-library and gitleaks functions the rule
// generators call (fmt.Sprintf, strings.*, encoding/base64, regexp, secrets.NewSecret…). A value it cannot make
// inside a list of samples becomes a Skip that names the reason, so one odd sample never loses a rule's others.
import { compileRe2 } from '../../../tools/commercial/review/secrets/re2-to-js.js';
import type { Expr, FuncDecl, GoFile, Stmt, Type } from './go-parser.js';
import { newSecret, type Rand } from './reggen.js';

export interface Skip {
  kind: 'skip';
  reason: string;
}
export interface GoStruct {
  kind: 'struct';
  type: string;
  fields: Record<string, Value>;
}
interface GoFunc {
  kind: 'func';
  name: string;
  params: string[];
  variadic: boolean;
  body: Stmt[];
  env: Env;
}
interface Native {
  kind: 'native';
  name: string;
  call: (args: Value[], spread: boolean) => Value;
}
interface Obj {
  kind: 'obj';
  type: string;
  methods: Record<string, (args: Value[]) => Value>;
}
interface Pkg {
  kind: 'pkg';
  name: string;
  member: (name: string) => Value;
}
interface Tuple {
  kind: 'tuple';
  values: Value[];
}
interface Bytes {
  kind: 'bytes';
  data: Buffer;
}
interface TypeVal {
  kind: 'type';
  type: Type;
}
export type Value = string | number | boolean | null | Value[] | Map<Value, Value> | GoStruct | GoFunc | Native | Obj | Pkg | Tuple | Bytes | Skip | TypeVal;

export class EvalError extends Error {}
const fail = (msg: string): never => {
  throw new EvalError(msg);
};

const isObj = (v: Value, kind: string): boolean => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map) && v.kind === kind;
export const isSkip = (v: Value): v is Skip => isObj(v, 'skip');

class Env {
  private readonly vars = new Map<string, { v: Value }>();

  constructor(private readonly parent?: Env) {}

  lookup(name: string): { v: Value } | undefined {
    return this.vars.get(name) ?? this.parent?.lookup(name);
  }

  define(name: string, v: Value): void {
    if (name !== '_') this.vars.set(name, { v });
  }

  has(name: string): boolean {
    return this.vars.has(name);
  }
}

class Return {
  constructor(readonly value: Value) {}
}
class Break {}
class Continue {}

function str(v: Value): string {
  if (typeof v === 'string') return v;
  if (isSkip(v)) throw new EvalError((v as Skip).reason);
  if (isObj(v, 'bytes')) return (v as Bytes).data.toString('latin1');
  return fail(`a string was expected, not ${describe(v)}`);
}

function describe(v: Value): string {
  if (v === null) return 'nil';
  if (Array.isArray(v)) return 'a slice';
  if (v instanceof Map) return 'a map';
  if (typeof v === 'object') return `a ${v.kind}${'type' in v && typeof v.type === 'string' ? ` ${v.type}` : ''}`;
  return typeof v;
}

function sprintf(format: string, args: Value[]): string {
  let k = 0;
  return format.replace(/%([-+# 0]*\d*(?:\.\d+)?)([a-zA-Z%])/g, (_, _flags: string, verb: string) => {
    if (verb === '%') return '%';
    const a = args[k++];
    if (verb === 's' || verb === 'v') return Array.isArray(a) ? `[${a.map(String).join(' ')}]` : typeof a === 'string' ? a : isObj(a, 'bytes') ? str(a) : String(a);
    if (verb === 'd') return String(a);
    if (verb === 'q') return JSON.stringify(str(a));
    if (verb === 'x') return typeof a === 'number' ? a.toString(16) : Buffer.from(str(a), 'latin1').toString('hex');
    return fail(`fmt verb %${verb} is not handled`);
  });
}

const native = (name: string, call: (args: Value[], spread: boolean) => Value): Native => ({ kind: 'native', name, call });

function regexpValue(src: string): Obj {
  let compiled: RegExp | undefined;
  const re = () => (compiled ??= compileRe2(src));
  return {
    kind: 'obj',
    type: 'regexp.Regexp',
    methods: {
      String: () => src,
      MatchString: ([s]) => re().test(str(s)),
      FindString: ([s]) => re().exec(str(s))?.[0] ?? '',
    },
  };
}

function builder(): Obj {
  let buf = '';
  return {
    kind: 'obj',
    type: 'strings.Builder',
    methods: {
      WriteString: ([s]) => {
        buf += str(s);
        return { kind: 'tuple', values: [str(s).length, null] };
      },
      String: () => buf,
      Len: () => buf.length,
    },
  };
}

function replacer(pairs: string[]): Obj {
  return {
    kind: 'obj',
    type: 'strings.Replacer',
    methods: {
      // Go's generic replacer: left to right, at each position the first pair (in argument order) that matches.
      Replace: ([s]) => {
        const text = str(s);
        let out = '';
        for (let i = 0; i < text.length; ) {
          let hit = false;
          for (let p = 0; p < pairs.length; p += 2) {
            if (pairs[p] !== '' && text.startsWith(pairs[p], i)) {
              out += pairs[p + 1];
              i += pairs[p].length;
              hit = true;
              break;
            }
          }
          if (!hit) out += text[i++];
        }
        return out;
      },
    },
  };
}

function encoding(kind: 'std' | 'url', pad: boolean): Obj {
  return {
    kind: 'obj',
    type: 'base64.Encoding',
    methods: {
      EncodeToString: ([b]) => {
        const data = isObj(b, 'bytes') ? (b as Bytes).data : Buffer.from(str(b), 'utf8');
        let s = data.toString(kind === 'std' ? 'base64' : 'base64url');
        if (kind === 'url' && pad) s += '='.repeat((4 - (s.length % 4)) % 4);
        if (!pad) s = s.replace(/=+$/, '');
        return s;
      },
    },
  };
}

const stdPkg = (name: string, members: Record<string, Value>): Pkg => ({
  kind: 'pkg',
  name,
  member: (m) => (Object.hasOwn(members, m) ? members[m] : fail(`${name}.${m} is not handled`)),
});

export interface Validation {
  rule: GoStruct;
  tps: Value;
  fps: Value;
  /** ValidateWithPaths: the samples are maps from a file path to its text. */
  withPaths: boolean;
}

export class Interpreter {
  private readonly packages = new Map<string, Pkg>();
  private readonly packageEnvs = new Map<string, Env>();
  readonly validations: Validation[] = [];
  rand: Rand | undefined;

  constructor() {
    const s = (args: Value[]) => args.map(str);
    this.packages.set('fmt', stdPkg('fmt', { Sprintf: native('fmt.Sprintf', ([f, ...a], spread) => sprintf(str(f), spread ? (a[0] as Value[]) : a)) }));
    this.packages.set(
      'strings',
      stdPkg('strings', {
        NewReplacer: native('strings.NewReplacer', (a) => replacer(s(a))),
        ToUpper: native('strings.ToUpper', ([x]) => str(x).toUpperCase()),
        ToLower: native('strings.ToLower', ([x]) => str(x).toLowerCase()),
        Join: native('strings.Join', ([xs, sep]) => ((xs as Value[] | null) ?? []).map(str).join(str(sep))),
        Repeat: native('strings.Repeat', ([x, n]) => str(x).repeat(n as number)),
        Contains: native('strings.Contains', ([x, y]) => str(x).includes(str(y))),
        HasPrefix: native('strings.HasPrefix', ([x, y]) => str(x).startsWith(str(y))),
        TrimSpace: native('strings.TrimSpace', ([x]) => str(x).trim()),
        ReplaceAll: native('strings.ReplaceAll', ([x, a, b]) => str(x).split(str(a)).join(str(b))),
      }),
    );
    const b64 = stdPkg('base64', { StdEncoding: encoding('std', true), RawStdEncoding: encoding('std', false), URLEncoding: encoding('url', true), RawURLEncoding: encoding('url', false) });
    this.packages.set('encoding/base64', b64);
    this.packages.set('regexp', stdPkg('regexp', { MustCompile: native('regexp.MustCompile', ([x]) => regexpValue(str(x))) }));
    this.packages.set('secrets', stdPkg('secrets', { NewSecret: native('secrets.NewSecret', ([x]) => newSecret(str(x), this.rand ?? fail('no random source'))) }));
    this.packages.set('config', stdPkg('config', { AllowlistMatchOr: 0, AllowlistMatchAnd: 1 }));
  }

  private pkgFor(importPath: string): Pkg {
    const short = importPath.split('/').pop()!;
    const byPath = this.packages.get(importPath) ?? this.packages.get(short);
    return byPath ?? stdPkg(short, {});
  }

  /** Loads the files of one package (funcs and package-level vars), with natives standing in for some of its funcs. */
  loadPackage(name: string, files: GoFile[], natives: Record<string, Value> = {}): void {
    const env = new Env();
    this.packageEnvs.set(name, env);
    for (const [k, v] of Object.entries(natives)) env.define(k, v);
    const fileEnvs = files.map((f) => {
      const fe = new Env(env);
      for (const [alias, p] of f.imports) fe.define(alias, this.pkgFor(p));
      return fe;
    });
    files.forEach((f, i) => {
      for (const fn of f.funcs) if (!env.has(fn.name)) env.define(fn.name, this.closure(fn, fileEnvs[i]));
    });
    this.packages.set(name, { kind: 'pkg', name, member: (m) => env.lookup(m)?.v ?? fail(`${name}.${m} is not defined`) });
    files.forEach((f, i) => {
      for (const v of f.vars) this.exec(v, fileEnvs[i], env);
    });
  }

  private closure(fn: FuncDecl, env: Env): GoFunc {
    return { kind: 'func', name: fn.name, params: fn.params, variadic: fn.variadic, body: fn.body, env };
  }

  callPackageFunc(pkg: string, name: string): Value {
    const f = this.packages.get(pkg)?.member(name);
    if (!f) return fail(`${pkg}.${name} is not defined`);
    return this.call(f, [], false);
  }

  call(fn: Value, args: Value[], spread: boolean): Value {
    if (isObj(fn, 'native')) return (fn as Native).call(args, spread);
    if (!isObj(fn, 'func')) return fail(`${describe(fn)} is not callable`);
    const f = fn as GoFunc;
    const env = new Env(f.env);
    f.params.forEach((p, i) => {
      if (f.variadic && i === f.params.length - 1) env.define(p, spread ? args[i] : args.slice(i));
      else env.define(p, args[i] ?? null);
    });
    try {
      this.block(f.body, env);
    } catch (e) {
      if (e instanceof Return) return e.value;
      throw e;
    }
    return null;
  }

  private block(body: Stmt[], env: Env): void {
    for (const s of body) this.exec(s, env);
  }

  /** `defineIn`: where a `var` defines its names (the package's env for package-level vars). */
  private exec(s: Stmt, env: Env, defineIn: Env = env): void {
    switch (s.s) {
      case 'nop':
        return;
      case 'expr':
        this.eval(s.x, env);
        return;
      case 'var': {
        const values = this.values(s.values, env, s.names.length);
        s.names.forEach((n, i) => defineIn.define(n, s.values.length ? values[i] : this.zero(s.type)));
        return;
      }
      case 'assign':
        return this.assign(s, env);
      case 'incdec': {
        const cur = this.eval(s.x, env) as number;
        this.store(s.x, cur + (s.op === '++' ? 1 : -1), env, false);
        return;
      }
      case 'return': {
        const vals = s.values.map((v) => this.eval(v, env));
        throw new Return(vals.length === 1 ? vals[0] : vals.length === 0 ? null : { kind: 'tuple', values: vals });
      }
      case 'block':
        this.block(s.body, new Env(env));
        return;
      case 'if': {
        const scope = new Env(env);
        if (s.init) this.exec(s.init, scope);
        if (this.eval(s.cond, scope) === true) this.block(s.then, new Env(scope));
        else if (s.else) this.exec(s.else, scope);
        return;
      }
      case 'for': {
        const scope = new Env(env);
        if (s.init) this.exec(s.init, scope);
        for (let guard = 0; ; guard++) {
          if (guard > 1_000_000) fail('a for loop ran a million times');
          if (s.cond && this.eval(s.cond, scope) !== true) break;
          try {
            this.block(s.body, new Env(scope));
          } catch (e) {
            if (e instanceof Break) break;
            if (!(e instanceof Continue)) throw e;
          }
          if (s.post) this.exec(s.post, scope);
        }
        return;
      }
      case 'range': {
        const x = this.eval(s.x, env);
        const pairs: [Value, Value][] =
          x instanceof Map ? [...x.entries()] : Array.isArray(x) ? x.map((v, i) => [i, v]) : typeof x === 'number' ? Array.from({ length: x }, (_, i) => [i, i]) : typeof x === 'string' ? [...x].map((c, i) => [i, c]) : x === null ? [] : fail(`range over ${describe(x)}`);
        for (const [k, v] of pairs) {
          const scope = new Env(env);
          if (s.key) this.store(s.key, k, scope, s.define);
          if (s.value) this.store(s.value, v, scope, s.define);
          try {
            this.block(s.body, scope);
          } catch (e) {
            if (e instanceof Break) break;
            if (!(e instanceof Continue)) throw e;
          }
        }
        return;
      }
      case 'break':
        throw new Break();
      case 'continue':
        throw new Continue();
    }
  }

  /** Values for n targets: n expressions, or one call giving a tuple. */
  private values(exprs: Expr[], env: Env, n: number): Value[] {
    const vals = exprs.map((e) => this.eval(e, env));
    if (vals.length === 1 && n > 1) {
      const t = vals[0];
      if (!isObj(t, 'tuple')) fail(`${n} values expected`);
      return (t as Tuple).values;
    }
    return vals;
  }

  private assign(s: Extract<Stmt, { s: 'assign' }>, env: Env): void {
    if (s.op === '=' || s.op === ':=') {
      const vals = this.values(s.rhs, env, s.lhs.length);
      s.lhs.forEach((l, i) => this.store(l, vals[i], env, s.op === ':='));
      return;
    }
    const cur = this.eval(s.lhs[0], env);
    const rhs = this.eval(s.rhs[0], env);
    this.store(s.lhs[0], this.binary(s.op.slice(0, -1), cur, rhs), env, false);
  }

  private store(target: Expr, v: Value, env: Env, define: boolean): void {
    if (target.k === 'ident') {
      if (target.name === '_') return;
      if (define && !env.has(target.name)) return env.define(target.name, v);
      const cell = env.lookup(target.name) ?? fail(`${target.name} is not defined`);
      cell.v = v;
      return;
    }
    if (target.k === 'index') {
      const x = this.eval(target.x, env);
      const k = this.eval(target.index, env);
      if (x instanceof Map) x.set(k, v);
      else if (Array.isArray(x)) x[k as number] = v;
      else fail(`cannot index ${describe(x)}`);
      return;
    }
    if (target.k === 'sel') {
      const x = this.eval(target.x, env);
      if (!isObj(x, 'struct')) fail(`cannot set a field of ${describe(x)}`);
      (x as GoStruct).fields[target.name] = v;
      return;
    }
    fail('cannot assign to this expression');
  }

  private zero(type: Type | undefined): Value {
    if (!type) return null;
    if (type.t === 'name') {
      if (type.name === 'string') return '';
      if (['int', 'int64', 'float64', 'rune', 'byte', 'uint'].includes(type.name)) return 0;
      if (type.name === 'bool') return false;
      if (type.name === 'strings.Builder') return builder();
      if (type.name.startsWith('config.')) return this.struct(type.name, {});
    }
    return null;
  }

  private struct(type: string, fields: Record<string, Value>): GoStruct {
    return { kind: 'struct', type, fields };
  }

  private methods(v: GoStruct): Record<string, (args: Value[]) => Value> {
    if (v.type === 'config.Allowlist') {
      return {
        // Without Validate() the stop words are compared as given, against the lower-cased text.
        ContainsStopWord: ([s]) => {
          const text = str(s).toLowerCase();
          const words = ((v.fields.StopWords as Value[] | null) ?? []).map(str);
          const hit = text === '' ? undefined : words.find((w) => text.includes(w));
          return { kind: 'tuple', values: [hit !== undefined, hit ?? ''] };
        },
      };
    }
    return {};
  }

  /** A slice literal's or append's elements: one that cannot be made becomes a Skip, the others stay. */
  private element(e: Expr, env: Env, elem?: Type | null): Value {
    try {
      return e.k === 'composite' && e.type === null ? this.composite(e.elts, elem ?? null, env) : this.eval(e, env);
    } catch (err) {
      if (err instanceof EvalError) return { kind: 'skip', reason: `line ${'line' in e ? e.line : '?'}: ${err.message}` };
      throw err;
    }
  }

  private composite(elts: Extract<Expr, { k: 'composite' }>['elts'], type: Type | null, env: Env): Value {
    const t = type?.t === 'ptr' ? type.elem : type;
    if (t === null) return fail('a composite literal without a type');
    if (t.t === 'slice' || t.t === 'array') return elts.map((el) => this.element(el.value, env, t.elem));
    if (t.t === 'map') {
      const m = new Map<Value, Value>();
      for (const el of elts) {
        if (!el.key) fail('a map literal element without a key');
        m.set(this.element(el.key!, env, t.key), this.element(el.value, env, t.val));
      }
      return m;
    }
    if (t.t === 'name') {
      const fields: Record<string, Value> = {};
      for (const el of elts) {
        if (el.key?.k !== 'ident') fail(`a ${t.name} literal needs field names`);
        fields[(el.key as { name: string }).name] = this.element(el.value, env);
      }
      return this.struct(t.name, fields);
    }
    return fail('a composite literal of this type is not handled');
  }

  private binary(op: string, l: Value, r: Value): Value {
    switch (op) {
      case '+':
        if (typeof l === 'number' && typeof r === 'number') return l + r;
        return str(l) + str(r);
      case '-':
        return (l as number) - (r as number);
      case '*':
        return (l as number) * (r as number);
      case '/':
        return Math.trunc((l as number) / (r as number));
      case '%':
        return (l as number) % (r as number);
      case '==':
        return l === r;
      case '!=':
        return l !== r;
      case '<':
        return (l as number) < (r as number);
      case '<=':
        return (l as number) <= (r as number);
      case '>':
        return (l as number) > (r as number);
      case '>=':
        return (l as number) >= (r as number);
    }
    return fail(`operator ${op} is not handled`);
  }

  eval(e: Expr, env: Env): Value {
    switch (e.k) {
      case 'str':
      case 'char':
        return e.v;
      case 'num':
        return e.v;
      case 'ident':
        return this.ident(e.name, env);
      case 'type':
        return { kind: 'type', type: e.type };
      case 'func':
        return { kind: 'func', name: 'func literal', params: e.params, variadic: e.variadic, body: e.body, env };
      case 'composite':
        return this.composite(e.elts, e.type, env);
      case 'unary': {
        const x = this.eval(e.x, env);
        if (e.op === '!') return !x;
        if (e.op === '-') return -(x as number);
        if (e.op === '&' || e.op === '*' || e.op === '+') return x;
        return fail(`unary ${e.op} is not handled`);
      }
      case 'binary': {
        if (e.op === '&&') return this.eval(e.l, env) === true && this.eval(e.r, env) === true;
        if (e.op === '||') return this.eval(e.l, env) === true || this.eval(e.r, env) === true;
        return this.binary(e.op, this.eval(e.l, env), this.eval(e.r, env));
      }
      case 'sel': {
        const x = this.eval(e.x, env);
        if (isObj(x, 'pkg')) return (x as Pkg).member(e.name);
        if (isObj(x, 'struct')) return (x as GoStruct).fields[e.name] ?? null;
        return fail(`.${e.name} of ${describe(x)}`);
      }
      case 'index': {
        const x = this.eval(e.x, env);
        const k = this.eval(e.index, env);
        if (x instanceof Map) return x.get(k) ?? null;
        if (Array.isArray(x)) return x[k as number] ?? fail('index out of range');
        if (typeof x === 'string') return x.charCodeAt(k as number);
        return fail(`cannot index ${describe(x)}`);
      }
      case 'slice': {
        const x = this.eval(e.x, env);
        const lo = e.lo ? (this.eval(e.lo, env) as number) : 0;
        if (typeof x === 'string' || Array.isArray(x)) return x.slice(lo, e.hi ? (this.eval(e.hi, env) as number) : undefined);
        return fail(`cannot slice ${describe(x)}`);
      }
      case 'call':
        return this.callExpr(e, env);
    }
  }

  private ident(name: string, env: Env): Value {
    const cell = env.lookup(name);
    if (cell) return cell.v;
    switch (name) {
      case 'nil':
        return null;
      case 'true':
        return true;
      case 'false':
        return false;
    }
    return fail(`${name} is not defined`);
  }

  private callExpr(e: Extract<Expr, { k: 'call' }>, env: Env): Value {
    // Method calls on values: x.M(args).
    if (e.fn.k === 'sel') {
      const recv = this.eval(e.fn.x, env);
      if (isObj(recv, 'obj') || isObj(recv, 'struct')) {
        const table = isObj(recv, 'obj') ? (recv as Obj).methods : this.methods(recv as GoStruct);
        const m = table[e.fn.name] ?? fail(`method ${e.fn.name} of ${describe(recv)} is not handled`);
        return m(e.args.map((a) => this.eval(a, env)));
      }
    }
    if (e.fn.k === 'type') return this.convert(e.fn.type, this.eval(e.args[0], env));
    if (e.fn.k === 'ident' && !env.lookup(e.fn.name)) {
      const builtin = this.builtin(e, env);
      if (builtin !== undefined) return builtin;
    }
    const fn = this.eval(e.fn, env);
    if (isObj(fn, 'type')) return this.convert((fn as TypeVal).type, this.eval(e.args[0], env));
    const isAppendLike = isObj(fn, 'func') || isObj(fn, 'native');
    if (!isAppendLike) return fail(`${describe(fn)} is not callable`);
    return this.call(fn, e.args.map((a) => this.eval(a, env)), e.spread);
  }

  private convert(type: Type, v: Value): Value {
    if (type.t === 'slice' && type.elem.t === 'name' && type.elem.name === 'byte') return { kind: 'bytes', data: Buffer.from(str(v), 'utf8') };
    if (type.t === 'name' && type.name === 'string') return isObj(v, 'bytes') ? (v as Bytes).data.toString('utf8') : typeof v === 'number' ? String.fromCodePoint(v) : str(v);
    return v;
  }

  /** Go's builtins; undefined when the name is not one. */
  private builtin(e: Extract<Expr, { k: 'call' }>, env: Env): Value | undefined {
    const name = (e.fn as { name: string }).name;
    if (name === 'append') {
      const base = this.eval(e.args[0], env);
      const out = [...((base as Value[] | null) ?? [])];
      if (e.spread) {
        const rest = this.element(e.args[1], env);
        if (isSkip(rest)) out.push(rest);
        else out.push(...((rest as Value[] | null) ?? []));
      } else for (const a of e.args.slice(1)) out.push(this.element(a, env));
      return out;
    }
    if (name === 'len') {
      const x = this.eval(e.args[0], env);
      if (x instanceof Map) return x.size;
      if (typeof x === 'string') return Buffer.byteLength(x, 'utf8');
      return ((x as Value[] | null) ?? []).length;
    }
    if (name === 'make') {
      const t = (e.args[0] as { k: 'type'; type: Type }).type;
      return t?.t === 'map' ? new Map() : [];
    }
    if (name === 'string') return this.convert({ t: 'name', name: 'string' }, this.eval(e.args[0], env));
    if (name === 'panic') return fail(`panic: ${String(this.eval(e.args[0], env))}`);
    return undefined;
  }
}
