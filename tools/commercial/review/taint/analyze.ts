// The source-to-sink check: one walk of the file's ESTree in evaluation order, keeping each variable's label
// (taint/label.ts). Assignments update it (a plain `x = …` replaces it, `x.y = …`, `x.push(…)` add to it); both
// arms of an if, the cases of a switch and the bodies of functions and loops are walked as paths that may or may
// not run, and joined after. Where a labelled value reaches a sink of taint/table.ts, a finding is made. The check
// stays inside the file: a value passed to another function is not followed into it.
import type { SourceCode } from 'eslint';
import type * as ESTree from 'estree';
import type { Finding } from '../findings.js';
import { calleeName, dotted, propertyName, staticString, variableOf } from '../js-ast.js';
import { isRegExpValue, sinkApplies } from './checks.js';
import { CLEAN, type Label, union, Values, type VarKey } from './label.js';
import { exitsAlways, isRouteHandler } from './shape.js';
import { typedRole } from './types.js';
import type { TypeAnnotations } from '../js-ts-types.js';
import { ARCHIVE_ENTRY_NAME, FAMILY_INFO, KOA_CONTEXT_NAME, REQUEST_NAME, RESPONSE_NAME, SINKS, type TaintFamily } from './table.js';

type AnyNode = ESTree.Node & { parent?: AnyNode };

const MUTATORS = /^(push|unshift|splice|concat|set|append|add|assign|fill)$/;
/** Calls that check a value: their passing branch holds a clean value. */
const VALIDATOR = /^(is[A-Z_]\w*|valid\w*|validate\w*|check\w*|allow\w*|isAllowed\w*|isSafe\w*|includes|has|startsWith|endsWith|test|match)$/;
/** Checks of a value's type or presence (TypeScript's type guards, lodash's): a string that passed is any string. */
const TYPE_CHECK = /^is(Str|String|NonEmptyString|Text|Object|PlainObject|Obj|Array|Defined|Present|Empty|NotEmpty|NonEmpty|Nil|Null|Undefined|Truthy|Set|Record)$/;


export interface TaintOptions {
  /** Where eslint-plugin-security found a regular expression with catastrophic backtracking (`line:column`). */
  unsafeRegex: Set<string>;
  /** Parameters a decorator fills with the request's data (`line:column`; see js-ts-strip.ts). */
  clientParams?: Set<string>;
  /** A TypeScript file's annotations: parameters typed as a framework's request or response (taint/types.ts). */
  types?: TypeAnnotations;
}

/** The findings of the source-to-sink check on a parsed file. */
export function taintFindings(sc: SourceCode, options: TaintOptions): Finding[] {
  const walk = new Walk(sc, options);
  walk.visit(sc.ast as unknown as ESTree.Node);
  return walk.findings;
}

class Walk {
  readonly findings: Finding[] = [];
  private readonly v: Values;
  private readonly seen = new Set<string>();

  constructor(private readonly sc: SourceCode, private readonly options: TaintOptions) {
    this.v = new Values(sc);
  }

  visit(node: ESTree.Node | null | undefined): void {
    if (!node) return;
    switch (node.type) {
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        return this.fn(node);
      case 'IfStatement':
      case 'ConditionalExpression':
        return this.conditional(node);
      case 'SwitchStatement':
        this.visit(node.discriminant);
        return this.paths(node.cases.map((c) => () => this.visit(c)));
      case 'ForStatement':
        this.visit(node.init);
        this.loopBound(node.test);
        return this.paths([() => [node.test, node.body, node.update].forEach((n) => this.visit(n)), () => {}]);
      case 'WhileStatement':
      case 'DoWhileStatement':
        this.loopBound(node.test);
        this.visit(node.test);
        return this.paths([() => this.visit(node.body), () => {}]);
      case 'ForOfStatement':
      case 'ForInStatement': {
        this.visit(node.right);
        // for (const x of list): x holds the list's elements (or, for in, its keys).
        const target = node.left.type === 'VariableDeclaration' ? node.left.declarations[0]!.id : node.left;
        this.bind(target, this.v.label(node.right), false);
        return this.paths([() => this.visit(node.body), () => {}]);
      }
      case 'TryStatement':
        this.visit(node.block);
        this.paths([() => this.visit(node.handler), () => {}]);
        return this.visit(node.finalizer);
      case 'VariableDeclarator':
        this.visit(node.init);
        return this.bind(node.id, this.v.label(node.init), true, node.init);
      case 'AssignmentExpression':
        this.visit(node.right);
        if (node.left.type === 'MemberExpression') this.visitChildren(node.left);
        this.assignmentSinks(node);
        return this.assign(node);
      case 'CallExpression':
      case 'NewExpression':
        this.beforeCall(node);
        this.visitChildren(node);
        this.afterCall(node);
        return;
      case 'BinaryExpression':
      case 'TemplateLiteral':
        this.visitChildren(node);
        return this.hostUrl(node);
      default:
        return this.visitChildren(node);
    }
  }

