// What type an expression has, as far as the file itself says, for the sdl rules that ask typescript-eslint's type
// checker (no-cookies, no-document-domain, no-document-write, no-insecure-random, no-postmessage-star-origin): this
// review cannot run typescript-eslint (see eslint.ts), and without a checker those rules only recognise the
// spellings `document`, `window.document` and `Math`, so `var doc = document; doc.domain = …` and
// `documentFunction().cookie` go unseen. The oracle follows what the code and its TypeScript annotations say:
// the browser's globals, a name bound once, a declared or asserted type, what a local function declares or
// returns, a `new` of a class. What it cannot tell, each rule decides as it does without types (see typedContext).
import type { Rule, SourceCode } from 'eslint';
import type * as ESTree from 'estree';
import { createRequire } from 'node:module';
import { propertyName, variableOf } from './js-ast.js';
import { annotationsOf, type TypeAnnotations } from './js-ts-types.js';

type AnyNode = ESTree.Node & { parent?: AnyNode };

/** The browser's globals and the type TypeScript's DOM library gives them. */
const GLOBAL_TYPES: Record<string, string> = {
  document: 'Document', window: 'Window', self: 'Window', top: 'Window', parent: 'Window', frames: 'Window', opener: 'Window', globalThis: 'Window',
  Math: 'Math', crypto: 'Crypto',
};
/** Properties of a window (or of the global `this`) that are the same globals. */
const WINDOW_PROPS: Record<string, string> = { ...GLOBAL_TYPES };
/** Properties that hold a document or a window, whatever they are read from (an element, an iframe, a document). */
const ANY_PROPS: Record<string, string> = { ownerDocument: 'Document', contentDocument: 'Document', contentWindow: 'Window', defaultView: 'Window' };

export class TypeOracle {
  private readonly memo = new WeakMap<ESTree.Node, string | undefined>();
  private readonly ann: TypeAnnotations | undefined;

  constructor(private readonly sc: SourceCode) {
    this.ann = annotationsOf(sc.text);
  }

  /** The type's name (`Document`, `Window`, `Math`, a class or interface name), or undefined when the file does not say. */
  typeOf(node: ESTree.Node | null | undefined, depth = 0): string | undefined {
    if (!node || depth > 8) return undefined;
    if (this.memo.has(node)) return this.memo.get(node);
    this.memo.set(node, undefined); // a cycle (x = f(); function f() { return x; }) says nothing
    const t = this.ann?.asserted(node) ?? this.infer(node, depth);
    this.memo.set(node, t);
    return t;
  }

  private infer(node: ESTree.Node, depth: number): string | undefined {
    switch (node.type) {
      case 'Identifier':
        return this.ofName(node, depth);
      case 'ThisExpression':
        return globalThisAt(node) ? 'Window' : undefined;
      case 'MemberExpression': {
        const prop = propertyName(node);
        if (prop && Object.hasOwn(ANY_PROPS, prop)) return ANY_PROPS[prop];
        const obj = node.object.type === 'Super' ? undefined : this.typeOf(node.object, depth + 1);
        if (obj !== 'Window') return undefined;
        // window.frames[0], window.parent: windows; window.document, this.Math: the globals.
        if (node.computed && prop === undefined) return 'Window';
        return prop && Object.hasOwn(WINDOW_PROPS, prop) ? WINDOW_PROPS[prop] : undefined;
      }
      case 'CallExpression': {
        const callee = node.callee;
        if (callee.type === 'MemberExpression' && propertyName(callee) === 'open' && this.typeOf(callee.object, depth + 1) === 'Window') return 'Window';
        return callee.type === 'Identifier' ? this.returnOf(this.functionOf(callee), depth) : undefined;
      }
      case 'NewExpression':
        // new WindowLike(): an instance of that class (TypeScript names the type after it).
        return node.callee.type === 'Identifier' ? node.callee.name : undefined;
      default:
        return undefined;
    }
  }

  private ofName(id: ESTree.Identifier, depth: number): string | undefined {
    const v = variableOf(this.sc, id);
    if (!v || v.defs.length === 0) return Object.hasOwn(GLOBAL_TYPES, id.name) ? GLOBAL_TYPES[id.name] : undefined;
    if (v.defs.length !== 1) return undefined;
    const def = v.defs[0]!;
    const declared = this.ann?.declared(def.name as ESTree.Node);
    if (declared) return declared;
    if (def.type !== 'Variable' || def.node.id.type !== 'Identifier' || !def.node.init) return undefined;
    // A name bound once (const, or let/var never written again) has its value's type.
    if (v.references.filter((r) => r.isWrite()).length > 1) return undefined;
    return this.typeOf(def.node.init, depth + 1);
  }

