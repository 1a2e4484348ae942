// This project's ESLint rules for settings that switch a protection off, as data: an option key, the values that
// are unsafe, and (where the key is a common word) the calls whose options it must be given to. One rule per
// family of settings (TLS, Electron, cookies, security headers, CORS, XML parsers, template escaping, AWS CDK).
import type { Rule, SourceCode } from 'eslint';
import type * as ESTree from 'estree';
import { boundValue, calleeName, dotted, keyName, literalValue, moduleOf, property, simpleRule, staticString, variableOf, type Node } from './js-ast.js';
import type { RuleInfo } from './js-rules.js';

interface OptionCheck {
  key: RegExp;
  /** The message when the value is unsafe, else undefined. */
  bad: (value: ESTree.Node, sc: SourceCode) => string | undefined;
  /** The calls the options must reach (directly, through a variable, or through Object.assign); any object when absent. */
  within?: (call: ESTree.CallExpression | ESTree.NewExpression, sc: SourceCode) => boolean;
}

const isLiteral = (want: unknown) => (v: ESTree.Node, sc: SourceCode) => {
  const l = literalValue(sc, v);
  return l !== undefined && (l.value === want || (typeof want === 'boolean' && l.value === (want ? 1 : 0))) ? true : undefined;
};
const literalIs = (want: unknown, message: string) => (v: ESTree.Node, sc: SourceCode) => (isLiteral(want)(v, sc) ? message : undefined);
const memberEnds = (suffix: RegExp, message: string) => (v: ESTree.Node) => (v.type === 'MemberExpression' && suffix.test(dotted(v) ?? '') ? message : undefined);
const calleeIs = (re: RegExp) => (call: ESTree.CallExpression | ESTree.NewExpression) => re.test(dotted(call.callee) ?? '') || re.test(calleeName(call) ?? '');

/** The calls an object literal is given to: as an argument (inside other literals), through the variable it is bound to, or through Object.assign. */
function callsReceiving(sc: SourceCode, obj: Node, depth = 0): (ESTree.CallExpression | ESTree.NewExpression)[] {
  if (depth > 3) return [];
  let n: Node = obj;
  while (n.parent && (n.parent.type === 'Property' || n.parent.type === 'ObjectExpression' || n.parent.type === 'ArrayExpression')) n = n.parent;
  const parent = n.parent;
  if (!parent) return [];
  if ((parent.type === 'CallExpression' || parent.type === 'NewExpression') && parent.arguments.includes(n as ESTree.Expression)) {
    if (dotted(parent.callee) === 'Object.assign') return callsReceiving(sc, parent, depth + 1);
    return [parent];
  }
  let id: ESTree.Identifier | undefined;
  if (parent.type === 'VariableDeclarator' && parent.init === n && parent.id.type === 'Identifier') id = parent.id;
  if (parent.type === 'AssignmentExpression' && parent.right === n && parent.left.type === 'Identifier') id = parent.left;
  if (!id) return [];
  const v = variableOf(sc, id);
  if (!v) return [];
  return v.references.filter((r) => r.isRead()).flatMap((r) => callsReceiving(sc, r.identifier as Node, depth + 1));
}

function optionRule(checks: OptionCheck[]): Rule.RuleModule {
  return simpleRule((context) => ({
    Property(property) {
      const node = property as ESTree.Property & Node;
      const key = keyName(node);
      if (!key) return;
      for (const c of checks) {
        if (!c.key.test(key)) continue;
        const message = c.bad(node.value, context.sourceCode);
        if (!message) continue;
        if (c.within && !callsReceiving(context.sourceCode, node.parent as Node).some((call) => c.within!(call, context.sourceCode))) continue;
        context.report({ node, message });
      }
    },
  }));
}

