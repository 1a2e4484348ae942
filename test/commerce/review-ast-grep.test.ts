// The ast-grep engine directly: rule files are checked at load (a bad one is an error naming it), each language's
// classes find their defect and leave the safe form alone, Python's source-to-sink check and its sanitizers, the
// syntax check, suppression comments and patches from a rule's fix template.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanAstGrep } from '../../tools/commercial/review/ast-grep.js';
import { loadRules, RuleFileError, type AstGrepLanguage } from '../../tools/commercial/review/ast-grep-rules.js';

const ids = (code: string, lang: AstGrepLanguage) => scanAstGrep(code, lang).map((f) => `${f.line} ${f.rule_id}`);

function ruleDir(lang: string, name: string, text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rules-'));
  fs.mkdirSync(path.join(dir, lang));
  fs.writeFileSync(path.join(dir, lang, name), text);
  return dir;
}
const GOOD = `id: python/x\nlanguage: python\nseverity: error\nmessage: m\nnote: n\nmetadata: { severity: high, category: security, cwe: CWE-1 }\nrule: { kind: call }\n`;

describe('rule files', () => {
  it('loads a good file and refuses a bad one with its name and the reason', () => {
    expect(loadRules(ruleDir('python', 'x.yml', GOOD)).python.map((r) => [r.id, r.class])).toEqual([['python/x', 'x']]);
    const bad: [string, RegExp][] = [
      [GOOD.replace('kind: call', 'kind: no_such_kind'), /Kind `no_such_kind` is invalid/],
      [GOOD.replace('rule:', 'rules:'), /unknown key rules/],
      [GOOD.replace('severity: high', 'severity: severe'), /metadata.severity must be one of/],
      [GOOD.replace('severity: error', 'severity: warning'), /disagrees with metadata.severity high/],
      [GOOD.replace(', cwe: CWE-1', ''), /names its CWE/],
      [GOOD.replace('id: python/x', 'id: go/x'), /must start with "python\/"/],
      [GOOD.replace('rule: { kind: call }', 'rule: { kind: call, regex: "(" }'), /regex/],
      [`${GOOD}  has: [oops\n`, /YAML/],
    ];
    for (const [text, reason] of bad) {
      const dir = ruleDir('python', 'broken-class.yml', text);
      expect(() => loadRules(dir)).toThrow(RuleFileError);
      expect(() => loadRules(dir)).toThrow(/python\/broken-class\.yml/);
      expect(() => loadRules(dir)).toThrow(reason);
    }
    expect(() => loadRules(ruleDir('kotlin', 'x.yml', GOOD))).toThrow(/"kotlin" is not a language/);
    expect(() => loadRules(ruleDir('python', 'x.yaml', GOOD))).toThrow(/end in \.yml/);
  });
});

