// What the source-to-sink check knows about values: a label is the set of families for which a value is still
// dangerous (request data starts with all of them; a sanitizer removes some), and a state maps each variable to its
// label at the current point of the walk. Labels of expressions are computed from the state (sources, propagation
// through operators and calls, sanitizers).
import type { Scope, SourceCode } from 'eslint';
import type * as ESTree from 'estree';
import { calleeName, dotted, propertyName, staticString } from '../js-ast.js';
import { ARCHIVE_ENTRY_PROPS, BROWSER_SOURCES, CLEAN_RESULT, FAMILIES, HOST_PROPS, KOA_CLIENT_PROPS, SAFE_SQL_TAG, SANITIZERS, SERVER_SET_REQUEST_PROPS, STORE_READ, STRING_REQUEST_PROPS, type TaintFamily } from './table.js';

export type Label = ReadonlySet<TaintFamily>;
export const CLEAN: Label = new Set();
/** Data from the client: dangerous everywhere but as a Host header. */
export const CLIENT: Label = new Set(FAMILIES.filter((f) => f !== 'host-header'));
export const HOST: Label = new Set(FAMILIES);
export const ARCHIVE_NAME: Label = new Set<TaintFamily>(['path-traversal']);
/** The client's text (route parameters, headers): everything but what needs an object or an array. */
export const CLIENT_TEXT: Label = new Set([...CLIENT].filter((f) => f !== 'nosql-injection' && f !== 'loop-dos'));

export const union = (a: Label, b: Label): Label => (a.size === 0 ? b : b.size === 0 ? a : new Set([...a, ...b]));
const minus = (a: Label, fams: readonly TaintFamily[] | '*'): Label => (fams === '*' ? CLEAN : new Set([...a].filter((f) => !fams.includes(f))));

/** A variable, or an undeclared name (`global:req`) for code pasted out of its function. */
export type VarKey = Scope.Variable | string;

/** How a variable or parameter is known to hold a source, beside what was assigned to it. */
export type Role = 'request' | 'response' | 'koa' | 'archive-entry' | 'message-event' | 'client-value';

export class Values {
  state = new Map<VarKey, Label>();
  readonly roles = new Map<VarKey, Role>();
  private readonly byIdentifier = new Map<ESTree.Identifier, VarKey>();

  constructor(readonly sc: SourceCode) {
    for (const scope of sc.scopeManager?.scopes ?? []) {
      for (const v of scope.variables) for (const id of v.identifiers) this.byIdentifier.set(id as ESTree.Identifier, v);
      for (const r of scope.references) this.byIdentifier.set(r.identifier as ESTree.Identifier, r.resolved ?? `global:${r.identifier.name}`);
    }
  }

  keyOf(id: ESTree.Identifier): VarKey {
    return this.byIdentifier.get(id) ?? `global:${id.name}`;
  }

  roleOf(node: ESTree.Node): Role | undefined {
    if (node.type !== 'Identifier') return undefined;
    const k = this.keyOf(node);
    const r = this.roles.get(k);
    if (r) return r;
    // An undeclared req/res (a handler's body pasted alone) is the request/response.
    if (typeof k === 'string') {
      if (/^global:(req|request)$/.test(k)) return 'request';
      if (/^global:(res|response)$/.test(k)) return 'response';
    }
    return undefined;
  }

  snapshot(): Map<VarKey, Label> {
    return new Map(this.state);
  }

  /** After two paths that may each have run: a variable is dangerous if it is on either. */
  join(other: Map<VarKey, Label>): void {
    for (const [k, l] of other) this.state.set(k, union(this.state.get(k) ?? CLEAN, l));
  }

