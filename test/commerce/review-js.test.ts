// The JavaScript/TypeScript review engines (tools/commercial/review/eslint.ts) on the families issue 43 names as
// never found, each in a vulnerable and a safe spelling written for this test (not taken from a corpus): the
// vulnerable line must carry a finding of the family's CWE, the safe one no security finding at all.
import { describe, expect, it } from 'vitest';
import { lintJs } from '../../tools/commercial/review/eslint.js';
import type { Finding } from '../../tools/commercial/review/findings.js';

function findings(code: string, typescript = false): Finding[] {
  const out = lintJs(code, typescript);
  if (!('findings' in out)) throw new Error(`not linted: ${JSON.stringify(out)}`);
  return out.findings;
}

/** The line of the first line of `code` that contains `marker`. */
const lineOf = (code: string, marker: string) => code.split('\n').findIndex((l) => l.includes(marker)) + 1;

/** Every line marked `// vuln` has a finding of the CWE; every line marked `// safe` has no security finding. */
function expectMarked(code: string, cwe: string, typescript = false): void {
  const found = findings(code, typescript);
  const lines = code.split('\n');
  lines.forEach((l, i) => {
    const at = found.filter((f) => f.line === i + 1 && f.category === 'security');
    if (l.includes('// vuln')) expect(at.map((f) => f.cwe), `line ${i + 1}: ${l.trim()}`).toContain(cwe);
    if (l.includes('// safe')) expect(at.map((f) => `${f.rule_id} ${f.message}`), `line ${i + 1}: ${l.trim()}`).toEqual([]);
  });
}

describe('request data reaching a sink (taint)', () => {
  it('reports HTML built from the request in an Express response, not escaped, JSON or rendered output', () => {
    const code = `import express, { type Request, type Response } from 'express';
import escapeHtml from 'escape-html';
const app = express();
app.get('/hello', (req: Request, res: Response) => {
  const name = req.query.name as string;
  res.send(\`<h1>Hello \${name}</h1>\`); // vuln
  res.status(200).send('<p>' + req.params.id + '</p>'); // vuln
  res.send(\`<h1>Hello \${escapeHtml(name)}</h1>\`); // safe
  res.json({ name }); // safe
  res.render('hello', { name }); // safe
});
export default app;
`;
    expectMarked(code, 'CWE-79', true);
    expect(findings(code, true).find((f) => f.line === 6)).toMatchObject({ rule_id: 'taint/xss', engine: 'taint', severity: 'high', column: 3 });
  });

  it('reports redirects to a URL the client chose, not to a path of the site', () => {
    expectMarked(`const express = require('express');
const router = express.Router();
router.get('/login/done', function (req, res) {
  const next = req.query.next;
  if (!req.session) return res.redirect('/login'); // safe
  res.redirect(302, next); // vuln
});
router.get('/u/:id', (req, res) => {
  res.redirect('/users/' + req.params.id); // safe
  res.setHeader('Location', req.query.to); // vuln
});
module.exports = router;
`, 'CWE-601');
  });

  it('reports SQL built from request data, not bound parameters or numbers', () => {
    expectMarked(`import { Pool } from 'pg';
const pool = new Pool();
export async function handler(req, res) {
  const { id } = req.params;
  const a = await pool.query('SELECT * FROM users WHERE id = ' + id); // vuln
  const b = await pool.query(\`DELETE FROM sessions WHERE owner = '\${req.body.owner}'\`); // vuln
  const c = await pool.query('SELECT * FROM users WHERE id = $1', [id]); // safe
  const d = await pool.query('SELECT * FROM users WHERE id = ' + parseInt(id, 10)); // safe
  const sql = 'UPDATE users SET name = "' + req.body.name + '" WHERE id = 1';
  await knex.raw(sql); // vuln
  res.json({ a, b, c, d });
}
`, 'CWE-89');
  });

  it('reports commands, files, outgoing requests and code chosen by the client', () => {
    const code = `import { exec, execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
export function route(req, res) {
  exec(\`git log \${req.query.branch}\`); // vuln CWE-78
  execFile('git', ['log', req.query.branch]); // safe
  fs.readFile(path.join('/srv/files', req.params.name), () => {}); // vuln CWE-22
  res.sendFile(path.join('/srv/files', path.basename(req.params.name))); // safe
  fetch(req.query.url); // vuln CWE-918
  fetch(\`https://api.example.com/users/\${encodeURIComponent(req.params.id)}\`); // safe
  eval(req.body.expr); // vuln CWE-95
}
`;
    const found = findings(code);
    code.split('\n').forEach((l, i) => {
      const cwe = /vuln (CWE-\d+)/.exec(l)?.[1];
      const at = found.filter((f) => f.line === i + 1 && f.category === 'security');
      if (cwe) expect(at.map((f) => f.cwe), l).toContain(cwe);
      if (l.includes('// safe')) expect(at, l).toEqual([]);
    });
  });

  it('reports MongoDB queries given the client’s objects, not text', () => {
    expectMarked(`app.post('/login', async (req, res) => {
  const user = await User.findOne({ email: req.body.email, password: req.body.password }); // vuln
  const same = await User.findOne({ email: String(req.body.email) }); // safe
  res.json({ ok: !!user && !!same });
});
`, 'CWE-943');
  });
});