// TLS: certificate checks off, old protocol versions, plain connections.
const tlsChecks: OptionCheck[] = [
  { key: /^rejectUnauthorized$/, bad: literalIs(false, 'TLS certificate verification is turned off (rejectUnauthorized: false): anyone on the path can impersonate the server.') },
  { key: /^strictSSL$/, bad: literalIs(false, 'TLS certificate verification is turned off (strictSSL: false).') },
  { key: /^SSL_VERIFY(PEER|HOST)$/i, bad: literalIs(false, 'curl’s TLS verification is turned off.') },
  { key: /^(minVersion|maxVersion)$/, bad: (v, sc) => (/^(TLSv1(\.1)?|SSLv3)$/.test(staticString(sc, v) ?? '') ? `${staticString(sc, v)} is an obsolete TLS version.` : undefined) },
  { key: /^secureProtocol$/, bad: (v, sc) => (/^(SSLv[23]|TLSv1(_1)?)_/.test(staticString(sc, v) ?? '') ? `${staticString(sc, v)} selects an obsolete protocol version.` : undefined) },
];

const tlsRule = simpleRule((context) => {
  const options = optionRule(tlsChecks).create(context);
  return {
    ...options,
    AssignmentExpression(node) {
      // process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0' turns verification off for the whole process.
      const target = node.left.type === 'MemberExpression' ? dotted(node.left) : undefined;
      if (target === 'process.env.NODE_TLS_REJECT_UNAUTHORIZED' && staticString(context.sourceCode, node.right) === '0') context.report({ node, message: 'NODE_TLS_REJECT_UNAUTHORIZED=0 turns TLS certificate verification off for every connection of the process.' });
    },
    CallExpression(node) {
      if (calleeName(node) === 'createInsecure' && /credentials|Credentials/.test(dotted(node.callee) ?? '')) context.report({ node, message: 'The gRPC channel is not encrypted (createInsecure).' });
    },
    ObjectExpression(node) {
      // A Sequelize-style database config (dialect and host) whose connection is not encrypted.
      const dialect = staticString(context.sourceCode, property(node, 'dialect'));
      if (!dialect || !/^(postgres|mysql|mariadb|mssql)$/.test(dialect) || !property(node, 'host')) return;
      const ssl = property(property(node, 'dialectOptions'), /^(ssl|encrypt)$/) ?? property(node, 'ssl');
      if (!ssl || literalValue(context.sourceCode, ssl)?.value === false) context.report({ node, message: `The ${dialect} connection is not encrypted (no dialectOptions.ssl).` });
    },
  };
});

// Electron: web content given Node, other origins, or insecure content.
const electronChecks: OptionCheck[] = [
  { key: /^webSecurity$/, bad: literalIs(false, 'webSecurity: false turns off the same-origin policy in this window.') },
  { key: /^allowRunningInsecureContent$/, bad: literalIs(true, 'allowRunningInsecureContent lets an https page run http scripts.') },
  { key: /^(nodeIntegrationInWorker|nodeIntegrationInSubFrames)$/, bad: literalIs(true, 'Node integration in workers or frames gives web content the whole machine.') },
  { key: /^contextIsolation$/, bad: literalIs(false, 'contextIsolation: false lets the page reach the preload script’s and Electron’s objects.') },
  { key: /^experimentalFeatures$/, bad: literalIs(true, 'Experimental Chromium features are turned on.') },
  { key: /^enableBlinkFeatures$/, bad: (v, sc) => (staticString(sc, v) ? 'Extra Blink features are turned on (enableBlinkFeatures).' : undefined) },
  { key: /^sandbox$/, bad: literalIs(false, 'sandbox: false runs the renderer outside Chromium’s sandbox.') },
];

// Cookies: session and response cookies without Secure/HttpOnly, or sent cross-site.
const isCookieCall = (call: ESTree.CallExpression | ESTree.NewExpression, sc: SourceCode) => {
  const name = calleeName(call) ?? '';
  if (/^(cookie|session|cookieSession|expressSession)$/.test(name)) return true;
  if (name === 'set' && /cookies/i.test(dotted(call.callee) ?? '')) return true;
  return call.callee.type === 'Identifier' && /^(express-session|cookie-session)$/.test(moduleOf(sc, call.callee) ?? '');
};
const cookieChecks: OptionCheck[] = [
  { key: /^secure$/, bad: literalIs(false, 'The cookie is sent over plain HTTP too (secure: false).'), within: isCookieCall },
  { key: /^httpOnly$/, bad: literalIs(false, 'The cookie can be read by scripts on the page (httpOnly: false), so an XSS can steal it.'), within: isCookieCall },
  { key: /^sameSite$/, bad: (v, sc) => (literalValue(sc, v)?.value === false || /^none$/i.test(staticString(sc, v) ?? '') ? 'The cookie is sent on cross-site requests (sameSite none), which opens CSRF.' : undefined), within: isCookieCall },
];