  private visitChildren(node: ESTree.Node): void {
    const keys = this.sc.visitorKeys[node.type] ?? [];
    for (const k of keys) {
      const child = (node as unknown as Record<string, unknown>)[k];
      if (Array.isArray(child)) for (const c of child) this.visit(c as ESTree.Node);
      else if (child && typeof child === 'object') this.visit(child as ESTree.Node);
    }
  }

  /** Paths of which one runs: each walked from the same state, the results joined (or only those `keep` names). */
  private paths(runs: (() => void)[], keep?: (i: number) => boolean): void {
    const before = this.v.snapshot();
    const after: Map<VarKey, Label>[] = [];
    for (const run of runs) {
      this.v.state = new Map(before);
      run();
      after.push(this.v.state);
    }
    const kept = keep ? after.filter((_, i) => keep(i)) : after;
    this.v.state = kept.length === 0 ? before : new Map();
    for (const a of kept) this.v.join(a);
  }

  /**
   * if / ?: — where the test checks a variable (isValid(x), allowed.includes(x), x.startsWith('/'), x === 'a'),
   * the variable is clean on the branch where the check passed; a branch that returns or throws does not continue
   * after the if (`if (!isSafe(url)) return res.sendStatus(400);` leaves url clean below).
   */
  private conditional(node: ESTree.IfStatement | ESTree.ConditionalExpression): void {
    this.visit(node.test);
    const checked = this.checkedBy(node.test);
    const branch = (keys: VarKey[], body: ESTree.Node | null | undefined) => () => {
      for (const k of keys) this.v.state.set(k, CLEAN);
      this.visit(body);
    };
    const exits = node.type === 'IfStatement' ? [exitsAlways(node.consequent), exitsAlways(node.alternate)] : [false, false];
    this.paths([branch(checked.whenTrue, node.consequent), branch(checked.whenFalse, node.alternate)], (i) => !exits[i]);
  }

  /** The variables a test checks, by the outcome under which they passed. */
  private checkedBy(test: ESTree.Node): { whenTrue: VarKey[]; whenFalse: VarKey[] } {
    const none = { whenTrue: [] as VarKey[], whenFalse: [] as VarKey[] };
    const key = (n: ESTree.Node | undefined) => (n?.type === 'Identifier' && !this.v.roleOf(n) ? [this.v.keyOf(n)] : []);
    switch (test.type) {
      case 'UnaryExpression': {
        if (test.operator !== '!') return none;
        const inner = this.checkedBy(test.argument);
        return { whenTrue: inner.whenFalse, whenFalse: inner.whenTrue };
      }
      case 'LogicalExpression': {
        const [a, b] = [this.checkedBy(test.left), this.checkedBy(test.right)];
        return test.operator === '&&' ? { whenTrue: [...a.whenTrue, ...b.whenTrue], whenFalse: [] } : test.operator === '||' ? { whenTrue: [], whenFalse: [...a.whenFalse, ...b.whenFalse] } : none;
      }
      case 'BinaryExpression': {
        // x === 'known' (a comparison with a constant: only that constant passes).
        const [l, r] = [test.left, test.right];
        const constant = (n: ESTree.Node) => n.type === 'Literal' || (n.type === 'TemplateLiteral' && n.expressions.length === 0);
        const checked = constant(r) ? key(l) : constant(l) ? key(r as ESTree.Node) : [];
        if (test.operator === '===' || test.operator === '==') return { whenTrue: checked, whenFalse: [] };
        if (test.operator === '!==' || test.operator === '!=') return { whenTrue: [], whenFalse: checked };
        return none;
      }
      case 'CallExpression': {
        const name = calleeName(test) ?? '';
        if (!VALIDATOR.test(name) || TYPE_CHECK.test(name)) return none;
        const recv = test.callee.type === 'MemberExpression' ? test.callee.object : undefined;
        // x.startsWith('/'), x.match(re): the receiver; isSafe(x), list.includes(x), re.test(x): the arguments.
        const subject = /^(startsWith|endsWith|match)$/.test(name) ? key(recv) : test.arguments.flatMap((a) => key(a));
        return { whenTrue: subject, whenFalse: [] };
      }
      default:
        return none;
    }
  }