describe('patterns', () => {
  it('reports React markup that is neither constant nor sanitized', () => {
    expectMarked(`import DOMPurify from 'dompurify';
export function Comment({ html }) {
  return <div dangerouslySetInnerHTML={{ __html: html }} />; // vuln
}
export function Clean({ html }) {
  return <div dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(html) }} />; // safe
}
export const Br = () => <span dangerouslySetInnerHTML={{ __html: '<br/>' }} />; // safe
`, 'CWE-79');
  });

  it('reports JWTs verified without naming the algorithms, or accepting none', () => {
    expectMarked(`import jwt from 'jsonwebtoken';
export function check(token: string, publicKey: string) {
  const a = jwt.verify(token, publicKey); // vuln
  const b = jwt.verify(token, publicKey, { algorithms: ['none', 'RS256'] }); // vuln
  const c = jwt.verify(token, publicKey, { algorithms: ['RS256'] }); // safe
  return [a, b, c];
}
`, 'CWE-347', true);
  });

  it('reports weak hashes and ciphers and fixed IVs, not SHA-256 or AES-GCM with a random IV', () => {
    const code = `import crypto, { createHash } from 'node:crypto';
export function digest(data, key) {
  const a = crypto.createHash('md5').update(data).digest('hex'); // vuln CWE-328
  const b = createHash('sha1').update(data).digest('hex'); // vuln CWE-328
  const c = crypto.createCipheriv('aes-256-ecb', key, null); // vuln CWE-327
  const d = crypto.createCipheriv('aes-256-cbc', key, Buffer.alloc(16)); // vuln CWE-329
  const e = createHash('sha256').update(data).digest('hex'); // safe
  const f = crypto.createCipheriv('aes-256-gcm', key, crypto.randomBytes(12)); // safe
  return [a, b, c, d, e, f];
}
`;
    const found = findings(code);
    code.split('\n').forEach((l, i) => {
      const cwe = /vuln (CWE-\d+)/.exec(l)?.[1];
      const at = found.filter((f) => f.line === i + 1 && f.category === 'security');
      if (cwe) expect(at.map((f) => f.cwe), l).toContain(cwe);
      if (l.includes('// safe')) expect(at, l).toEqual([]);
    });
  });

  it('reports AWS CDK resources made public, unencrypted or open to the world', () => {
    const code = `import * as cdk from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
export class Store extends cdk.Stack {
  constructor(scope: cdk.App, id: string, vpc: ec2.IVpc) {
    super(scope, id);
    new s3.Bucket(this, 'Public', {
      publicReadAccess: true, // vuln CWE-284
      encryption: s3.BucketEncryption.UNENCRYPTED, // vuln CWE-311
      enforceSSL: true,
    });
    new s3.Bucket(this, 'Private', { encryption: s3.BucketEncryption.S3_MANAGED, enforceSSL: true, blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL }); // safe
    new sqs.Queue(this, 'Jobs', { encryption: sqs.QueueEncryption.UNENCRYPTED }); // vuln CWE-311
    const sg = new ec2.SecurityGroup(this, 'Sg', { vpc });
    sg.addIngressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(22)); // vuln CWE-284
    sg.addIngressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(443)); // safe
    new iam.PolicyStatement({ actions: ['*'], resources: ['*'] }); // vuln CWE-732
  }
}
`;
    const found = findings(code, true);
    code.split('\n').forEach((l, i) => {
      const cwe = /vuln (CWE-\d+)/.exec(l)?.[1];
      const at = found.filter((f) => f.line === i + 1 && f.category === 'security');
      if (cwe) expect(at.map((f) => f.cwe), l).toContain(cwe);
      if (l.includes('// safe')) expect(at, l).toEqual([]);
    });
  });

  it('reports credentials written into auth and crypto APIs, not ones read from the environment', () => {
    expectMarked(`const jwt = require('jsonwebtoken');
const session = require('express-session');
const token = jwt.sign({ sub: 1 }, 'my-signing-key'); // vuln
const ok = jwt.sign({ sub: 1 }, process.env.JWT_SECRET); // safe
app.use(session({ secret: 'keyboard cat!', cookie: { secure: true } }));
const db = { user: 'app', password: 'hunter22' }; // vuln
const form = { label: 'Password', field: 'password' }; // safe
`, 'CWE-798');
  });
});

describe('parsing', () => {
  it('still checks a file that declares a name twice or awaits outside an async function, and reports the syntax error', () => {
    const code = `const cp = require('child_process');
const cp = require('child_process');
function handler(req, res) {
  const out = await cp.exec('ls ' + req.query.dir);
}
`;
    const found = findings(code);
    expect(found.find((f) => f.rule_id === 'syntax-error')).toMatchObject({ line: 2, category: 'correctness' });
    expect(found.find((f) => f.rule_id === 'taint/command-injection')).toMatchObject({ line: lineOf(code, 'await cp.exec') });
    // Read with let/const as var, the recovered text must not earn no-var findings.
    expect(found.filter((f) => f.rule_id === 'no-var')).toEqual([]);
  });

  it('a rule that throws on unusual code loses that node, not the review', () => {
    // sdl's no-insecure-random reads require()'s argument as a string.
    const found = findings(`const name = process.argv[2];\nconst m = require(name);\nexport default m;\n`);
    expect(found.map((f) => f.rule_id)).toContain('security/detect-non-literal-require');
  });
});

