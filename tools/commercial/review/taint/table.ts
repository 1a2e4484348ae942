// The source-to-sink check's rules as data: where untrusted data comes from (sources), where it must not arrive
// unchecked (sinks, by family), and what makes it safe on the way (sanitizers). taint/analyze.ts reads these.
import type { Severity } from '../findings.js';

export const FAMILIES = [
  'xss', 'open-redirect', 'header-injection', 'host-header', 'sql-injection', 'nosql-injection', 'command-injection', 'code-injection',
  'template-injection', 'module-injection', 'path-traversal', 'ssrf', 'xxe', 'xpath-injection', 'regex-injection', 'redos', 'loop-dos',
  'prototype-pollution',
] as const;
export type TaintFamily = (typeof FAMILIES)[number];

export const FAMILY_INFO: Record<TaintFamily, { cwe: string; severity: Severity; what: string; fix: string }> = {
  xss: { cwe: 'CWE-79', severity: 'high', what: 'is written into the HTML response', fix: 'Escape it for HTML (or render it through a template that escapes), or answer JSON with res.json.' },
  'open-redirect': { cwe: 'CWE-601', severity: 'medium', what: 'chooses where the user is redirected', fix: 'Redirect only to paths of this site (check the value starts with a single "/") or to an allowlist of URLs.' },
  'header-injection': { cwe: 'CWE-113', severity: 'medium', what: 'is written into a response header', fix: 'Set headers from fixed values, or validate the value against what the header allows.' },
  'host-header': { cwe: 'CWE-20', severity: 'medium', what: 'builds an absolute URL (a password-reset link to another host, cache poisoning)', fix: 'Build absolute URLs from the configured public origin, not from the request’s Host header.' },
  'sql-injection': { cwe: 'CWE-89', severity: 'critical', what: 'is built into a SQL statement', fix: 'Pass it as a bound parameter (query("… WHERE id = ?", [id])); never concatenate it into the SQL.' },
  'nosql-injection': { cwe: 'CWE-943', severity: 'high', what: 'is used as a MongoDB query (an object there can carry operators such as $ne or $where)', fix: 'Cast each field to the type expected (String(x)), or strip operators (mongo-sanitize), and never build $where from input.' },
  'command-injection': { cwe: 'CWE-78', severity: 'critical', what: 'reaches a shell command', fix: 'Run a fixed program with execFile/spawn and an argument array, without a shell; validate the arguments.' },
  'code-injection': { cwe: 'CWE-95', severity: 'critical', what: 'is evaluated as code', fix: 'Never evaluate input: parse it (JSON.parse) or map it to known functions.' },
  'template-injection': { cwe: 'CWE-1336', severity: 'critical', what: 'is compiled as a template', fix: 'Compile only templates of the application; pass input as the template’s data.' },
  'module-injection': { cwe: 'CWE-829', severity: 'high', what: 'chooses the module loaded', fix: 'Map the input to a fixed list of modules.' },
  'path-traversal': { cwe: 'CWE-22', severity: 'high', what: 'chooses a file path', fix: 'Take the base name (path.basename) or resolve against a fixed directory and check the result stays inside it.' },
  ssrf: { cwe: 'CWE-918', severity: 'high', what: 'chooses where the server connects', fix: 'Allow only known hosts (an allowlist checked on the parsed URL), and block internal addresses.' },
  xxe: { cwe: 'CWE-611', severity: 'high', what: 'is parsed by an XML parser that expands entities', fix: 'Parse untrusted XML with a parser that neither loads external entities nor expands entities (or reject DOCTYPEs).' },
  'xpath-injection': { cwe: 'CWE-643', severity: 'high', what: 'is built into an XPath expression', fix: 'Use XPath variables, or escape quotes in the value.' },
  'regex-injection': { cwe: 'CWE-1333', severity: 'medium', what: 'is compiled as a regular expression', fix: 'Escape it (escape-string-regexp) or match it as plain text (includes / indexOf).' },
  redos: { cwe: 'CWE-1333', severity: 'high', what: 'is matched against a regular expression with catastrophic backtracking', fix: 'Rewrite the pattern without nested quantifiers, or bound the input’s length first.' },
  'loop-dos': { cwe: 'CWE-834', severity: 'medium', what: 'sets how many times a loop runs', fix: 'Bound the count (reject inputs above a limit) before looping over it.' },
  'prototype-pollution': { cwe: 'CWE-1321', severity: 'high', what: 'chooses an object key that is written (a key of "__proto__" changes every object)', fix: 'Reject "__proto__", "constructor" and "prototype" keys, or use a Map / Object.create(null).' },
};

