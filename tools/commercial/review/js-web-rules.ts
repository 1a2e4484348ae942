// This project's ESLint rules for web and server code that the plugins do not cover: React's dangerouslySetInnerHTML
// given markup that is neither a constant nor sanitized, error stacks sent back in a response, and deserialisers
// that run code.
import type { Rule } from 'eslint';
import type * as ESTree from 'estree';
import { calleeName, dotted, keyName, moduleOf, objectOf, property, requiredModule, rootOf, simpleRule, staticString, type Node } from './js-ast.js';
import type { RuleInfo } from './js-rules.js';

/** A call that sanitizes HTML: DOMPurify.sanitize, sanitizeHtml, xss(), escape…(), a function named sanitize…. */
export const HTML_SANITIZER = /(^|\.)(sanitize\w*|purify|escape\w*|encode\w*|xss|filterXSS|clean)$/i;

function safeMarkup(sc: Rule.RuleContext['sourceCode'], node: ESTree.Node | undefined): boolean {
  if (!node) return true;
  if (staticString(sc, node) !== undefined) return true;
  if (node.type === 'CallExpression' && HTML_SANITIZER.test(dotted(node.callee) ?? '')) return true;
  return false;
}

const reactDangerousHtml = simpleRule((context) => {
  const check = (value: ESTree.Node | undefined, at: ESTree.Node) => {
    // {{ __html: markup }}: only the markup matters.
    const jsx = value as { type: string; expression?: ESTree.Node } | undefined;
    const inner = jsx?.type === 'JSXExpressionContainer' ? jsx.expression : value;
    // const markup = { __html: … }; <div dangerouslySetInnerHTML={markup} />
    const obj = inner?.type === 'Identifier' ? (objectOf(context.sourceCode, inner) ?? inner) : inner;
    if (!obj || (obj.type as string) === 'JSXEmptyExpression') return;
    if (obj.type === 'ObjectExpression') {
      const html = obj.properties.find((p) => keyName(p) === '__html');
      if (!html || html.type !== 'Property' || safeMarkup(context.sourceCode, html.value)) return;
    } else if (obj.type === 'Literal') return;
    context.report({ node: at, message: 'dangerouslySetInnerHTML renders markup that is neither a constant nor sanitized: an XSS if any of it comes from a user.' });
  };
  return {
    JSXAttribute(node: Node & { name: { type: string; name?: string }; value: ESTree.Node | null }) {
      if (node.name.type === 'JSXIdentifier' && node.name.name === 'dangerouslySetInnerHTML') check(node.value ?? undefined, node);
    },
    Property(node: ESTree.Property) {
      // React.createElement('div', { dangerouslySetInnerHTML: { __html: x } })
      if (keyName(node) === 'dangerouslySetInnerHTML' && node.value.type === 'ObjectExpression') check(node.value, node);
    },
  } as unknown as Rule.RuleListener;
});

/** `err.stack` (or the whole error) of a catch clause or an error-first callback sent in a response. */
const errorDisclosure = simpleRule((context) => ({
  CallExpression(node) {
    const name = calleeName(node);
    if (!name || !/^(send|write|end|json|jsonp)$/.test(name) || node.callee.type !== 'MemberExpression') return;
    const root = rootOf(node.callee);
    if (!root || !/^(res|response|ctx|reply)$/.test(root.name)) return;
    for (const arg of node.arguments) {
      if (arg.type === 'MemberExpression' && dotted(arg)?.match(/^(err|error|e|ex|exception)\.stack$/)) context.report({ node: arg, message: 'The error’s stack trace is sent to the client: it shows paths, versions and code.' });
    }
  },
}));

/**
 * Deserialisers that run code: node-serialize's unserialize (an IIFE in the data runs), serialize-to-js's
 * deserialize (eval), js-yaml's load before version 4 without a safe schema (!!js/function), funcster.
 */
const unsafeDeserialization = simpleRule((context) => ({
  CallExpression(node) {
    const sc = context.sourceCode;
    const name = calleeName(node);
    if (!name || node.callee.type !== 'MemberExpression') return;
    const recv = node.callee.object;
    const mod = recv.type === 'CallExpression' ? requiredModule(recv) : recv.type === 'Identifier' ? moduleOf(sc, recv) : undefined;
    const data = node.arguments[0];
    if (!data) return;
    if (mod === 'node-serialize' && name === 'unserialize') context.report({ node, message: 'node-serialize’s unserialize runs functions embedded in the data (an IIFE in a cookie is code execution).' });
    else if (mod === 'serialize-to-js' && name === 'deserialize') context.report({ node, message: 'serialize-to-js’s deserialize evaluates the data as JavaScript.' });
    else if (mod === 'funcster' && /^deepDeserialize|deserialize$/.test(name)) context.report({ node, message: 'funcster rebuilds functions from the data.' });
    else if (mod === 'js-yaml' && name === 'load') {
      const schema = dotted(property(node.arguments[1], 'schema')) ?? '';
      if (!/(SAFE|JSON|CORE|FAILSAFE)_SCHEMA$/.test(schema) && staticString(sc, data) === undefined) context.report({ node, message: 'js-yaml before version 4 builds JavaScript functions from !!js/function tags in load(): use safeLoad, or js-yaml 4.' });
    }
  },
}));

export const WEB_RULES: Record<string, { info: RuleInfo; rule: Rule.RuleModule }> = {
  'react-dangerous-html': { rule: reactDangerousHtml, info: { category: 'security', severity: 'high', cwe: 'CWE-79', fix: 'Render text as children, or sanitize the markup (DOMPurify.sanitize) before dangerouslySetInnerHTML.' } },
  'unsafe-deserialization': { rule: unsafeDeserialization, info: { category: 'security', severity: 'critical', cwe: 'CWE-502', fix: 'Parse data with JSON.parse (and yaml.load of js-yaml 4, or safeLoad); never with a deserialiser that rebuilds functions.' } },
  'error-disclosure': { rule: errorDisclosure, info: { category: 'security', severity: 'low', cwe: 'CWE-209', fix: 'Log the error on the server and answer a generic message with an id the logs can be searched for.' } },
};