  private fn(node: ESTree.Function): void {
    this.markParams(node);
    const before = this.v.snapshot();
    for (const p of node.params) this.visit(p);
    this.visit(node.body);
    const after = this.v.state;
    this.v.state = before;
    this.v.join(after);
  }

  /** Parameters that are sources: the request (by name, or first beside a response), Koa's context, archive entries. */
  private markParams(node: ESTree.Function): void {
    const [a, b] = node.params;
    const name = (p: ESTree.Pattern | undefined) => (p?.type === 'Identifier' ? p.name : undefined);
    const set = (p: ESTree.Pattern | undefined, role: Parameters<Values['roles']['set']>[1]) => {
      if (p?.type === 'Identifier') this.v.roles.set(this.v.keyOf(p), role);
    };
    const handler = isRouteHandler(node);
    if (name(a) && (REQUEST_NAME.test(name(a)!) || (handler && node.params.length >= 2) || RESPONSE_NAME.test(name(b) ?? ''))) set(a, 'request');
    if (name(b) && (RESPONSE_NAME.test(name(b)!) || (a && this.v.roleOf(a) === 'request'))) set(b, 'response');
    for (const p of node.params) {
      const n = name(p);
      if (!n) continue;
      const typed = this.v.roleOf(p) ? undefined : typedRole(this.options.types, p);
      if (this.options.clientParams?.has(`${p.loc!.start.line}:${p.loc!.start.column}`)) set(p, 'client-value');
      else if (typed) set(p, typed);
      else if (KOA_CONTEXT_NAME.test(n)) set(p, 'koa');
      else if (ARCHIVE_ENTRY_NAME.test(n)) set(p, 'archive-entry');
      else if (REQUEST_NAME.test(n) && p !== a && !this.v.roleOf(p)) set(p, 'request');
    }
  }

  /** Before a call's arguments are walked: a 'message' listener's event parameter carries the sender's data. */
  private beforeCall(node: ESTree.CallExpression | ESTree.NewExpression): void {
    if (calleeName(node) !== 'addEventListener' || staticString(this.sc, node.arguments[0]) !== 'message') return;
    const fn = node.arguments[1];
    if ((fn?.type === 'FunctionExpression' || fn?.type === 'ArrowFunctionExpression') && fn.params[0]?.type === 'Identifier') this.v.roles.set(this.v.keyOf(fn.params[0]), 'message-event');
  }

  private afterCall(node: ESTree.CallExpression | ESTree.NewExpression): void {
    this.callSinks(node);
    if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return;
    // x.push(t), map.set(k, t), Object.assign(x, t): x now holds t.
    const name = calleeName(node);
    if (!name || !MUTATORS.test(name)) return;
    const added = node.arguments.reduce<Label>((l, a) => union(l, this.v.label(a)), CLEAN);
    const target = dotted(node.callee) === 'Object.assign' ? node.arguments[0] : node.callee.object;
    if (added.size > 0 && target) this.addTo(target, added);
  }