// Sources. A parameter (or an undeclared name, as in a pasted handler body) called req/request is the incoming
// request, and so is the first parameter of a function whose second is the response. Every property of it is the
// client's except these, which the server sets.
export const REQUEST_NAME = /^(req|request)$/;
export const RESPONSE_NAME = /^(res|response|resp|reply)$/;
export const SERVER_SET_REQUEST_PROPS = new Set([
  'method', 'secure', 'app', 'res', 'next', 'route', 'session', 'user', 'isAuthenticated', 'isUnauthenticated', 'logIn', 'login', 'logOut', 'logout',
  'flash', 't', 'i18n', 'locale', 'id', 'log', 'logger', 'auth', 'locals', 'context', 'accepts', 'is', 'on', 'once', 'pipe', 'setTimeout', 'socket', 'connection', 'httpVersion', 'complete', 'aborted',
  'csrfToken', 'validationErrors', 'getValidationResult',
]);
/** Request properties that are always strings (route parameters, headers, the URL): they cannot carry a MongoDB operator or an array's length. */
export const STRING_REQUEST_PROPS = new Set(['params', 'headers', 'header', 'get', 'path', 'url', 'originalUrl', 'baseUrl', 'hostname', 'host', 'ip', 'ips', 'protocol', 'subdomains', 'signedCookies', 'cookies']);
/** Properties (and header names) that carry the Host header. */
export const HOST_PROPS = new Set(['host', 'hostname']);
/** Koa's context: these members are the client's. */
export const KOA_CONTEXT_NAME = /^ctx$/;
export const KOA_CLIENT_PROPS = new Set(['request', 'query', 'params', 'headers', 'header', 'cookies', 'querystring', 'search', 'href', 'url', 'originalUrl', 'path', 'host', 'hostname', 'req']);
/** Browser sources: the URL, the referrer, the window's name. */
export const BROWSER_SOURCES = /^(window\.|document\.)?location(\.(href|hash|search|pathname))?$|^document\.(URL|documentURI|referrer|baseURI)$|^window\.name$/;
/** Archive entries: the name an archive gives a file (zip slip). Their parameter names and the properties holding the name. */
export const ARCHIVE_ENTRY_NAME = /^(entry|zipEntry|zip_entry|header|fileEntry)$/;
export const ARCHIVE_ENTRY_PROPS = new Set(['path', 'entryName', 'name', 'fileName', 'filename']);

// Sanitizers: a call whose name matches makes its result safe for the families listed ('*': all of them).
export const SANITIZERS: { callee: RegExp; families: TaintFamily[] | '*' }[] = [
  { callee: /^(parseInt|parseFloat|Number|Boolean|isNaN|isFinite|Math\.\w+|Number\.\w+|Date\.parse|uuid\.validate|validate)$/, families: '*' },
  { callee: /(^|\.)(is[A-Z]\w*|has\w*|includes|startsWith|endsWith|test|indexOf|some|every|validate\w*|check\w*)$/, families: '*' },
  { callee: /(^|\.)(escape|escapeHtml|escapeHTML|htmlEscape|encodeHTML|encodeHtml|he\.encode|he\.escape|entities\.encode\w*|sanitize\w*|DOMPurify\.sanitize|purify|xss|filterXSS|encodeURIComponent|encodeURI|escapeXml|xmlEscape)$/i, families: ['xss', 'header-injection', 'open-redirect', 'xpath-injection'] },
  { callee: /(^|\.)(escape|escapeId|escapeLiteral|escapeIdentifier|pgFormat|sqlstring\.escape|SqlString\.escape|quote)$/i, families: ['sql-injection'] },
  { callee: /(^|\.)(quote|shellescape|shellEscape|escapeShellArg|shellQuote\.quote)$/i, families: ['command-injection'] },
  { callee: /(^|\.)(basename|sanitizeFilename|sanitize)$/i, families: ['path-traversal'] },
  { callee: /(^|\.)(escapeRegExp|escapeStringRegexp|escapeRegex|escapeRegExpChars|regexpEscape|quotemeta)$/i, families: ['regex-injection', 'redos'] },
  { callee: /(^|\.)(String|toString|mongoSanitize|sanitize|ObjectId|Types\.ObjectId)$/, families: ['nosql-injection'] },
  { callee: /(^|\.)(encodeURIComponent)$/, families: ['path-traversal', 'ssrf'] },
];