  /** The function a name calls, when the file declares it (a function declaration, or a const bound to one). */
  private functionOf(id: ESTree.Identifier): ESTree.Function | undefined {
    const def = variableOf(this.sc, id)?.defs[0];
    if (def?.type === 'FunctionName') return def.node as ESTree.FunctionDeclaration;
    const init = def?.type === 'Variable' ? def.node.init : undefined;
    return init?.type === 'FunctionExpression' || init?.type === 'ArrowFunctionExpression' ? init : undefined;
  }

  /** What a function declares it returns, else the one type all its returns have. */
  private returnOf(fn: ESTree.Function | undefined, depth: number): string | undefined {
    if (!fn || fn.async || fn.generator) return undefined;
    const declared = this.ann?.returned(fn);
    if (declared) return declared;
    if (fn.body.type !== 'BlockStatement') return this.typeOf(fn.body, depth + 1);
    const returns: (ESTree.Expression | null | undefined)[] = [];
    const visit = (n: ESTree.Node | null | undefined): void => {
      if (!n || typeof n !== 'object') return;
      if (n.type === 'ReturnStatement') return void returns.push(n.argument);
      if (n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression' || n.type === 'ClassBody') return;
      for (const k of this.sc.visitorKeys[n.type] ?? []) {
        const c = (n as unknown as Record<string, unknown>)[k];
        if (Array.isArray(c)) c.forEach((x) => visit(x as ESTree.Node));
        else visit(c as ESTree.Node);
      }
    };
    visit(fn.body);
    const types = new Set(returns.map((r) => this.typeOf(r, depth + 1)));
    return types.size === 1 ? [...types][0] : undefined;
  }
}

/** `this` outside every function and class body: the global object (a script's top level, as TypeScript types it). */
function globalThisAt(node: ESTree.Node): boolean {
  for (let p = (node as AnyNode).parent; p; p = p.parent) {
    if (p.type === 'FunctionDeclaration' || p.type === 'FunctionExpression' || p.type === 'ClassBody' || p.type === 'PropertyDefinition') return false;
  }
  return true;
}

const require = createRequire(import.meta.url);
const sdlUtils = require('@microsoft/eslint-plugin-sdl/lib/ast-utils.js') as {
  isDocumentObject(node: ESTree.Node, context: Rule.RuleContext, checker: null): boolean;
};

/** What an sdl rule decides without types, as the type it tests for: the answer when the oracle has none. */
const UNTYPED: Record<string, (node: ESTree.Node, context: Rule.RuleContext) => string> = {
  'no-cookies': (n, c) => (sdlUtils.isDocumentObject(n, c, null) ? 'Document' : 'unknown'),
  'no-document-domain': (n, c) => (sdlUtils.isDocumentObject(n, c, null) ? 'Document' : 'unknown'),
  'no-document-write': (n, c) => (sdlUtils.isDocumentObject(n, c, null) ? 'Document' : 'unknown'),
  // Without types the rule reports Math.random() and crypto.pseudoRandomBytes() by the object's name.
  'no-insecure-random': (n) => (n.type === 'Identifier' && n.name === 'Math' ? 'Math' : n.type === 'Identifier' && n.name === 'crypto' ? 'Crypto' : 'unknown'),
  // Without types the rule reports every element (innerHTML) and every object (postMessage): `any`.
  'no-inner-html': () => 'any',
  'no-postmessage-star-origin': () => 'any',
};

export const TYPED_SDL_RULES = new Set(Object.keys(UNTYPED));

/**
 * The rule's context with typescript-eslint's parser services stood in for: a program whose type checker is the
 * oracle (ast-utils' isTypeScriptParserServices reads `program` and the two node maps; nodes map to themselves).
 */
export function typedContext(rule: string, context: Rule.RuleContext, base: Rule.RuleContext = context): Rule.RuleContext {
  const untyped = UNTYPED[rule];
  if (!untyped) return base;
  const sc = context.sourceCode;
  const oracle = new TypeOracle(sc);
  const checker = {
    getTypeAtLocation: (node: ESTree.Node) => oracle.typeOf(node) ?? untyped(node, context),
    typeToString: (type: string) => type,
  };
  const identity = { get: (n: unknown) => n };
  const parserServices = { ...sc.parserServices, program: { getTypeChecker: () => checker }, esTreeNodeToTSNodeMap: identity, tsNodeToESTreeNodeMap: identity };
  const sourceCode = Object.create(sc, { parserServices: { value: parserServices } }) as SourceCode;
  return Object.create(base, { sourceCode: { value: sourceCode } }) as Rule.RuleContext;
}