describe('TypeScript beyond what amaro strips', () => {
  it('lints TSX (types blanked with the TSX grammar, lines and columns kept)', () => {
    const code = `import type { FC } from 'react';
import DOMPurify, { type Config } from 'dompurify';
interface Props { html: string; title?: string }
export const Comment: FC<Props> = ({ html, title }: Props) => {
  const t = title as string;
  return <div title={t} dangerouslySetInnerHTML={{ __html: html }} />;
};
export function Clean<T,>({ html }: Props): JSX.Element {
  return <div dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(html) }} />;
}
`;
    const out = lintJs(code, true, { jsx: true });
    expect('findings' in out && out.findings.map((f) => `${f.line}:${f.column} ${f.rule_id}`)).toEqual(['6:25 review/react-dangerous-html']);
    // TypeScript with JSX sent without saying so is recognised too.
    expect(lintJs(code, true)).toEqual(out);
  });

  it('lints classes with parameter properties and decorators, enums and namespaces; a decorated handler parameter is the client’s', () => {
    const code = `import { Controller, Get, Query } from '@nestjs/common';
enum Role { Admin = 'admin', User = 'user' }
namespace Legacy { export const cookie = () => document.cookie; }
@Controller('users')
export class UsersController {
  constructor(private readonly db: { query(sql: string): Promise<unknown> }) {}
  @Get()
  find(@Query('name') name: string, role: Role = Role.User) {
    return this.db.query("SELECT * FROM users WHERE role = '" + role + "' AND name = '" + name + "'");
  }
}
`;
    const found = findings(code, true);
    expect(found.filter((f) => f.category === 'security').map((f) => `${f.line} ${f.rule_id}`)).toEqual(['3 @microsoft/sdl/no-cookies', '9 taint/sql-injection']);
  });
});

describe('more spellings of the same classes', () => {
  it('finds them in Koa, Fastify, hapi and Next.js handlers, TypeORM, the DOM, and through a markup variable', () => {
    const cases: [string, string, string][] = [
      ['CWE-601', 'koa', `router.get('/r', async (ctx) => { ctx.redirect(ctx.query.next); });`],
      ['CWE-79', 'fastify', `fastify.get('/x', async (request, reply) => { reply.type('text/html').send('<b>' + request.query.q + '</b>'); });`],
      ['CWE-79', 'hapi', `server.route({ method: 'GET', path: '/', handler: (request, h) => h.response('<p>' + request.query.q + '</p>') });`],
      ['CWE-601', 'next', `export default function handler(req, res) { res.writeHead(302, { Location: req.query.next }); res.end(); }`],
      ['CWE-89', 'typeorm', `export async function f(req, res) { res.json(await repo.createQueryBuilder('u').where(\`u.name = '\${req.query.name}'\`).getMany()); }`],
      ['CWE-601', 'dom', `const next = new URLSearchParams(window.location.search).get('next'); window.location.href = next;`],
      ['CWE-78', 'execSync', `const { execSync } = require('child_process'); app.post('/c', (req, res) => { execSync(\`convert \${req.file.originalname} out.png\`); });`],
      ['CWE-79', 'markup', `export const A = ({ html }) => { const markup = { __html: html }; return <div dangerouslySetInnerHTML={markup} />; };`],
      ['CWE-601', 'checked on one branch only', `app.get('/r', (req, res) => { const n = req.query.next; if (ALLOWED.includes(n)) return res.redirect(n); res.redirect(n); });`],
      ['CWE-347', 'decode', `const jwt = require('jsonwebtoken'); export function admin(req) { return jwt.decode(req.headers.authorization).admin; }`],
    ];
    for (const [cwe, name, code] of cases) expect(findings(code).map((f) => f.cwe), name).toContain(cwe);
  });

  it('leaves alone a sanitized markup variable, a request object sent whole as JSON, a parameterless cors(), a text/plain response, and values a check let through', () => {
    for (const code of [
      `export const A = ({ html }) => { const markup = { __html: DOMPurify.sanitize(html) }; return <div dangerouslySetInnerHTML={markup} />; };`,
      `app.get('/echo', (req, res) => res.send(req.query));`,
      `const cors = require('cors'); app.use(cors());`,
      `app.get('/t', (req, res) => { res.set('Content-Type', 'text/plain'); res.send(req.query.q); });`,
      `app.get('/r', (req, res) => { const url = req.query.url; if (!isSafeUrl(url)) return res.status(400).end(); res.redirect(url); });`,
      `app.get('/r', (req, res) => { let to = req.query.to; if (!to.startsWith('/') || to.startsWith('//')) to = '/'; res.redirect(to); });`,
    ]) expect(findings(code).filter((f) => f.category === 'security'), code).toEqual([]);
  });
});