/** Calls whose result is not the client's data, whatever their arguments: digests, comparisons, fresh randomness. */
export const CLEAN_RESULT = /(^|\.)(digest|hash|hashSync|compare|compareSync|randomBytes|randomUUID|randomInt|sign|getTime|now|toFixed|localeCompare)$/;
/** Reads of the server's own store: the rows come from the database, not the request (only the receiver's taint is kept). */
export const STORE_READ = /(^|\.)(query|execute|find\w*|count\w*|aggregate|exists|save|insert\w*|create|update\w*|delete\w*|remove|destroy|upsert|get(Item|Object|Record|Row)s?)$/;

/** Tagged templates that bind their holes as parameters (sql`…` of postgres, slonik, Prisma). */
export const SAFE_SQL_TAG = /^(sql|SQL|Prisma\.sql|db\.sql)$/;

// Sinks. Most are matched by callee (the dotted name, or its last name) and argument positions; a few need a
// look at the receiver or the argument's shape, which analyze.ts does (each is named in `check`).
export interface Sink {
  family: TaintFamily;
  /** Tested against the callee's dotted name (`res.status().send`), or its last name when `method` is set. */
  callee: RegExp;
  method?: boolean;
  /** Argument positions checked: a list, or 'any'. */
  args: number[] | 'any';
  /** A further condition, by name (analyze.ts). */
  check?: 'response' | 'childProcess' | 'spawnShell' | 'fsModule' | 'sqlShape' | 'nosqlShape' | 'notFunction' | 'page' | 'expatParser' | 'vmRunner' | 'redirectTarget' | 'headerName' | 'locationHeader' | 'wholeObject' | 'xpathModule' | 'templateModule' | 'httpModule' | 'jquery' | 'libxmlSax' | 'sqlText' | 'fetchHtml';
  /** `new X(…)` rather than a call. */
  construct?: boolean;
}

