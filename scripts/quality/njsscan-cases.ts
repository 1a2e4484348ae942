// Rebuilds test/fixtures/quality/njsscan/ from a checkout of ajinabraham/njsscan: copies its Node test assets
// (tests/assets/node_source, LGPL-3.0, with the licence) and derives the labelled cases into cases.json.
//   git --git-dir=<mirror> archive <commit> | tar -x -C /tmp/njsscan
//   npx tsx scripts/quality/njsscan-cases.ts /tmp/njsscan <commit>
//
// Labels. The true-positive files follow semgrep's test convention: `// ruleid: <rule>` says that a finding of
// <rule> starts on the next line. Semgrep's match starts at the first statement of the rule's pattern, and many of
// njsscan's patterns are sequences (`$X = req.query.a; ... res.send($X)`, `jwt = require('jsonwebtoken'); ...
// jwt.sign(p, 'secret')`, `new BrowserWindow({ ... webSecurity: false ... })`), so the labelled line is often the
// source and the defect a few lines below, within the same block. A vulnerable case therefore covers the labelled
// line and the lines after it in the same block (indentation no smaller than the labelled line's), up to the next
// annotation: a finding of the case's family starting in that range finds it. The true-negative files are whole
// files without any finding expected; each top-level statement of them (by indentation) is one safe case, those
// made only of imports left out, and any security finding starting in it flags it.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT_DIR, writeCorpus } from './eslint-corpus-io.js';
import type { Family, QualityCase } from './eslint-families.js';

/** njsscan's rule ids → the family they label. */
const FAMILY_OF: Record<string, Family> = {
  admzip_path_overwrite: 'path-traversal', tar_path_overwrite: 'path-traversal', zip_path_overwrite: 'path-traversal', zip_path_overwrite2: 'path-traversal',
  generic_path_traversal: 'path-traversal', join_resolve_path_traversal: 'path-traversal', express_lfr: 'path-traversal', express_lfr_warning: 'path-traversal',
  buffer_noassert: 'buffer',
  cookie_session_default: 'cookie', cookie_session_no_domain: 'cookie', cookie_session_no_httponly: 'cookie', cookie_session_no_maxage: 'cookie',
  cookie_session_no_path: 'cookie', cookie_session_no_samesite: 'cookie', cookie_session_no_secure: 'cookie',
  dom_xss: 'xss', express_xss: 'xss', handlebars_noescape: 'xss', handlebars_safestring: 'xss', squirrelly_autoescape: 'xss',
  xss_disable_mustache_escape: 'xss', xss_serialize_javascript: 'xss',
  electron_allow_http: 'electron', electron_blink_integration: 'electron', electron_context_isolation: 'electron',
  electron_disable_websecurity: 'electron', electron_experimental_features: 'electron', electron_nodejs_integration: 'electron',
  eval_nodejs: 'code-injection', eval_require: 'code-injection', sandbox_code_injection: 'code-injection', server_side_template_injection: 'code-injection',
  vm2_code_injection: 'code-injection', vm2_context_injection: 'code-injection', vm_code_injection: 'code-injection', vm_compilefunction_injection: 'code-injection',
  vm_runincontext_injection: 'code-injection', vm_runinnewcontext_injection: 'code-injection',
  express_bodyparser: 'dos', layer7_object_dos: 'dos',
  express_cors: 'origin', generic_cors: 'origin',
  express_open_redirect: 'open-redirect', express_open_redirect2: 'open-redirect',
  generic_error_disclosure: 'error-disclosure', node_error_disclosure: 'error-disclosure',
  generic_header_injection: 'header-injection', host_header_injection: 'header-injection',
  generic_os_command_exec: 'command-injection', shelljs_os_command_exec: 'command-injection',
  grpc_insecure_connection: 'tls',
  header_xss_generic: 'security-headers', header_xss_lusca: 'security-headers', helmet_feature_disabled: 'security-headers',
  hardcoded_jwt_secret: 'hardcoded-secret', node_api_key: 'hardcoded-secret', node_password: 'hardcoded-secret', node_secret: 'hardcoded-secret',
  node_username: 'hardcoded-secret', hardcoded_passport_secret: 'hardcoded-secret', jwt_express_hardcoded: 'hardcoded-secret',
  jwt_exposed_credentials: 'sensitive-data', jwt_exposed_data: 'sensitive-data',
  jwt_not_revoked: 'jwt', node_jwt_none_algorithm: 'jwt',
  node_aes_ecb: 'weak-crypto', node_aes_noiv: 'weak-crypto', node_md5: 'weak-crypto', node_sha1: 'weak-crypto', node_weak_crypto: 'weak-crypto',
  node_insecure_random_generator: 'insecure-random',
  node_curl_ssl_verify_disable: 'tls', node_tls_reject: 'tls', sequelize_tls: 'tls', sequelize_tls_cert_validation: 'tls', sequelize_weak_tls: 'tls',
  node_deserialize: 'deserialization', serializetojs_deserialize: 'deserialization', yaml_deserialize: 'deserialization',
  node_entity_expansion: 'xxe', node_xxe: 'xxe', xxe_expat: 'xxe', xxe_sax: 'xxe', xxe_xml2json: 'xxe',
  node_knex_sqli_injection: 'sql-injection', node_sqli_injection: 'sql-injection',
  node_nosqli_injection: 'nosql-injection', node_nosqli_js_injection: 'nosql-injection',
  node_logic_bypass: 'logic-bypass',
  node_ssrf: 'ssrf', phantom_ssrf: 'ssrf', playwright_ssrf: 'ssrf', puppeteer_ssrf: 'ssrf', wkhtmltoimage_ssrf: 'ssrf', wkhtmltopdf_ssrf: 'ssrf',
  node_timing_attack: 'timing-attack',
  node_xpath_injection: 'xpath-injection',
  regex_dos: 'redos', regex_injection_dos: 'redos',
};

