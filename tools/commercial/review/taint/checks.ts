// The conditions some sinks add to their callee and argument (table.ts `check`): whose method it is (the response,
// child_process, fs, a headless page…) and what shape the tainted value has (a SQL string, a whole object…).
import type { SourceCode } from 'eslint';
import type * as ESTree from 'estree';
import { boundValue, calleeName, dotted, keyName, moduleOf, objectOf, property, propertyName, rootOf, staticString, variableOf } from '../js-ast.js';
import type { Values } from './label.js';
import type { Sink } from './table.js';

type Call = ESTree.CallExpression | ESTree.NewExpression;

const receiverOf = (call: Call) => (call.callee.type === 'MemberExpression' ? call.callee.object : undefined);

/** The module a callee's root name comes from, or undefined when it is not an import. */
function rootModule(sc: SourceCode, node: ESTree.Node | undefined): string | undefined {
  const root = node ? rootOf(node) : undefined;
  return root ? moduleOf(sc, root) : undefined;
}

function isResponse(v: Values, call: Call): boolean {
  const root = call.callee.type === 'MemberExpression' ? rootOf(call.callee.object) : undefined;
  if (!root) return false;
  const role = v.roleOf(root);
  return role === 'response' || role === 'koa';
}

/** A redirect target that keeps the host: a path of this site ('/x…', not '//'), or an absolute URL with its path started. */
const HOST_FIXED = /^(\/[^/\\]|https?:\/\/[^/]+\/)/i;

function leadingText(sc: SourceCode, node: ESTree.Node): string | undefined {
  if (node.type === 'TemplateLiteral') return node.quasis[0]!.value.cooked ?? undefined;
  if (node.type === 'BinaryExpression' && node.operator === '+') {
    const left = staticString(sc, node.left);
    return left ?? leadingText(sc, node.left);
  }
  return undefined;
}

/** The pieces of text a string expression is built of (through one name), to tell SQL from other strings. */
function textOf(sc: SourceCode, node: ESTree.Node | undefined, depth = 0): string {
  if (!node || depth > 6) return '';
  if (node.type === 'Literal') return typeof node.value === 'string' ? node.value : '';
  if (node.type === 'TemplateLiteral') return node.quasis.map((q) => q.value.cooked ?? '').join(' ');
  if (node.type === 'BinaryExpression') return `${textOf(sc, node.left, depth + 1)} ${textOf(sc, node.right, depth + 1)}`;
  if (node.type === 'Identifier') return textOf(sc, boundValue(sc, node) ?? firstAssigned(sc, node), depth + 1);
  return '';
}

/** For `let q = …; q += …` the first value given, so that the SQL's text is found. */
function firstAssigned(sc: SourceCode, id: ESTree.Identifier): ESTree.Expression | undefined {
  const v = variableOf(sc, id);
  const w = v?.references.find((r) => r.writeExpr);
  return (w?.writeExpr as ESTree.Expression | undefined) ?? undefined;
}