const cookieRule = simpleRule((context) => {
  const options = optionRule(cookieChecks).create(context);
  return {
    ...options,
    CallExpression(node) {
      // express-session / cookie-session whose cookie is never marked Secure.
      const sc = context.sourceCode;
      const c = node.callee;
      const isSession = c.type === 'Identifier' && (/^(express-session|cookie-session)$/.test(moduleOf(sc, c) ?? '') || (moduleOf(sc, c) === undefined && /^(session|cookieSession|expressSession)$/.test(c.name)));
      if (!isSession) return;
      const objs = optionObjects(sc, node.arguments[0]);
      if (objs.length === 0) return;
      const cookie = objs.map((o) => property(o, 'cookie')).find((x) => x);
      const secure = cookie ? property(cookie.type === 'Identifier' ? boundValue(sc, cookie) : cookie, 'secure') : (objs.map((o) => property(o, 'secure')).find((x) => x) ?? undefined);
      if (!secure) context.report({ node, message: 'The session cookie is not marked Secure: it is sent over plain HTTP too.' });
    },
  };
});

function optionObjects(sc: SourceCode, node: ESTree.Node | undefined): ESTree.ObjectExpression[] {
  if (!node) return [];
  if (node.type === 'ObjectExpression') return [node];
  const value = node.type === 'Identifier' ? boundValue(sc, node) : node;
  if (value?.type === 'ObjectExpression') return [value];
  if (value?.type === 'CallExpression' && dotted(value.callee) === 'Object.assign') return value.arguments.flatMap((a) => optionObjects(sc, a));
  return [];
}

// Security headers: helmet's protections switched off (its X-XSS-Protection filter is not among them: current
// advice is to leave the browser's XSS auditor off).
const HELMET_KEYS = /^(frameguard|xFrameOptions|contentSecurityPolicy|hsts|strictTransportSecurity|noSniff|xContentTypeOptions|referrerPolicy|crossOriginOpenerPolicy|crossOriginResourcePolicy|originAgentCluster|dnsPrefetchControl|xDnsPrefetchControl|ieNoOpen|xDownloadOptions|permittedCrossDomainPolicies|xPermittedCrossDomainPolicies)$/;
const headerChecks: OptionCheck[] = [
  { key: HELMET_KEYS, bad: literalIs(false, 'A helmet protection is switched off.'), within: calleeIs(/^helmet$/) },
];

// CORS: origin "*" set by hand, or any origin reflected with credentials. cors() with its defaults (no credentials)
// is how a public API is opened on purpose, and is not reported.
const corsRule = simpleRule((context) => {
  const sc = context.sourceCode;
  const isCors = (node: ESTree.CallExpression) => node.callee.type === 'Identifier' && (moduleOf(sc, node.callee) === 'cors' || (moduleOf(sc, node.callee) === undefined && node.callee.name === 'cors'));
  return {
    CallExpression(node) {
      if (isCors(node)) {
        const objs = optionObjects(sc, node.arguments[0]);
        const origin = objs.map((o) => property(o, 'origin')).find((x) => x);
        const credentials = objs.some((o) => literalValue(sc, property(o, 'credentials'))?.value === true);
        if (origin && staticString(sc, origin) === '*') context.report({ node: origin, message: 'CORS allows every origin ("*").' });
        else if (origin && literalValue(sc, origin)?.value === true && credentials) context.report({ node: origin, message: 'CORS reflects any origin and allows credentials: every site can make authenticated requests.' });
        return;
      }
      // res.set/header/setHeader('Access-Control-Allow-Origin', '*'), res.set({…}), res.writeHead(code, {…}).
      const name = calleeName(node);
      if (!name || !/^(set|header|setHeader|writeHead|append)$/.test(name)) return;
      const [a, b, c] = node.arguments;
      if (a && /^access-control-allow-origin$/i.test(staticString(sc, a) ?? '') && staticString(sc, b) === '*') return void context.report({ node, message: 'Access-Control-Allow-Origin: * lets every site read the response.' });
      for (const obj of [a, b, c].flatMap((x) => optionObjects(sc, x))) {
        const v = property(obj, /^access-control-allow-origin$/i);
        if (v && staticString(sc, v) === '*') context.report({ node: v, message: 'Access-Control-Allow-Origin: * lets every site read the response.' });
      }
    },
  };
});

