// Small readers of the ESTree that ESLint gives, shared by this project's rules and the source-to-sink check:
// the dotted name of a callee, a string a node certainly holds, a property of an object literal, what an
// identifier was bound to.
import type { Rule, Scope, SourceCode } from 'eslint';
import type * as ESTree from 'estree';

export type Node = ESTree.Node & { parent?: Node };

/** `a.b.c` for a member chain of names (`a['b']` too); a call inside the chain reads as `()`: `res.status().send`. */
export function dotted(node: ESTree.Node | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'ThisExpression') return 'this';
  if (node.type === 'MemberExpression') {
    const obj = node.object.type === 'Super' ? 'super' : dotted(node.object as ESTree.Expression);
    const prop = propertyName(node);
    return obj !== undefined && prop !== undefined ? `${obj}.${prop}` : undefined;
  }
  if (node.type === 'CallExpression') {
    const callee = dotted(node.callee as ESTree.Expression);
    return callee === undefined ? undefined : `${callee}()`;
  }
  if (node.type === 'ChainExpression') return dotted(node.expression);
  if (node.type === 'AwaitExpression') return dotted(node.argument);
  return undefined;
}

/** The name a member expression reads: `x.name`, `x['name']`, `x[`name`]`. */
export function propertyName(node: ESTree.MemberExpression): string | undefined {
  if (!node.computed && node.property.type === 'Identifier') return node.property.name;
  if (node.property.type === 'Literal' && typeof node.property.value === 'string') return node.property.value;
  if (node.property.type === 'TemplateLiteral' && node.property.expressions.length === 0) return node.property.quasis[0]!.value.cooked ?? undefined;
  return undefined;
}

/** The last name of a callee: `send` for `res.status(200).send`, `exec` for `exec`. */
export function calleeName(node: ESTree.CallExpression | ESTree.NewExpression): string | undefined {
  const c = node.callee;
  if (c.type === 'Identifier') return c.name;
  if (c.type === 'MemberExpression') return propertyName(c);
  return undefined;
}

/** The key of an object literal's property as a string. */
export function keyName(p: ESTree.Property | ESTree.SpreadElement): string | undefined {
  if (p.type !== 'Property') return undefined;
  if (!p.computed && p.key.type === 'Identifier') return p.key.name;
  if (p.key.type === 'Literal') return String(p.key.value);
  return undefined;
}

/** The value of an object literal's property, by a key test. */
export function property(obj: ESTree.Node | null | undefined, key: string | RegExp): ESTree.Node | undefined {
  if (!obj || obj.type !== 'ObjectExpression') return undefined;
  for (const p of obj.properties) {
    const k = keyName(p);
    if (k !== undefined && (typeof key === 'string' ? k === key : key.test(k))) return (p as ESTree.Property).value;
  }
  return undefined;
}

const variables = new WeakMap<SourceCode, Map<ESTree.Identifier, Scope.Variable | null>>();

/** The variable an identifier declares or refers to (null: an undeclared global), from one pass over the scopes per file. */
export function variableOf(sourceCode: SourceCode, id: ESTree.Identifier): Scope.Variable | undefined {
  let map = variables.get(sourceCode);
  if (!map) {
    map = new Map();
    for (const scope of sourceCode.scopeManager?.scopes ?? []) {
      for (const v of scope.variables) for (const i of v.identifiers) map.set(i as ESTree.Identifier, v);
      for (const r of scope.references) map.set(r.identifier as ESTree.Identifier, r.resolved);
    }
    variables.set(sourceCode, map);
  }
  return map.get(id) ?? undefined;
}

/** The expression a name was bound to once and for all (a const, or a let/var never written again), if any. */
export function boundValue(sourceCode: SourceCode, id: ESTree.Identifier): ESTree.Expression | undefined {
  const v = variableOf(sourceCode, id);
  if (!v || v.defs.length !== 1) return undefined;
  const def = v.defs[0]!;
  if (def.type !== 'Variable' || def.node.id.type !== 'Identifier' || !def.node.init) return undefined;
  const writes = v.references.filter((r) => r.isWrite());
  if (writes.length > 1) return undefined;
  return def.node.init;
}

/** The string a node certainly holds: a literal, a template without holes, a constant bound to one, `a + b` of those. */
export function staticString(sourceCode: SourceCode, node: ESTree.Node | null | undefined, depth = 0): string | undefined {
  if (!node || depth > 4) return undefined;
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' ? node.value : undefined;
    case 'TemplateLiteral':
      return node.expressions.length === 0 ? (node.quasis[0]!.value.cooked ?? undefined) : undefined;
    case 'BinaryExpression': {
      if (node.operator !== '+') return undefined;
      const a = staticString(sourceCode, node.left, depth + 1);
      const b = a === undefined ? undefined : staticString(sourceCode, node.right, depth + 1);
      return a !== undefined && b !== undefined ? a + b : undefined;
    }
    case 'Identifier': {
      const init = boundValue(sourceCode, node);
      return init ? staticString(sourceCode, init, depth + 1) : undefined;
    }
    default:
      return undefined;
  }
}

