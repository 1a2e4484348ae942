// What the source-to-sink walk asks of the code's shape (analyze.ts): whether control leaves a statement for good,
// and whether a function is a route handler (its first parameter is then the request).
import type * as ESTree from 'estree';
import { calleeName } from '../js-ast.js';

type AnyNode = ESTree.Node & { parent?: AnyNode };

/** A statement after which control never continues: return, throw, or a block ending in one. */
export function exitsAlways(node: ESTree.Node | null | undefined): boolean {
  if (!node) return false;
  if (node.type === 'ReturnStatement' || node.type === 'ThrowStatement') return true;
  if (node.type === 'BlockStatement') return exitsAlways(node.body.at(-1));
  if (node.type === 'IfStatement') return exitsAlways(node.consequent) && exitsAlways(node.alternate);
  return false;
}
const ROUTE_METHODS = /^(get|post|put|patch|delete|del|all|use|options|head|route)$/;

/** A function passed to app.get/router.post/…: its first parameter is the request even when not named so. */
export function isRouteHandler(node: ESTree.Function): boolean {
  const parent = (node as AnyNode).parent;
  if (parent?.type !== 'CallExpression' || !parent.arguments.includes(node as never)) return false;
  if (parent.callee.type !== 'MemberExpression' || !ROUTE_METHODS.test(calleeName(parent) ?? '')) return false;
  // The first argument is a route: '/path', '*', or a regular expression (so cache.get(key, cb) is not one).
  const route = parent.arguments[0];
  return !!route && ((route.type === 'Literal' && (typeof route.value === 'string' ? /^[/*]/.test(route.value) : 'regex' in route)) || route.type === 'TemplateLiteral');
}