// XML parsers that expand external entities.
const xxeChecks: OptionCheck[] = [
  { key: /^noent$/, bad: literalIs(true, 'noent: true expands external entities (XXE): the document can read local files and reach internal hosts.') },
  { key: /^(dtdload|dtdvalid)$/, bad: literalIs(true, 'Loading external DTDs lets the document fetch files and URLs (XXE).'), within: calleeIs(/^(parseXml|parseXmlString|parseXmlAsync|parseHtml|SaxParser|SaxPushParser|Document)$/) },
];

// Template engines with escaping off, and serialisers that stop escaping HTML.
const escapeChecks: OptionCheck[] = [
  { key: /^noEscape$/, bad: literalIs(true, 'noEscape: true renders every {{value}} as raw HTML.') },
  { key: /^autoescape$/, bad: literalIs(false, 'autoescape: false renders every value as raw HTML.') },
  { key: /^unsafe$/, bad: literalIs(true, 'serialize(…, { unsafe: true }) stops escaping HTML characters: the output is unsafe in a <script>.'), within: calleeIs(/^serialize/i) },
];

const escapeRule = simpleRule((context) => {
  const options = optionRule(escapeChecks).create(context);
  return {
    ...options,
    'NewExpression, CallExpression'(node: ESTree.NewExpression | ESTree.CallExpression) {
      const name = calleeName(node);
      const sc = context.sourceCode;
      // Handlebars.SafeString(x): x is output unescaped.
      if (name === 'SafeString' && node.arguments[0] && staticString(sc, node.arguments[0]) === undefined) context.report({ node, message: 'SafeString marks the value as HTML: it is output without escaping.' });
      // Squirrelly: Sqrl.autoEscaping(false).
      if (name === 'autoEscaping' && literalValue(sc, node.arguments[0])?.value === false) context.report({ node, message: 'Template escaping is turned off.' });
    },
  };
});

// AWS CDK: resources made public, stored unencrypted, or reachable in clear; policies granting everything.
const cdkNew = (re: RegExp) => (call: ESTree.CallExpression | ESTree.NewExpression) => call.type === 'NewExpression' && re.test(calleeName(call) ?? '');
const cdkPublic: OptionCheck[] = [
  { key: /^publicReadAccess$/, bad: literalIs(true, 'The bucket is readable by anyone on the internet.'), within: cdkNew(/Bucket$/) },
  { key: /^accessControl$/, bad: memberEnds(/\.(PUBLIC_READ|PUBLIC_READ_WRITE|AUTHENTICATED_READ)$/, 'The bucket’s ACL opens it beyond the account.'), within: cdkNew(/Bucket$/) },
  { key: /^blockPublicAccess$/, bad: memberEnds(/BlockPublicAccess\.BLOCK_NONE$/, 'Public access blocking is off for the bucket.'), within: cdkNew(/Bucket$/) },
  { key: /^publiclyAccessible$/, bad: literalIs(true, 'The database is reachable from the internet.'), within: cdkNew(/Database\w*|Cluster/) },
];
const cdkUnencrypted: OptionCheck[] = [
  { key: /^encryption$/, bad: memberEnds(/\.UNENCRYPTED$/, 'The resource is stored unencrypted.') },
  { key: /^(storageEncrypted|encrypted)$/, bad: literalIs(false, 'The storage is not encrypted at rest.'), within: cdkNew(/(Database\w*|Cluster|FileSystem|Volume|Domain)$/) },
  { key: /^enableKeyRotation$/, bad: literalIs(false, 'The KMS key is never rotated.'), within: cdkNew(/^Key$/) },
];
const cdkCleartext: OptionCheck[] = [
  { key: /^enforceSSL$/, bad: literalIs(false, 'The bucket accepts requests over plain HTTP (enforceSSL: false).'), within: cdkNew(/Bucket$/) },
  { key: /^(enforceHttps|nodeToNodeEncryption)$/, bad: literalIs(false, 'The search domain accepts unencrypted traffic.'), within: cdkNew(/Domain$/) },
  { key: /^viewerProtocolPolicy$/, bad: memberEnds(/ViewerProtocolPolicy\.ALLOW_ALL$/, 'The distribution serves plain HTTP (ViewerProtocolPolicy.ALLOW_ALL).') },
];