/** A literal value of any type (true, 0, null, 'x'), following a constant binding once. */
export function literalValue(sourceCode: SourceCode, node: ESTree.Node | null | undefined): { value: unknown } | undefined {
  if (!node) return undefined;
  if (node.type === 'Literal') return { value: node.value };
  if (node.type === 'UnaryExpression' && node.operator === '!' && node.argument.type === 'Literal') return { value: !node.argument.value };
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return { value: node.quasis[0]!.value.cooked };
  if (node.type === 'Identifier') {
    const init = boundValue(sourceCode, node);
    if (init && (init.type === 'Literal' || init.type === 'TemplateLiteral')) return literalValue(sourceCode, init);
  }
  return undefined;
}

/** The object literal a node is, or is bound to (one hop through a constant), so options passed by name are read too. */
export function objectOf(sourceCode: SourceCode, node: ESTree.Node | null | undefined): ESTree.ObjectExpression | undefined {
  if (!node) return undefined;
  if (node.type === 'ObjectExpression') return node;
  if (node.type === 'Identifier') {
    const init = boundValue(sourceCode, node);
    if (init?.type === 'ObjectExpression') return init;
  }
  return undefined;
}

/** The module a name was imported or required from: `require('x')`, `require('x').y`, `import … from 'x'`. */
export function moduleOf(sourceCode: SourceCode, id: ESTree.Identifier): string | undefined {
  const v = variableOf(sourceCode, id);
  const def = v?.defs[0];
  if (!def) return undefined;
  if (def.type === 'ImportBinding') {
    const decl = def.parent as ESTree.ImportDeclaration;
    return typeof decl.source.value === 'string' ? decl.source.value : undefined;
  }
  if (def.type === 'Variable') return requiredModule(def.node.init);
  return undefined;
}

/** 'x' for `require('x')`, `require('x').y`, `require('x')()`. */
export function requiredModule(node: ESTree.Node | null | undefined): string | undefined {
  let n = node;
  while (n && (n.type === 'MemberExpression' || (n.type === 'CallExpression' && n.callee.type !== 'Identifier'))) n = n.type === 'MemberExpression' ? n.object : (n.callee as ESTree.Expression);
  if (n?.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === 'require' && n.arguments[0]?.type === 'Literal') return String(n.arguments[0].value);
  return undefined;
}

/** The root identifier of a member/call chain: `res` for `res.status(500).send`. */
export function rootOf(node: ESTree.Node): ESTree.Identifier | undefined {
  let n: ESTree.Node = node;
  for (;;) {
    if (n.type === 'Identifier') return n;
    if (n.type === 'MemberExpression') n = n.object;
    else if (n.type === 'CallExpression') n = n.callee;
    else if (n.type === 'ChainExpression') n = n.expression;
    else if (n.type === 'AwaitExpression') n = n.argument;
    else return undefined;
  }
}

const DOM_ROOT = /^(window|document|self|top|parent|frames|globalThis|opener)$/;

/**
 * True when an object is certainly the file's own and not the DOM's: `this` in a class that extends no element,
 * an instance of a class declared here, or the result of a function declared here that returns no window/document.
 */
export function localNonDomObject(sc: SourceCode, obj: ESTree.Node): boolean {
  if (obj.type === 'ThisExpression') {
    for (let p = (obj as Node).parent; p; p = p.parent) {
      if (p.type === 'ClassBody') {
        const cls = p.parent as ESTree.ClassDeclaration | ESTree.ClassExpression;
        return !cls.superClass || !/HTML|Element|Node|Window|Document/.test(dotted(cls.superClass) ?? '');
      }
      if (p.type === 'FunctionDeclaration' || (p.type === 'FunctionExpression' && p.parent?.type !== 'MethodDefinition')) return false;
    }
    return false;
  }
  if (obj.type === 'Identifier') {
    const v = variableOf(sc, obj);
    const init = v?.defs[0]?.type === 'Variable' ? v.defs[0].node.init : undefined;
    if (init?.type === 'CallExpression') return localNonDomObject(sc, init);
    return init?.type === 'NewExpression' && init.callee.type === 'Identifier' && variableOf(sc, init.callee)?.defs[0]?.type === 'ClassName';
  }
  if (obj.type === 'CallExpression' && obj.callee.type === 'Identifier') {
    const def = variableOf(sc, obj.callee)?.defs[0];
    if (def?.type !== 'FunctionName') return false;
    const returns: ESTree.Node[] = [];
    const visit = (n: ESTree.Node | null | undefined): void => {
      if (!n || typeof n !== 'object') return;
      if (n.type === 'ReturnStatement') return void returns.push(n.argument ?? { type: 'Literal', value: null, raw: 'null' });
      if (n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression') return;
      for (const k of sc.visitorKeys[n.type] ?? []) {
        const c = (n as unknown as Record<string, unknown>)[k];
        if (Array.isArray(c)) c.forEach((x) => visit(x as ESTree.Node));
        else visit(c as ESTree.Node);
      }
    };
    visit((def.node as ESTree.FunctionDeclaration).body);
    return returns.length > 0 && returns.every((r) => !DOM_ROOT.test(rootOf(r)?.name ?? '') && r.type !== 'Identifier' && r.type !== 'CallExpression' && r.type !== 'MemberExpression');
  }
  return false;
}

/** A rule that reports one message per node its check picks out. */
export function simpleRule(check: (context: Rule.RuleContext) => Rule.RuleListener): Rule.RuleModule {
  return { meta: { type: 'problem', schema: [] }, create: check };
}
