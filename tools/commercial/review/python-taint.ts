// A light source-to-sink check inside one Python function, on the tree ast-grep parsed: request data (Flask,
// Django, DRF, FastAPI route parameters, input()) followed through assignments, in statement order, into a sink
// (SQL text, a shell or program, a file path, a redirect, a template, eval, an outgoing URL, an HTML response).
// A sanitizer (int(), escape(), shlex.quote(), secure_filename()…) around the data stops it; so does assigning a
// clean value to the variable. What patterns alone miss: the data and the sink on different lines.
import type { SgNode } from '@ast-grep/napi';
import type { Finding, Severity } from './findings.js';

const REQUEST_ATTRS = 'args|form|values|json|data|cookies|headers|files|GET|POST|body|META|query_params|get_json|get_data|stream|query_string|full_path|path|url|view_args';
const SOURCE = new RegExp(`^(self\\.)?(flask\\.)?request\\.(${REQUEST_ATTRS})$`);
/** Parameters of a function routed by a web framework's decorator carry the URL's values. */
const ROUTE_DECORATOR = /^@\s*[\w.]+\.(route|get|post|put|patch|delete|api_route)\(/;

/** Calls whose result is clean whatever went in (the value is converted, escaped or reduced to a safe shape). */
const SANITIZERS = new Set([
  'int', 'float', 'bool', 'len', 'abs', 'round', 'hash', 'uuid.UUID', 'UUID',
  'escape', 'html.escape', 'markupsafe.escape', 'flask.escape', 'cgi.escape', 'xml.sax.saxutils.escape', 'conditional_escape', 'format_html', 'bleach.clean', 'clean',
  'shlex.quote', 'pipes.quote', 'quote', 'urllib.parse.quote', 'urllib.parse.quote_plus', 'quote_plus',
  'secure_filename', 'werkzeug.utils.secure_filename', 'os.path.basename', 'basename', 'safe_join', 'werkzeug.utils.safe_join',
  'url_for', 'flask.url_for', 'reverse', 'json.dumps', 'jsonify', 'flask.jsonify', 'JsonResponse',
]);

interface Sink {
  id: string;
  cwe: string;
  severity: Severity;
  message: string;
  fix: string;
  /** Which arguments carry the danger: the first, or any. */
  args: 'first' | 'any';
}
const SQL: Sink = { id: 'python/tainted-sql', cwe: 'CWE-89', severity: 'critical', args: 'first', message: 'SQL text built from request data.', fix: 'Pass the values as query parameters (cursor.execute("… WHERE a = %s", (value,))), never inside the SQL text.' };
const COMMAND: Sink = { id: 'python/tainted-command', cwe: 'CWE-78', severity: 'critical', args: 'first', message: 'A command built from request data.', fix: 'Run a fixed program with an argument list (subprocess.run([prog, arg])), never a shell line built from input; validate the values against an allow-list.' };
const PATH: Sink = { id: 'python/tainted-path', cwe: 'CWE-22', severity: 'high', args: 'first', message: 'A file path built from request data (path traversal).', fix: 'Reduce the name with werkzeug.utils.secure_filename or os.path.basename, or serve with send_from_directory / safe_join inside a fixed folder.' };
const REDIRECT: Sink = { id: 'python/tainted-redirect', cwe: 'CWE-601', severity: 'medium', args: 'first', message: 'A redirect to a URL taken from the request (open redirect).', fix: 'Redirect to a route of your own (url_for) or check the target with url_has_allowed_host_and_scheme against your hosts.' };
const TEMPLATE: Sink = { id: 'python/tainted-template', cwe: 'CWE-1336', severity: 'critical', args: 'first', message: 'A template built from request data (server-side template injection).', fix: 'Keep templates fixed and pass the data as variables: render_template("page.html", name=name).' };
const EVAL: Sink = { id: 'python/tainted-eval', cwe: 'CWE-95', severity: 'critical', args: 'first', message: 'Request data run as code (eval/exec).', fix: 'Parse the data (json.loads, ast.literal_eval) instead of executing it.' };
const SSRF: Sink = { id: 'python/tainted-url', cwe: 'CWE-918', severity: 'high', args: 'first', message: 'An outgoing request to a URL taken from the request (server-side request forgery).', fix: 'Allow only known hosts: build the URL from a fixed base and check the host against an allow-list.' };
const XSS: Sink = { id: 'python/tainted-html', cwe: 'CWE-79', severity: 'high', args: 'first', message: 'Request data written into an HTML response unescaped (cross-site scripting).', fix: 'Render a template with autoescaping, or escape the value (markupsafe.escape / django.utils.html.escape).' };
const DESER: Sink = { id: 'python/tainted-deserialization', cwe: 'CWE-502', severity: 'critical', args: 'first', message: 'Request data deserialised with a format that can build arbitrary objects.', fix: 'Accept JSON (json.loads) and validate it; never pickle, marshal or yaml.load data from a client.' };

/** Sinks by the called name (the callee's text, or its last attribute for methods any object may have). */
const SINK_BY_CALLEE: Record<string, Sink> = {
  'os.system': COMMAND, 'os.popen': COMMAND, 'subprocess.getoutput': COMMAND, 'subprocess.getstatusoutput': COMMAND, 'commands.getoutput': COMMAND,
  open: PATH, 'io.open': PATH, 'os.open': PATH, 'os.remove': PATH, 'os.unlink': PATH, 'os.rmdir': PATH, 'os.listdir': PATH, 'shutil.rmtree': PATH, 'shutil.copy': PATH, 'shutil.copyfile': PATH, 'shutil.move': PATH, send_file: PATH, 'flask.send_file': PATH, FileResponse: PATH, 'pathlib.Path': PATH, Path: PATH,
  redirect: REDIRECT, 'flask.redirect': REDIRECT, HttpResponseRedirect: REDIRECT, HttpResponsePermanentRedirect: REDIRECT, RedirectResponse: REDIRECT,
  render_template_string: TEMPLATE, 'flask.render_template_string': TEMPLATE, 'jinja2.Template': TEMPLATE, Template: TEMPLATE,
  eval: EVAL, exec: EVAL,
  'requests.get': SSRF, 'requests.post': SSRF, 'requests.put': SSRF, 'requests.delete': SSRF, 'requests.head': SSRF, 'requests.patch': SSRF, 'requests.request': SSRF, 'urllib.request.urlopen': SSRF, urlopen: SSRF, 'httpx.get': SSRF, 'httpx.post': SSRF,
  HttpResponse: XSS, make_response: XSS, 'flask.make_response': XSS, Markup: XSS, mark_safe: XSS,
  'pickle.loads': DESER, 'pickle.load': DESER, 'yaml.load': DESER, 'marshal.loads': DESER,
};
const SINK_BY_METHOD: Record<string, Sink> = { execute: SQL, executemany: SQL, executescript: SQL, raw: SQL, from_string: TEMPLATE };
const SUBPROCESS = /^subprocess\.(run|call|check_call|check_output|Popen)$/;

export function pythonTaint(root: SgNode): Finding[] {
  const findings: Finding[] = [];
  const fns = root.findAll({ rule: { kind: 'function_definition' } });
  for (const fn of fns) {
    const decorated = fn.parent()?.kind() === 'decorated_definition' ? fn.parent()! : undefined;
    const routed = decorated?.children().some((c) => c.kind() === 'decorator' && ROUTE_DECORATOR.test(c.text())) ?? false;
    const body = fn.field('body');
    // Only functions that read request data (or are routed) are followed: most of a file is skipped at once.
    if (!body || (!routed && !body.find({ rule: { any: [{ kind: 'attribute', regex: `request\\.(${REQUEST_ATTRS})` }, { pattern: 'input($$$)' }] } }))) continue;
    const tainted = new Set<string>();
    if (routed) for (const p of fn.field('parameters')?.namedChildren() ?? []) {
      const name = p.kind() === 'identifier' ? p.text() : p.field('name')?.text() ?? p.namedChildren()[0]?.text();
      if (name && name !== 'self' && name !== 'request') tainted.add(name);
    }
    visit(body, tainted, findings);
  }
  return findings;
}

/** Walks a function body in source order: sinks are checked at calls, taint recorded at assignments. */
function visit(node: SgNode, tainted: Set<string>, out: Finding[]): void {
  const kind = node.kind();
  if (kind === 'function_definition' || kind === 'class_definition' || kind === 'lambda') return;
  if (kind === 'assignment' || kind === 'augmented_assignment') {
    const right = node.field('right');
    if (right) visit(right, tainted, out);
    const left = node.field('left');
    if (!left || !right) return;
    const dirty = isTainted(right, tainted) || (kind === 'augmented_assignment' && left.kind() === 'identifier' && tainted.has(left.text()));
    for (const name of targetNames(left)) dirty ? tainted.add(name) : tainted.delete(name);
    return;
  }
  if (kind === 'for_statement' || kind === 'for_in_clause') {
    const right = node.field('right');
    const left = node.field('left');
    if (right && left && isTainted(right, tainted)) for (const name of targetNames(left)) tainted.add(name);
  }
  if (kind === 'as_pattern') {
    const value = node.namedChildren()[0];
    const alias = node.field('alias');
    if (value) visit(value, tainted, out);
    if (value && alias && isTainted(value, tainted)) for (const name of targetNames(alias)) tainted.add(name);
    return;
  }
  if (kind === 'call') checkSink(node, tainted, out);
  if (kind === 'return_statement') checkHtmlReturn(node, tainted, out);
  for (const child of node.namedChildren()) visit(child, tainted, out);
}

function targetNames(left: SgNode): string[] {
  if (left.kind() === 'identifier') return [left.text()];
  if (['pattern_list', 'tuple_pattern', 'list_pattern', 'as_pattern_target'].includes(String(left.kind()))) return left.namedChildren().flatMap(targetNames);
  return [];
}

/** Request data, or a tainted variable, used in `expr` other than through a sanitizer. */
function isTainted(expr: SgNode, tainted: Set<string>): boolean {
  const uses = expr.findAll({ rule: { any: [{ kind: 'attribute', regex: `^(self\\.)?(flask\\.)?request\\.(${REQUEST_ATTRS})$` }, { kind: 'identifier' }, { pattern: 'input($$$)' }] } });
  if (expr.kind() === 'identifier' || expr.kind() === 'attribute' || expr.kind() === 'call') uses.unshift(expr);
  for (const u of uses) {
    const k = u.kind();
    const source = (k === 'attribute' && SOURCE.test(u.text())) || (k === 'call' && u.field('function')?.text() === 'input');
    const variable = k === 'identifier' && tainted.has(u.text()) && isVariableUse(u);
    if ((source || variable) && !sanitized(u, expr)) return true;
  }
  return false;
}

/** An identifier that names a variable (not an attribute's name or a keyword argument's). */
function isVariableUse(id: SgNode): boolean {
  const parent = id.parent();
  if (!parent) return true;
  if (parent.kind() === 'attribute') return parent.field('object')?.id() === id.id();
  if (parent.kind() === 'keyword_argument') return parent.field('value')?.id() === id.id();
  return true;
}

function sanitized(use: SgNode, within: SgNode): boolean {
  const stop = within.id();
  for (const a of use.ancestors()) {
    if (a.kind() === 'call' && SANITIZERS.has(a.field('function')?.text() ?? '')) return true;
    if (a.id() === stop) return false;
  }
  return false;
}

function checkSink(call: SgNode, tainted: Set<string>, out: Finding[]): void {
  const fnNode = call.field('function');
  const args = call.field('arguments');
  if (!fnNode || !args || args.kind() !== 'argument_list') return;
  const callee = fnNode.text();
  const method = fnNode.kind() === 'attribute' ? fnNode.field('attribute')?.text() ?? '' : '';
  let sink = SINK_BY_CALLEE[callee] ?? (method ? SINK_BY_METHOD[method] : undefined);
  const positional = args.namedChildren().filter((a) => a.kind() !== 'keyword_argument' && a.kind() !== 'comment');
  let first: SgNode | undefined = positional[0];
  if (!sink && SUBPROCESS.test(callee)) {
    // An argument list naming a fixed program is the safe form; a string (a shell line) or shell=True is not.
    const shell = args.namedChildren().some((a) => a.kind() === 'keyword_argument' && a.field('name')?.text() === 'shell' && a.field('value')?.text() === 'True');
    if (first && (shell || first.kind() !== 'list' || isTainted(first.namedChildren()[0] ?? first, tainted))) sink = COMMAND;
    if (first?.kind() === 'list' && !shell) first = first.namedChildren()[0];
  }
  if (!sink) return;
  if (!first) {
    const kw = args.namedChildren().find((a) => a.kind() === 'keyword_argument' && /^(sql|query|url|path|file|source|location|to)$/.test(a.field('name')?.text() ?? ''));
    first = kw?.field('value') ?? undefined;
  }
  if (!first || !isTainted(first, tainted)) return;
  out.push(finding(sink, call));
}

/** `return "<p>" + name` from a routed view: an HTML body built from request data. */
function checkHtmlReturn(ret: SgNode, tainted: Set<string>, out: Finding[]): void {
  const value = ret.namedChildren()[0];
  if (!value || !['binary_operator', 'string', 'call'].includes(String(value.kind()))) return;
  if (value.kind() === 'call' && !/\.format$/.test(value.field('function')?.text() ?? '')) return;
  if (!/<[a-zA-Z!/]/.test(value.text())) return;
  if (isTainted(value, tainted)) out.push(finding(XSS, value));
}

function finding(sink: Sink, node: SgNode): Finding {
  const { start, end } = node.range();
  return { rule_id: sink.id, line: start.line + 1, column: start.column + 1, end_line: end.line + 1, end_column: end.column + 1, severity: sink.severity, category: 'security', message: sink.message, fix: sink.fix, cwe: sink.cwe, engine: 'taint' };
}