export const SINKS: Sink[] = [
  // Responses (Express, Node's http): HTML, redirects, headers, files, templates with client-chosen locals.
  { family: 'xss', callee: /^(send|write|end|response)$/, method: true, args: [0], check: 'response' },
  { family: 'open-redirect', callee: /^(redirect|location)$/, method: true, args: 'any', check: 'redirectTarget' },
  { family: 'open-redirect', callee: /^(set|header|setHeader|append|writeHead)$/, method: true, args: 'any', check: 'locationHeader' },
  { family: 'header-injection', callee: /^(set|header|setHeader|append|writeHead)$/, method: true, args: 'any', check: 'headerName' },
  { family: 'path-traversal', callee: /^(sendFile|sendfile|download|attachment)$/, method: true, args: [0], check: 'response' },
  { family: 'path-traversal', callee: /^render$/, method: true, args: [1], check: 'wholeObject' },
  { family: 'xss', callee: /^Response$/, args: [0], construct: true, check: 'fetchHtml' },
  // Files.
  { family: 'path-traversal', callee: /^(readFile|readFileSync|writeFile|writeFileSync|appendFile|appendFileSync|createReadStream|createWriteStream|open|openSync|unlink|unlinkSync|rm|rmSync|rmdir|rmdirSync|mkdir|mkdirSync|readdir|readdirSync|stat|statSync|lstat|lstatSync|access|accessSync|exists|existsSync|copyFile|copyFileSync|rename|renameSync|readlink|symlink|chmod|chown|truncate|opendir|realpath|realpathSync|cp|cpSync|outputFile|readJson|readJSON|writeJson|remove|move|copy|ensureFile|pathExists)(Async)?$/, method: true, args: [0, 1], check: 'fsModule' },
  { family: 'path-traversal', callee: /^path\.(join|resolve)$/, args: 'any' },
  // Commands.
  { family: 'command-injection', callee: /^(exec|execSync)$/, method: true, args: [0], check: 'childProcess' },
  { family: 'command-injection', callee: /^(spawn|spawnSync|execFile|execFileSync|fork)$/, method: true, args: [0], check: 'childProcess' },
  { family: 'command-injection', callee: /^(spawn|spawnSync|execFile|execFileSync)$/, method: true, args: [1], check: 'spawnShell' },
  { family: 'command-injection', callee: /^(execa|execaSync|execaCommand|execaCommandSync|\$)$/, args: [0] },
  // Code.
  { family: 'code-injection', callee: /^(eval|Function|window\.eval|global\.eval|globalThis\.eval)$/, args: 'any' },
  { family: 'code-injection', callee: /^Function$/, args: 'any', construct: true },
  { family: 'code-injection', callee: /^(setTimeout|setInterval|setImmediate|window\.setTimeout|window\.setInterval)$/, args: [0], check: 'notFunction' },
  { family: 'code-injection', callee: /^(vm\.)?(runInThisContext|runInNewContext|runInContext|compileFunction)$/, args: [0] },
  { family: 'code-injection', callee: /^(vm\.)?Script$/, args: [0], construct: true },
  { family: 'code-injection', callee: /^(VMScript|vm2\.VMScript)$/, args: [0], construct: true },
  { family: 'code-injection', callee: /^(run|runFile)$/, method: true, args: [0], check: 'vmRunner' },
  { family: 'module-injection', callee: /^require$/, args: [0] },
  { family: 'template-injection', callee: /^(compile|render|renderString|template|Compile|compileFile|precompile)$/, method: true, args: [0], check: 'templateModule' },
  // Databases.
  { family: 'sql-injection', callee: /^(query|execute|raw|whereRaw|havingRaw|orderByRaw|groupByRaw|joinRaw|fromRaw|selectRaw|\$queryRawUnsafe|\$executeRawUnsafe|queryRawUnsafe|executeRawUnsafe|unsafe)$/, method: true, args: [0], check: 'sqlShape' },
  { family: 'sql-injection', callee: /^(run|all|get|each|exec|prepare|sql)$/, method: true, args: [0], check: 'sqlShape' },
  { family: 'sql-injection', callee: /^(where|andWhere|orWhere|having|andHaving|orHaving|orderBy|addOrderBy|groupBy|addGroupBy|whereRaw)$/, method: true, args: [0], check: 'sqlText' },
  { family: 'nosql-injection', callee: /^(find|findOne|findOneAndUpdate|findOneAndDelete|findOneAndRemove|findOneAndReplace|update|updateOne|updateMany|deleteOne|deleteMany|remove|count|countDocuments|where|replaceOne|distinct)$/, method: true, args: [0], check: 'nosqlShape' },
  // Outgoing requests and headless browsers.
  { family: 'ssrf', callee: /^(request|axios|fetch|got|needle|superagent|urllib\.request|bent|phin|undici\.request|ky)$/, args: 'any', check: 'httpModule' },
  { family: 'ssrf', callee: /^(request|axios|got|needle|superagent|ky|http|https|undici)\.(get|post|put|patch|delete|del|head|request|stream|fetch)$/, args: 'any', check: 'httpModule' },
  { family: 'ssrf', callee: /^(connect|createConnection)$/, method: true, args: 'any', check: 'httpModule' },
  { family: 'ssrf', callee: /^(goto|setContent|evaluate|evaluateOnNewDocument|evaluateHandle|addScriptTag|openUrl|open|property|evaluateJavaScript|setUrl)$/, method: true, args: 'any', check: 'page' },
  { family: 'ssrf', callee: /^(wkhtmltopdf|wkhtmltoimage\.generate)$/, args: [0] },
  // XML and XPath.
  { family: 'xxe', callee: /^(parse|write)$/, method: true, args: [0], check: 'expatParser' },
  { family: 'xxe', callee: /^(parseString|push)$/, method: true, args: [0], check: 'libxmlSax' },
  { family: 'xxe', callee: /^(xml2json\.toJson|toJson)$/, args: [0], check: 'httpModule' },
  { family: 'xpath-injection', callee: /^(parse|select|select1|evaluate|useNamespaces)$/, method: true, args: [0], check: 'xpathModule' },
  // Regular expressions.
  { family: 'regex-injection', callee: /^RegExp$/, args: [0], construct: true },
  { family: 'regex-injection', callee: /^RegExp$/, args: [0] },
  // The DOM (browser sources: the URL, the referrer, messages).
  { family: 'xss', callee: /^(document\.write|document\.writeln)$/, args: 'any' },
  { family: 'xss', callee: /^insertAdjacentHTML$/, method: true, args: [1] },
  { family: 'xss', callee: /^(html|append|prepend|before|after|replaceWith|wrap)$/, method: true, args: [0], check: 'jquery' },
  { family: 'open-redirect', callee: /^(window\.|document\.)?location\.(assign|replace)$/, args: [0] },
  // Deep merges and path setters given a client-built object or path.
  { family: 'prototype-pollution', callee: /^(_|lodash|\$)\.(merge|mergeWith|defaultsDeep|set|setWith|zipObjectDeep|extend)$|^(merge|deepMerge|mergeDeep|deepExtend|defaultsDeep)$/, args: 'any' },
];