const ASSETS = 'tests/assets/node_source';
const ANNOTATION = /^\s*\/\/\s*(ruleid|ok)\b\s*:?\s*(.*)$/;
const indent = (s: string) => s.length - s.trimStart().length;
const blankOrComment = (s: string) => /^\s*($|\/\/|\/\*|\*)/.test(s);

/** The labelled line and the lines after it in its block, up to the next annotation (see the header). */
function vulnerableRange(lines: string[], labelled: number): [number, number] {
  const ind = indent(lines[labelled - 1]!);
  let end = labelled;
  // Lines inside a multi-line template literal do not end the block, whatever their indentation.
  let inTemplate = backticks(lines[labelled - 1]!) % 2 === 1;
  for (let k = labelled + 1; k <= lines.length; k++) {
    const s = lines[k - 1]!;
    const opensOrCloses = backticks(s) % 2 === 1;
    if (inTemplate) {
      end = k;
      if (opensOrCloses) inTemplate = false;
      continue;
    }
    if (ANNOTATION.test(s)) break;
    if (s.trim() === '') continue;
    if (indent(s) < ind) break;
    if (!blankOrComment(s)) end = k;
    if (opensOrCloses) inTemplate = true;
  }
  return [labelled, end];
}

const backticks = (s: string) => (s.match(/(?<!\\)`/g) ?? []).length;

/** An import or a require of a fixed module name (also a line of a multi-line `var a = require('a'), b = …`). */
const isImportLine = (s: string) => /^\s*(import\s.*|export\s.*\sfrom\s.*|(?:(?:const|let|var)\s+)?[\w${}\s,:]*=\s*require\(\s*['"][^'"]+['"]\s*\)[\w.]*\s*[;,]?|['"]use strict['"];?)\s*$/.test(s);

/** Top-level statements of a true-negative file, by indentation: [first line, last line], import-only ones left out. */
function topLevelUnits(lines: string[]): [number, number][] {
  const starts: number[] = [];
  lines.forEach((s, i) => {
    if (indent(s) === 0 && !blankOrComment(s) && !/^[})\].+?:,]/.test(s)) starts.push(i + 1);
  });
  return starts
    .map((start, i) => {
      let end = (starts[i + 1] ?? lines.length + 1) - 1;
      while (end > start && blankOrComment(lines[end - 1]!)) end--;
      return [start, end] as [number, number];
    })
    .filter(([a, b]) => !lines.slice(a - 1, b).every((s) => blankOrComment(s) || isImportLine(s)));
}

function main(): void {
  const [checkout, commit] = process.argv.slice(2);
  if (!checkout || !commit) throw new Error('usage: njsscan-cases.ts <njsscan checkout> <commit>');
  const out = path.join(ROOT_DIR, 'test', 'fixtures', 'quality', 'njsscan');
  fs.rmSync(path.join(out, 'files'), { recursive: true, force: true });
  const src = path.join(checkout, ASSETS);
  const files = (fs.readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.js')).sort();
  const cases: QualityCase[] = [];
  const unknown = new Set<string>();
  for (const rel of files) {
    const text = fs.readFileSync(path.join(src, rel), 'utf8');
    const dest = path.join(out, 'files', rel);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.writeFileSync(dest, text);
    const lines = text.split('\n');
    const file = `files/${rel.split(path.sep).join('/')}`;
    if (rel.startsWith('true_positives')) {
      lines.forEach((s, i) => {
        const m = ANNOTATION.exec(s);
        if (!m || m[1] !== 'ruleid') return;
        const label = m[2]!.trim().split(/[\s,]+/)[0]!;
        const family = FAMILY_OF[label];
        if (!family) return void unknown.add(label);
        const line = i + 2;
        cases.push({ id: `${file}:${line}`, file, language: 'javascript', line, lines: vulnerableRange(lines, line), family, vulnerable: true, label });
      });
    } else {
      const family = familyOfNegative(rel);
      for (const range of topLevelUnits(lines)) cases.push({ id: `${file}:${range[0]}`, file, language: 'javascript', line: range[0], lines: range, family, vulnerable: false, label: path.basename(rel, '.js') });
    }
  }
  if (unknown.size) throw new Error(`rule ids without a family: ${[...unknown].join(', ')}`);
  fs.copyFileSync(path.join(checkout, 'LICENSE'), path.join(out, 'LICENSE'));
  writeCorpus(out, {
    corpus: 'njsscan',
    repo: 'https://github.com/ajinabraham/njsscan',
    commit,
    license: 'LGPL-3.0 (LICENSE beside this file); the files under files/ are njsscan’s tests/assets/node_source, unchanged',
    mapping: 'Vulnerable: a `// ruleid: <rule>` annotation; the case covers the next line and the following lines of its block up to the next annotation (semgrep reports a match from its first statement, and many patterns run from the source to the sink). Found when a finding whose CWE belongs to the rule’s family starts in that range. Safe: each top-level statement of a true-negative file (import-only ones left out); flagged when any security finding starts in it.',
    excluded: [{ count: (fs.readdirSync(path.join(checkout, 'tests/assets/templates'), { recursive: true }) as string[]).filter((f) => /\.\w+$/.test(f)).length, why: 'template files (EJS, Pug, Handlebars, Vue…): not JavaScript, outside these engines' }],
    cases,
  });
  process.stdout.write(`${cases.filter((c) => c.vulnerable).length} vulnerable, ${cases.filter((c) => !c.vulnerable).length} safe cases\n`);
}