  private bind(pattern: ESTree.Pattern, label: Label, declaration: boolean, init?: ESTree.Expression | null): void {
    switch (pattern.type) {
      case 'Identifier':
        // const x = require('…') and the like keep no label; a declaration or plain assignment replaces the old one.
        this.v.state.set(this.v.keyOf(pattern), label);
        return;
      case 'ObjectPattern':
        for (const p of pattern.properties) {
          if (p.type === 'RestElement') this.bind(p.argument, label, declaration);
          else {
            // const { method } = req: the server's; const { name } = req.query: the client's.
            const key = !p.computed && p.key.type === 'Identifier' ? p.key.name : undefined;
            const l = init && key ? this.v.label({ type: 'MemberExpression', object: init, property: { type: 'Identifier', name: key }, computed: false, optional: false } as ESTree.MemberExpression) : label;
            this.bind(p.value, l, declaration);
          }
        }
        return;
      case 'ArrayPattern':
        for (const e of pattern.elements) if (e) this.bind(e, label, declaration);
        return;
      case 'AssignmentPattern':
        this.bind(pattern.left, union(label, this.v.label(pattern.right)), declaration);
        return;
      case 'RestElement':
        this.bind(pattern.argument, label, declaration);
        return;
      case 'MemberExpression':
        this.addTo(pattern.object as ESTree.Expression, label);
        return;
    }
  }

  private assign(node: ESTree.AssignmentExpression): void {
    const right = this.v.label(node.right);
    if (node.left.type === 'Identifier') {
      const k = this.v.keyOf(node.left);
      this.v.state.set(k, node.operator === '=' ? right : union(this.v.state.get(k) ?? CLEAN, right));
    } else if (node.left.type === 'MemberExpression') {
      if (right.size > 0) this.addTo(node.left.object as ESTree.Expression, right);
    } else this.bind(node.left, right, false);
  }

  /** `obj.x = t`, `obj.push(t)`: the object (its root variable) now holds t. */
  private addTo(target: ESTree.Node, label: Label): void {
    let n: ESTree.Node = target;
    while (n.type === 'MemberExpression') n = n.object;
    if (n.type !== 'Identifier' || this.v.roleOf(n)) return;
    const k = this.v.keyOf(n);
    this.v.state.set(k, union(this.v.state.get(k) ?? CLEAN, label));
  }