describe('classes per language: the defect found, the safe form not', () => {
  const cases: [AstGrepLanguage, string, string, string][] = [
    ['python', 'import yaml\nyaml.load(data)\n', 'import yaml\nyaml.load(data, Loader=yaml.SafeLoader)\n', 'python/yaml-load'],
    ['python', 'import subprocess\nsubprocess.run(cmd, shell=True)\n', 'import subprocess\nsubprocess.run(["ls", d], shell=False)\n', 'python/subprocess-shell'],
    ['python', 'import hashlib as h\nh.md5(b)\n', 'import hashlib\nhashlib.md5(b, usedforsecurity=False)\n', 'python/weak-hash'],
    ['python', 'app.run(debug=True)\n', 'app.run(debug=False)\n', 'python/flask-debug'],
    ['python', 'SECRET_KEY = "d8f7g6h5j4k3"\n', 'SECRET_KEY = os.environ["SECRET_KEY"]\n', 'python/hardcoded-secret-key'],
    ['python', 'from jinja2 import Environment\nEnvironment(loader=l)\n', 'from jinja2 import Environment\nEnvironment(loader=l, autoescape=True)\n', 'python/jinja2-autoescape-off'],
    ['python', 'q = "SELECT * FROM t WHERE id = %s" % uid\n', 'cur.execute("SELECT * FROM t WHERE id = %s", (uid,))\n', 'python/sql-string-building'],
    ['python', 'import torch\ntorch.load(p)\n', 'import torch\ntorch.load(p, weights_only=True)\n', 'python/unsafe-deserialization'],
    ['go', 'package m\nimport "math/rand"\nfunc f() int { return rand.Intn(9) }\n', 'package m\nimport "crypto/rand"\nfunc f(b []byte) { rand.Read(b) }\n', 'go/weak-random'],
    ['go', 'package m\nconst password = "f62e5bcda4fae4f8"\n', 'package m\nconst password = "secret"\n', 'go/hardcoded-secret'],
    ['go', 'package m\nimport "os/exec"\nfunc f(p string) { exec.Command(p).Run() }\n', 'package m\nimport "os/exec"\nfunc f(p string) { exec.Command("ls", p).Run() }\n', 'go/command-from-variable'],
    ['java', 'class A { void f(Statement s, String n) throws Exception { s.executeQuery("SELECT * FROM t WHERE n = \'" + n + "\'"); } }\n', 'class A { void f(PreparedStatement s) throws Exception { s.executeQuery(); } }\n', 'java/sql-injection'],
    ['java', 'class A { void f() throws Exception { java.security.MessageDigest.getInstance("SHA-256"); MessageDigest.getInstance("MD5"); } }\n', 'class A { void f() throws Exception { MessageDigest.getInstance("SHA-256"); } }\n', 'java/weak-crypto'],
    ['php', '<?php\n$db->query("SELECT * FROM t WHERE n = \'$n\'");\n', '<?php\n$db->prepare("SELECT * FROM t WHERE n = ?");\n', 'php/sql-injection'],
    ['php', '<?php\nsystem("ls " . $d);\n', '<?php\nsystem("ls");\n', 'php/command-injection'],
    ['ruby', 'User.where("name = \'#{n}\'")\n', 'User.where("name = ?", n)\n', 'ruby/sql-injection'],
    ['ruby', 'system("ls #{d}")\n', 'system("ls", d)\n', 'ruby/command-injection'],
    ['shell', 'curl -k https://x.example\n', 'curl https://x.example\n', 'shell/tls-verify-disabled'],
    ['shell', 'chmod 777 f\n', 'chmod 644 f\n', 'shell/world-writable'],
  ];
  it.each(cases)('%s: %s', (lang, bad, safe, rule) => {
    expect(ids(bad, lang).some((x) => x.endsWith(` ${rule}`))).toBe(true);
    expect(ids(safe, lang).filter((x) => x.endsWith(` ${rule}`))).toEqual([]);
  });
});

describe('Python source to sink, inside one function', () => {
  it('follows request data through assignments to a sink, and a sanitizer stops it', () => {
    const code = [
      'from flask import request, redirect, render_template_string',
      'import os, subprocess',
      'def view(cursor):',
      '    name = request.args.get("name")',
      '    q = "SELECT * FROM users WHERE name = \'" + name + "\'"',
      '    cursor.execute(q)',
      '    os.system("ping " + name)',
      '    nxt = request.args["next"]',
      '    return redirect(nxt)',
      'def safe(cursor):',
      '    n = int(request.args.get("n"))',
      '    cursor.execute("SELECT * FROM t LIMIT " + str(n))',
      '    subprocess.run(["ping", request.args["host"]])',
      '    return render_template_string("<p>{{ n }}</p>", n=n)',
      '@app.route("/hello/<who>")',
      'def hello(who):',
      '    return render_template_string("<p>Hello " + who + "</p>")',
    ].join('\n');
    const taint = scanAstGrep(code, 'python').filter((f) => f.engine === 'taint');
    expect(taint.map((f) => `${f.line} ${f.rule_id} ${f.cwe}`)).toEqual(['6 python/tainted-sql CWE-89', '7 python/tainted-command CWE-78', '9 python/tainted-redirect CWE-601', '17 python/tainted-template CWE-1336']);
  });
});

describe('engine details', () => {
  it('reports the first syntax error, honours nosec comments, and turns a fix template into a patch', () => {
    expect(ids('def ok():\n    return 1\n\ndef broken(:\n    return 2\n', 'python')).toEqual(['4 python/syntax-error']);
    expect(ids('package m\nfunc f() {\n', 'go')[0]).toMatch(/^\d+ go\/syntax-error$/);
    expect(ids('import os\nos.system(cmd)  # nosec\nos.system(cmd)\n', 'python')).toEqual(['3 python/command-injection']);
    expect(ids('package m\nimport "crypto/md5"\n// #nosec G401\nvar h = md5.New()\n', 'go')).toEqual(['2 go/weak-crypto']);
    const [f] = scanAstGrep('requests.get(url, verify=False)\n', 'python').filter((x) => x.rule_id === 'python/tls-verify-disabled');
    expect(f).toMatchObject({ line: 1, column: 19, cwe: 'CWE-295', engine: 'ast-grep', patch: { line: 1, column: 19, end_line: 1, end_column: 31, replacement: 'verify=True' } });
  });
});