/** The family a true-negative file is the counterpart of (informational: a safe case is flagged by any security finding). */
function familyOfNegative(rel: string): Family {
  const name = path.basename(rel, '.js');
  const pairs: [RegExp, Family][] = [
    [/phantom|playwright|puppeteer|wkhtml|http_client/, 'ssrf'], [/helmet|header/, 'security-headers'],
    [/sql_knex|safe_sql/, 'sql-injection'], [/nosql/, 'nosql-injection'], [/redirect/, 'open-redirect'], [/html|xss|template|mustache|seralize/, 'xss'],
    [/traversal|path|archive|lfr|hbs/, 'path-traversal'], [/os_command|shelljs/, 'command-injection'], [/eval|vm|sandbox|require/, 'code-injection'],
    [/crypto/, 'weak-crypto'], [/comparison/, 'timing-attack'], [/tls|grpc/, 'tls'], [/jwt_(credentials|data)/, 'sensitive-data'], [/jwt/, 'jwt'],
    [/creds|passport/, 'hardcoded-secret'], [/cors/, 'origin'], [/cookie/, 'cookie'], [/electron/, 'electron'],
    [/regex/, 'redos'], [/xml|expat|sax|xpath/, 'xxe'], [/yaml|serialize/, 'deserialization'],
    [/buffer/, 'buffer'], [/error/, 'error-disclosure'], [/loop|bodyparser/, 'dos'], [/controls/, 'security-headers'],
  ];
  const hit = pairs.find(([re]) => re.test(name));
  if (!hit) throw new Error(`no family for the true-negative file ${rel}`);
  return hit[1];
}

main();