  private report(family: TaintFamily, node: ESTree.Node, detail?: string): void {
    const loc = node.loc!;
    const key = `${family}:${loc.start.line}:${loc.start.column}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const info = FAMILY_INFO[family];
    const source = family === 'host-header' ? 'The Host header, which the client chooses,' : detail ?? 'Input the client controls';
    this.findings.push({
      rule_id: `taint/${family}`,
      line: loc.start.line,
      column: loc.start.column + 1,
      end_line: loc.end.line,
      end_column: loc.end.column + 1,
      severity: info.severity,
      category: 'security',
      cwe: info.cwe,
      message: `${source} ${info.what}.`,
      fix: info.fix,
      engine: 'taint',
    });
  }

  private callSinks(node: ESTree.CallExpression | ESTree.NewExpression): void {
    const full = dotted(node.callee) ?? '';
    const name = calleeName(node) ?? '';
    for (const sink of SINKS) {
      if (Boolean(sink.construct) !== (node.type === 'NewExpression')) continue;
      // A method sink matches by its last name, called on an object or imported alone (`exec`, `readFileSync`); its check decides whose it is.
      if (!(sink.method ? sink.callee.test(name) : sink.callee.test(full))) continue;
      const positions = sink.args === 'any' ? node.arguments.map((_, i) => i) : sink.args;
      for (const i of positions) {
        const arg = node.arguments[i];
        if (!arg || !this.v.label(arg).has(sink.family)) continue;
        if (!sinkApplies(this.v, sink, node, arg, i)) continue;
        this.report(sink.family, node, sink.family === 'path-traversal' && this.isArchiveName(arg) ? 'A name taken from an archive entry' : undefined);
        break;
      }
    }
    this.regexSinks(node);
  }

  private isArchiveName(arg: ESTree.Node): boolean {
    const l = this.v.label(arg);
    return l.size === 1 && l.has('path-traversal');
  }

  /** An unsafe regular expression (found by eslint-plugin-security) run on the client's text. */
  private regexSinks(node: ESTree.CallExpression | ESTree.NewExpression): void {
    if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return;
    const name = calleeName(node);
    const recv = node.callee.object;
    let regex: ESTree.Node | undefined;
    let text: ESTree.Node | undefined;
    if (name === 'test' || name === 'exec') [regex, text] = [recv, node.arguments[0]];
    else if (name && /^(match|matchAll|replace|replaceAll|search|split)$/.test(name)) [regex, text] = [node.arguments[0], recv];
    if (!regex || !text || !this.v.label(text).has('redos')) return;
    const literal = regex.type === 'Identifier' ? this.regexDefinition(regex) : regex;
    if (literal && this.options.unsafeRegex.has(`${literal.loc!.start.line}:${literal.loc!.start.column + 1}`)) this.report('redos', node);
  }

  private regexDefinition(id: ESTree.Identifier): ESTree.Node | undefined {
    if (!isRegExpValue(this.sc, id)) return undefined;
    const v = variableOf(this.sc, id);
    return (v?.references.find((r) => r.writeExpr)?.writeExpr as ESTree.Node | undefined) ?? undefined;
  }

  private assignmentSinks(node: ESTree.AssignmentExpression): void {
    const right = this.v.label(node.right);
    if (right.size === 0 && !(node.left.type === 'MemberExpression' && node.left.computed)) return;
    const left = node.left;
    const target = dotted(left) ?? '';
    // el.innerHTML = t, location.href = t, location = t.
    if (left.type === 'MemberExpression' && /^(innerHTML|outerHTML)$/.test(propertyName(left) ?? '') && right.has('xss')) this.report('xss', node);
    if (/^((window|document)\.)?location(\.href)?$/.test(target) && right.has('open-redirect')) this.report('open-redirect', node);
    // obj[key] = v with the client's key (and not an index).
    if (left.type === 'MemberExpression' && left.computed && left.property.type !== 'Literal') {
      const keyLabel = this.v.label(left.property as ESTree.Expression);
      const obj = left.object.type === 'MemberExpression' && left.object.computed ? this.v.label(left.object.property as ESTree.Expression) : CLEAN;
      if (keyLabel.has('prototype-pollution') && (right.size > 0 || obj.has('prototype-pollution'))) this.report('prototype-pollution', node);
    }
  }

  /** for (…; i < t.length; …) / while (i < t.length): the client chooses how long the loop runs. */
  private loopBound(test: ESTree.Expression | null | undefined): void {
    if (!test || test.type !== 'BinaryExpression' || !/^<=?$/.test(test.operator)) return;
    const bound = test.right;
    if (bound.type === 'MemberExpression' && propertyName(bound) === 'length' && this.v.label(bound.object as ESTree.Expression).has('loop-dos')) this.report('loop-dos', test);
  }

  /** 'https://' + host (+ …): an absolute URL built from the Host header. Checked once, at the outermost `+`. */
  private hostUrl(node: ESTree.BinaryExpression | ESTree.TemplateLiteral): void {
    const parent = (node as AnyNode).parent;
    if (node.type === 'BinaryExpression' && (node.operator !== '+' || (parent?.type === 'BinaryExpression' && parent.operator === '+'))) return;
    const parts: ESTree.Node[] = [];
    const flatten = (n: ESTree.Node) => {
      if (n.type === 'BinaryExpression' && n.operator === '+') {
        flatten(n.left);
        flatten(n.right);
      } else if (n.type === 'TemplateLiteral') {
        n.quasis.forEach((q, i) => {
          parts.push(q);
          if (n.expressions[i]) parts.push(n.expressions[i]!);
        });
      } else parts.push(n);
    };
    flatten(node);
    for (let i = 1; i < parts.length; i++) {
      const before = parts[i - 1]!;
      const text = before.type === 'TemplateElement' ? before.value.cooked : staticString(this.sc, before);
      if (text && /:\/\/$/.test(text) && this.v.label(parts[i]).has('host-header')) return this.report('host-header', parts[i]!);
    }
  }
}