const cdkPublicRule = simpleRule((context) => {
  const options = optionRule(cdkPublic).create(context);
  const sc = context.sourceCode;
  return {
    ...options,
    CallExpression(node) {
      // securityGroup.addIngressRule(Peer.anyIpv4(), Port.tcp(22)): an administration or database port open to the world.
      if (calleeName(node) !== 'addIngressRule') return;
      const [peer, port] = node.arguments;
      if (!/Peer\.any(Ipv4|Ipv6)\(\)$/.test(dotted(peer) ?? '')) return;
      const p = port?.type === 'CallExpression' ? dotted(port.callee) : undefined;
      const n = port?.type === 'CallExpression' ? literalValue(sc, port.arguments[0])?.value : undefined;
      if (p?.endsWith('Port.allTraffic') || p?.endsWith('Port.allTcp') || (p?.endsWith('Port.tcp') && [22, 3389, 3306, 5432, 1433, 27017, 6379, 9200].includes(n as number))) context.report({ node, message: 'The security group opens an administration or database port to the whole internet.' });
    },
  };
});

/** new s3.Bucket(…) leaving a protection to S3's defaults: `missing` says which (TLS: enforceSSL; encryption named). */
function cdkBucketDefault(missing: (o: ESTree.ObjectExpression[], sc: SourceCode) => boolean, message: string): Rule.RuleModule {
  return simpleRule((context) => ({
    NewExpression(node) {
      if (calleeName(node) !== 'Bucket' || !/s3|Bucket/.test(dotted(node.callee) ?? '')) return;
      const props = node.arguments[2];
      const o = optionObjects(context.sourceCode, props);
      if (props && o.length === 0) return; // props this rule cannot read
      if (missing(o, context.sourceCode)) context.report({ node, message });
    },
  }));
}
const cdkBucketTls = cdkBucketDefault((o, sc) => !o.some((x) => literalValue(sc, property(x, 'enforceSSL'))?.value === true), 'The bucket does not require TLS (enforceSSL: true): its policy lets requests in over plain HTTP.');
const cdkBucketEncryption = cdkBucketDefault((o) => !o.some((x) => property(x, 'encryption') || property(x, 'encryptionKey')), 'The bucket names no encryption: set S3_MANAGED or KMS explicitly (KMS for sensitive data).');

const cdkWildcardPolicy = simpleRule((context) => ({
  NewExpression(node) {
    // iam.PolicyStatement allowing every action on every resource.
    if (calleeName(node) !== 'PolicyStatement') return;
    const sc = context.sourceCode;
    const o = optionObjects(sc, node.arguments[0])[0];
    const star = (k: string) => {
      const v = property(o, k);
      return v?.type === 'ArrayExpression' && v.elements.some((e) => e && staticString(sc, e) === '*');
    };
    if (o && star('actions') && star('resources') && !/DENY$/.test(dotted(property(o, 'effect')) ?? '')) context.report({ node, message: 'The policy allows every action on every resource.' });
  },
}));