  label(node: ESTree.Node | null | undefined, depth = 0): Label {
    if (!node || depth > 40) return CLEAN;
    switch (node.type) {
      case 'Identifier': {
        const role = this.roleOf(node);
        if (role === 'request' || role === 'client-value') return CLIENT;
        return this.state.get(this.keyOf(node)) ?? CLEAN;
      }
      case 'MemberExpression':
        return this.memberLabel(node, depth);
      case 'CallExpression':
        return this.callLabel(node, depth);
      case 'NewExpression':
        return node.arguments.reduce<Label>((l, a) => union(l, this.label(a, depth + 1)), CLEAN);
      case 'TemplateLiteral':
        return node.expressions.reduce<Label>((l, e) => union(l, this.label(e, depth + 1)), CLEAN);
      case 'TaggedTemplateExpression': {
        const l = node.quasi.expressions.reduce<Label>((acc, e) => union(acc, this.label(e, depth + 1)), CLEAN);
        return SAFE_SQL_TAG.test(dotted(node.tag) ?? '') ? minus(l, ['sql-injection']) : l;
      }
      case 'BinaryExpression':
        // Only + keeps the operands' text; comparisons, arithmetic and `in` give booleans and numbers.
        return node.operator === '+' ? union(this.label(node.left as ESTree.Expression, depth + 1), this.label(node.right, depth + 1)) : CLEAN;
      case 'LogicalExpression':
        return union(this.label(node.left, depth + 1), this.label(node.right, depth + 1));
      case 'ConditionalExpression':
        return union(this.label(node.consequent, depth + 1), this.label(node.alternate, depth + 1));
      case 'ArrayExpression':
        return node.elements.reduce<Label>((l, e) => union(l, this.label(e, depth + 1)), CLEAN);
      case 'ObjectExpression':
        return node.properties.reduce<Label>((l, p) => union(l, p.type === 'Property' ? this.label(p.value, depth + 1) : this.label(p.argument, depth + 1)), CLEAN);
      case 'SpreadElement':
      case 'AwaitExpression':
        return this.label(node.argument, depth + 1);
      case 'ChainExpression':
        return this.label(node.expression, depth + 1);
      case 'AssignmentExpression':
        return this.label(node.right, depth + 1);
      case 'SequenceExpression':
        return this.label(node.expressions.at(-1), depth + 1);
      case 'YieldExpression':
        return this.label(node.argument, depth + 1);
      default:
        // Literals, functions, classes, unary operators (typeof, !, +x, -x): nothing the client wrote survives.
        return CLEAN;
    }
  }

  private memberLabel(node: ESTree.MemberExpression, depth: number): Label {
    const prop = propertyName(node);
    if (BROWSER_SOURCES.test(dotted(node) ?? '')) return CLIENT;
    if (prop === 'length') return CLEAN;
    const role = this.roleOf(node.object);
    if (role === 'request') {
      if (prop === undefined) return node.computed && staticString(this.sc, node.property) === undefined ? CLIENT : CLEAN;
      if (SERVER_SET_REQUEST_PROPS.has(prop)) return CLEAN;
      if (HOST_PROPS.has(prop)) return HOST;
      return STRING_REQUEST_PROPS.has(prop) ? CLIENT_TEXT : CLIENT;
    }
    if (role === 'koa') return prop && KOA_CLIENT_PROPS.has(prop) ? (HOST_PROPS.has(prop) ? HOST : CLIENT) : CLEAN;
    if (role === 'archive-entry') return prop && ARCHIVE_ENTRY_PROPS.has(prop) ? ARCHIVE_NAME : CLEAN;
    if (role === 'message-event') return prop === 'data' ? CLIENT : CLEAN;
    if (role === 'response') return CLEAN;
    // req.headers.host, req.headers['x-forwarded-host']
    if (prop && /^(host|x-forwarded-host)$/i.test(prop) && node.object.type === 'MemberExpression' && propertyName(node.object) === 'headers' && this.roleOf(node.object.object)) return HOST;
    return this.label(node.object, depth + 1);
  }

  private callLabel(node: ESTree.CallExpression, depth: number): Label {
    const callee = node.callee;
    if (callee.type === 'FunctionExpression' || callee.type === 'ArrowFunctionExpression') return CLEAN;
    const receiver = callee.type === 'MemberExpression' ? callee.object : undefined;
    const name = calleeName(node);
    const full = dotted(callee) ?? name ?? '';
    const role = receiver ? this.roleOf(receiver) : undefined;
    if (role === 'request') {
      // req.param('x'), req.get('Host'), req.header('x'), req.query('x'); req.accepts(), req.is() are the server's.
      if (name && SERVER_SET_REQUEST_PROPS.has(name)) return CLEAN;
      if (HOST_PROPS.has(staticString(this.sc, node.arguments[0])?.toLowerCase() ?? '')) return HOST;
      return name && STRING_REQUEST_PROPS.has(name) ? CLIENT_TEXT : CLIENT;
    }
    if (role === 'response') return CLEAN;
    const args = () => node.arguments.reduce<Label>((l, a) => union(l, this.label(a, depth + 1)), CLEAN);
    const all = () => union(receiver ? this.label(receiver, depth + 1) : CLEAN, args());
    const cleaned = SANITIZERS.filter((s) => s.callee.test(full) || (name !== undefined && s.callee.test(name)));
    if (cleaned.length > 0) return cleaned.reduce((l, s) => minus(l, s.families), all());
    if (CLEAN_RESULT.test(full)) return CLEAN;
    if (receiver && STORE_READ.test(full)) return this.label(receiver, depth + 1);
    return all();
  }
}

export type { TaintFamily };