const SQL_TEXT = /\b(select\b[\s\S]*\bfrom|insert\s+into|update\b[\s\S]*\bset|delete\s+from|where\b|order\s+by|values\s*\()/i;

/** A string-typed expression: text cannot carry MongoDB operators. */
function isText(node: ESTree.Node): boolean {
  return node.type === 'TemplateLiteral' || (node.type === 'BinaryExpression' && node.operator === '+') || (node.type === 'CallExpression' && /^(String|.*\.toString)$/.test(dotted(node.callee) ?? ''));
}

const SHELLS = /^(\/(usr\/)?bin\/)?(sh|bash|zsh|dash|ksh|cmd|cmd\.exe|powershell|pwsh)$/i;

/** True when the sink applies to this call and this tainted argument. */
export function sinkApplies(v: Values, sink: Sink, call: Call, arg: ESTree.Node, index: number): boolean {
  const sc = v.sc;
  const recv = receiverOf(call);
  const recvRole = recv ? v.roleOf(rootOf(recv) ?? recv) : undefined;
  switch (sink.check) {
    case undefined:
      return true;
    case 'response':
      if (!isResponse(v, call)) return false;
      if (sink.family === 'xss' && declaresNonHtml(v, call)) return false;
      // An object or array literal, or one of the request's parsed objects whole (req.query, req.body), is sent as JSON.
      if (arg.type === 'ObjectExpression' || arg.type === 'ArrayExpression') return false;
      return !(sink.family === 'xss' && arg.type === 'MemberExpression' && v.roleOf(arg.object) === 'request' && /^(query|body|params|headers|cookies|signedCookies)$/.test(propertyName(arg) ?? ''));
    case 'wholeObject':
      return isResponse(v, call) && arg.type !== 'ObjectExpression';
    case 'redirectTarget': {
      if (!isResponse(v, call)) return false;
      const lead = leadingText(sc, arg);
      return !(lead !== undefined && HOST_FIXED.test(lead));
    }
    case 'locationHeader':
    case 'headerName': {
      if (!isResponse(v, call)) return false;
      const wantLocation = sink.check === 'locationHeader';
      const family = wantLocation ? 'open-redirect' : 'header-injection';
      const isLocation = (key: string | undefined) => /^location$/i.test(key ?? '');
      // set({…}) / writeHead(code, {…}): the tainted property decides.
      if (arg.type === 'ObjectExpression') return arg.properties.some((p) => p.type === 'Property' && v.label(p.value).has(family) && isLocation(keyName(p)) === wantLocation);
      if (calleeName(call) !== 'writeHead' && call.arguments.length > 1) {
        if (index === 0) return !wantLocation; // the header's name is the client's
        if (index === 1) return isLocation(staticString(sc, call.arguments[0])) === wantLocation;
        return false;
      }
      return !wantLocation; // a whole header object, or a status message, from the client
    }
    case 'fsModule': {
      const c = call.callee;
      if (c.type === 'Identifier') return /^(node:)?fs(\/promises)?$|^(fs-extra|graceful-fs|mz\/fs|fs-promise)$/.test(moduleOf(sc, c) ?? '');
      const mod = rootModule(sc, recv);
      if (mod !== undefined) return /^(node:)?fs(\/promises)?$|^(fs-extra|graceful-fs|mz\/fs|fs-promise)$/.test(mod);
      return /^(fs|fse|fsp|fsPromises|fileSystem|filesystem|fsExtra)$/.test(rootOf(c)?.name ?? '') || /^fs\.promises$/.test(dotted(recv) ?? '');
    }
    case 'childProcess': {
      const c = call.callee;
      if (c.type === 'Identifier') {
        const mod = moduleOf(sc, c);
        if (mod !== undefined) return /^(node:)?child_process$|^(shelljs|execa|cross-spawn)$/.test(mod);
        return v.keyOf(c) === `global:${c.name}` || !isLocalFunction(sc, c);
      }
      // /re/.exec(s), re.exec(s): a regular expression, not a process.
      if (!recv || recv.type === 'Literal' || isRegExpValue(sc, recv)) return false;
      const mod = rootModule(sc, recv);
      if (mod !== undefined) return /^(node:)?child_process$|^(shelljs|cross-spawn)$/.test(mod);
      return /^(child_process|childProcess|child|cp|shell|shelljs|proc|process_)$/.test(rootOf(recv)?.name ?? '');
    }
    case 'spawnShell': {
      if (!sinkApplies(v, { ...sink, check: 'childProcess' }, call, arg, index)) return false;
      const opts = call.arguments[2];
      const shellOpt = opts?.type === 'ObjectExpression' && opts.properties.some((p) => keyName(p) === 'shell' && p.type === 'Property' && !(p.value.type === 'Literal' && p.value.value === false));
      return shellOpt || SHELLS.test(staticString(sc, call.arguments[0]) ?? '');
    }
    case 'notFunction':
      return arg.type !== 'FunctionExpression' && arg.type !== 'ArrowFunctionExpression';
    case 'sqlText':
      // knex/TypeORM where('…' + x): a condition written as SQL text.
      return !recvRole && isText(arg);
    case 'sqlShape': {
      if (recvRole) return false; // req.query(…), res.get(…)
      if (arg.type === 'ObjectExpression') return false; // {sql, values}: the values are bound (checked by its sql key below)
      if (/^(query|execute|raw|whereRaw|havingRaw|orderByRaw|groupByRaw|joinRaw|fromRaw|selectRaw|\$queryRawUnsafe|\$executeRawUnsafe|queryRawUnsafe|executeRawUnsafe|unsafe)$/.test(calleeName(call) ?? '')) return true;
      return SQL_TEXT.test(textOf(sc, arg));
    }
    case 'nosqlShape': {
      if (recvRole || !recv) return false;
      const root = rootOf(recv);
      const looksLikeModel = (root && /^[A-Z]/.test(root.name) && root.name !== 'Object' && root.name !== 'Array') || /(collection|model|mongo|\bdb\b|repo|repository)/i.test(dotted(recv) ?? '') || (recv.type === 'CallExpression' && /^(collection|model)$/.test(calleeName(recv) ?? ''));
      if (!looksLikeModel) return false;
      if (arg.type === 'ObjectExpression') {
        // A field given as text is only a value; a field given the client's object can be an operator.
        return arg.properties.some((p) => p.type === 'Property' && ((keyName(p) === '$where' && v.label(p.value).has('nosql-injection')) || (!isText(p.value) && v.label(p.value).has('nosql-injection'))));
      }
      return !isText(arg);
    }
    case 'page': {
      const name = recv ? rootOf(recv)?.name ?? '' : '';
      return /page|tab|frame|phantom|browser|instance/i.test(name) && !recvRole;
    }
    case 'expatParser':
      return parserFrom(sc, recv, /^(node-expat|expat)$/, /Parser$/);
    case 'libxmlSax':
      return parserFrom(sc, recv, /^libxmljs2?$/, /^(SaxParser|SaxPushParser)$/);
    case 'vmRunner':
      return parserFrom(sc, recv, /^(vm2|sandbox)$/, /^(VM|NodeVM|Sandbox|vm2\.VM|vm2\.NodeVM)$/);
    case 'xpathModule': {
      if (dotted(call.callee) === 'document.evaluate') return true;
      const mod = rootModule(sc, recv ?? call.callee);
      return mod !== undefined ? /^xpath(\.js)?$/.test(mod) : /^xpath$/i.test(rootOf(recv ?? call.callee)?.name ?? '');
    }
    case 'templateModule': {
      if (recvRole) return false;
      const mod = rootModule(sc, recv ?? call.callee);
      if (mod !== undefined) return /^(handlebars|ejs|pug|jade|nunjucks|lodash|underscore|dot|hogan\.js|squirrelly|mustache|eta|swig|twig|liquidjs|dustjs-linkedin|marko)$/.test(mod);
      return /^(handlebars|Handlebars|hbs|ejs|pug|jade|nunjucks|_|lodash|doT|dot|Hogan|hogan|Sqrl|squirrelly|Mustache|mustache|swig|Twig|twig|eta|Eta|dust)$/.test(rootOf(recv ?? call.callee)?.name ?? '');
    }
    case 'httpModule': {
      const root = rootOf(call.callee);
      if (root && v.roleOf(root)) return false;
      // A URL whose scheme, host and start of path are fixed: the client only chooses a part of the path.
      const lead = leadingText(sc, arg);
      return !(sink.family === 'ssrf' && lead !== undefined && HOST_FIXED.test(lead) && /^https?:/i.test(lead));
    }
    case 'fetchHtml': {
      // new Response(body, { headers: { 'Content-Type': 'text/html' } }): the Fetch API's response (Next.js route
      // handlers, Workers, Deno, Bun). Without a content type a string body is sent as text/plain: no HTML.
      const headers = objectOf(sc, call.arguments[1]);
      const h = headers && property(headers, 'headers');
      const fields = h?.type === 'NewExpression' ? objectOf(sc, h.arguments[0]) : objectOf(sc, h);
      const type = fields && property(fields, /^content-type$/i);
      return /html|svg|xml/i.test(staticString(sc, type) ?? '');
    }
    case 'jquery': {
      const r = recv ? rootOf(recv) : undefined;
      return !!r && /^(\$|jQuery)$/.test(r.name) && recv?.type === 'CallExpression';
    }
  }
}

/** The response is given a content type that a browser does not render as HTML (text/plain, JSON…). */
function declaresNonHtml(v: Values, call: Call): boolean {
  const nonHtml = (t: string | undefined) => t !== undefined && !/html|xml|svg/i.test(t);
  const typeSet = (c: ESTree.Node): boolean => {
    if (c.type !== 'CallExpression') return false;
    const name = calleeName(c);
    const [a, b] = c.arguments;
    if (name === 'type' || name === 'contentType') return nonHtml(staticString(v.sc, a));
    if (name && /^(set|header|setHeader)$/.test(name) && /^content-type$/i.test(staticString(v.sc, a) ?? '')) return nonHtml(staticString(v.sc, b));
    if (name === 'writeHead') return c.arguments.some((x) => x.type === 'ObjectExpression' && x.properties.some((p) => /^content-type$/i.test(keyName(p) ?? '') && p.type === 'Property' && nonHtml(staticString(v.sc, p.value))));
    return false;
  };
  // res.type('json').send(x): in the chain; res.set('Content-Type', 'text/plain'); …; res.send(x): elsewhere on the same response.
  for (let n: ESTree.Node = call.callee; n.type === 'MemberExpression' || n.type === 'CallExpression'; n = n.type === 'MemberExpression' ? n.object : n.callee) if (typeSet(n)) return true;
  const root = call.callee.type === 'MemberExpression' ? rootOf(call.callee.object) : undefined;
  const variable = root ? variableOf(v.sc, root) : undefined;
  return !!variable?.references.some((r) => {
    const member = (r.identifier as ESTree.Node & { parent?: ESTree.Node }).parent;
    const c = (member as ESTree.Node & { parent?: ESTree.Node } | undefined)?.parent;
    return member?.type === 'MemberExpression' && !!c && typeSet(c) && c.range![0] < call.range![0];
  });
}

/** `x` bound to `new Something(…)` (or created inline) where Something comes from one of the modules or has one of the names. */
function parserFrom(sc: SourceCode, recv: ESTree.Node | undefined, mods: RegExp, ctor: RegExp): boolean {
  if (!recv) return false;
  const made = recv.type === 'NewExpression' ? recv : recv.type === 'Identifier' ? boundValue(sc, recv) ?? firstAssigned(sc, recv) : undefined;
  if (!made || made.type !== 'NewExpression') return false;
  const name = dotted(made.callee) ?? '';
  if (!ctor.test(name) && !ctor.test(name.split('.').at(-1) ?? '')) return false;
  const mod = rootModule(sc, made.callee);
  return mod === undefined || mods.test(mod);
}

function isRegExpValue(sc: SourceCode, node: ESTree.Node): boolean {
  const value = node.type === 'Identifier' ? boundValue(sc, node) ?? firstAssigned(sc, node) : node;
  if (!value) return false;
  if (value.type === 'Literal' && 'regex' in value) return true;
  return (value.type === 'NewExpression' || value.type === 'CallExpression') && dotted(value.callee) === 'RegExp';
}

function isLocalFunction(sc: SourceCode, id: ESTree.Identifier): boolean {
  const v = variableOf(sc, id);
  const def = v?.defs[0];
  return def?.type === 'FunctionName' || (def?.type === 'Variable' && /Function/.test(def.node.init?.type ?? ''));
}

export { isRegExpValue };