// Express: the old express.bodyParser() (multipart to temporary files, never cleaned: disk exhaustion).
const expressRule = simpleRule((context) => ({
  CallExpression(node) {
    if (dotted(node.callee) === 'express.bodyParser') context.report({ node, message: 'express.bodyParser() also parses multipart bodies into temporary files that are never removed.' });
  },
}));

export const CONFIG_RULES: Record<string, { info: RuleInfo; rule: Rule.RuleModule }> = {
  'tls-disabled': { rule: tlsRule, info: { category: 'security', severity: 'high', cwe: 'CWE-295', fix: 'Keep certificate verification on (trust a private CA with the ca option instead), require TLS 1.2 or later, and encrypt database and RPC connections.' } },
  'electron-insecure': { rule: optionRule(electronChecks), info: { category: 'security', severity: 'high', cwe: 'CWE-693', fix: 'Keep Electron’s defaults: webSecurity, contextIsolation and sandbox on; nodeIntegration and experimental features off.' } },
  'cookie-insecure': { rule: cookieRule, info: { category: 'security', severity: 'medium', cwe: 'CWE-614', fix: 'Set cookie: { secure: true, httpOnly: true, sameSite: "lax" } (or "strict").' } },
  'security-header-disabled': { rule: optionRule(headerChecks), info: { category: 'security', severity: 'medium', cwe: 'CWE-693', fix: 'Keep helmet’s protections on; configure one (e.g. a CSP’s directives) rather than turning it off.' } },
  'cors-any-origin': { rule: corsRule, info: { category: 'security', severity: 'medium', cwe: 'CWE-942', fix: 'List the origins allowed (cors({ origin: ["https://app.example"] })); never reflect any origin together with credentials.' } },
  'xml-external-entities': { rule: optionRule(xxeChecks), info: { category: 'security', severity: 'high', cwe: 'CWE-611', fix: 'Parse XML with entity expansion and DTD loading off (the parsers’ defaults).' } },
  'template-escaping-off': { rule: escapeRule, info: { category: 'security', severity: 'high', cwe: 'CWE-79', fix: 'Keep the template engine’s escaping on; mark as safe only HTML you built or sanitized.' } },
  'cdk-public-access': { rule: cdkPublicRule, info: { category: 'security', severity: 'high', cwe: 'CWE-284', fix: 'Keep buckets and databases private (blockPublicAccess: BLOCK_ALL, no public ACL) and open ports only to known address ranges.' } },
  'cdk-unencrypted': { rule: optionRule(cdkUnencrypted), info: { category: 'security', severity: 'medium', cwe: 'CWE-311', fix: 'Encrypt at rest (S3_MANAGED or KMS for buckets and queues, storageEncrypted for databases) and keep key rotation on.' } },
  'cdk-cleartext': { rule: optionRule(cdkCleartext), info: { category: 'security', severity: 'medium', cwe: 'CWE-319', fix: 'Require TLS: enforceSSL: true on buckets, enforceHttps and node-to-node encryption on domains, REDIRECT_TO_HTTPS on distributions.' } },
  'cdk-bucket-tls': { rule: cdkBucketTls, info: { category: 'security', severity: 'low', cwe: 'CWE-319', fix: 'Set enforceSSL: true on every bucket.' } },
  'cdk-bucket-encryption': { rule: cdkBucketEncryption, info: { category: 'security', severity: 'low', cwe: 'CWE-311', fix: 'Set encryption (s3.BucketEncryption.S3_MANAGED, or KMS with a key of your own for sensitive data) on every bucket.' } },
  'cdk-wildcard-policy': { rule: cdkWildcardPolicy, info: { category: 'security', severity: 'high', cwe: 'CWE-732', fix: 'Grant the actions and resources the role needs (or use the construct’s grant* methods).' } },
  'express-body-parser': { rule: expressRule, info: { category: 'security', severity: 'low', cwe: 'CWE-400', fix: 'Use express.json() / express.urlencoded() with a size limit, and a multipart parser only on the routes that take uploads.' } },
};
