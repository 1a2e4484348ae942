// The secret scan (tools/commercial/review/secrets.ts): issue 43's examples, the finding's shape (rule id, CWE,
// severity, the secret's own line and columns), masking, secretlint's extra rules merged, the path-bound rules,
// gitleaks:allow, and ordinary code left alone. Random keys come from a seeded generator, so every run is the same.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FILE } from '../../bench/scenarios/review.js';
import { newSecret, Rand } from '../../scripts/quality/gitleaks/reggen.js';
import { review } from '../../tools/commercial/review/engine.js';
import { scanSecrets } from '../../tools/commercial/review/secrets.js';
import { maskSecret } from '../../tools/commercial/review/secrets/mask.js';

const rand = new Rand(43);
const awsKeyId = () => `AKIA${newSecret('[A-Z2-7]{16}', rand)}`;
const awsSecret = () => newSecret('[A-Za-z0-9/+]{40}', rand);

describe('secret scan: issue 43', () => {
  it('reports a random AKIA access key id, where secretlint reported nothing', async () => {
    for (let i = 0; i < 25; i++) {
      const key = awsKeyId();
      const findings = await scanSecrets(`const token = "${key}";`);
      expect(findings.map((f) => f.rule_id), key).toEqual(['secrets/aws-access-token']);
      expect(findings[0]).toMatchObject({ severity: 'critical', category: 'security', cwe: 'CWE-798', engine: 'secrets' });
      expect(findings[0].message).toMatch(/^Hard-coded AWS credential/);
    }
  });

  it("does not report AWS's documentation example key (gitleaks allowlists keys ending in EXAMPLE)", async () => {
    expect(await scanSecrets('const token = "AKIAIOSFODNN7EXAMPLE";')).toEqual([]);
    expect(await scanSecrets('aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"')).toEqual([]);
  });

  it('reports a hard-coded aws_secret_access_key, naming the variable, secretlint folded in', async () => {
    for (let i = 0; i < 10; i++) {
      const secret = awsSecret();
      const findings = await scanSecrets(`aws_secret_access_key = "${secret}"\n`);
      expect(findings, secret).toHaveLength(1);
      expect(findings[0]).toMatchObject({ rule_id: 'secrets/generic-api-key', severity: 'high', cwe: 'CWE-798', line: 1, column: 26, end_column: 66 });
      expect(findings[0].message).toContain('assigned to aws_secret_access_key');
      expect((findings[0] as { also?: string[] }).also).toEqual(['secretlint/aws/AWSSecretAccessKey']);
    }
  });

  it("the issue's review reports both the eval and the AWS key", async () => {
    const key = awsKeyId();
    const code = `const token = "${key}";\nexport function run(input: string) {\n  return eval(input);\n}\n`;
    const r = await review({ code, language: 'typescript', filename: 'run.ts' });
    // Another engine's finding of the same secret on the same line folds with this one (findings.ts: `also`).
    const ids = r.findings.flatMap((f) => [f.rule_id, ...((f as { also?: string[] }).also ?? [])].map((id) => `${f.line} ${id}`));
    expect(ids).toContain('1 secrets/aws-access-token');
    expect(ids.some((id) => id.startsWith('3 ') && /eval/.test(id))).toBe(true);
  });
});

describe('secret scan: findings', () => {
  it("points at the secret itself: line, column and end column (1-based, end exclusive)", async () => {
    const key = awsKeyId();
    const code = `// config\n\nexport const cfg = { region: 'eu-west-1', id: '${key}' };\n`;
    const [f] = await scanSecrets(code);
    const col = code.split('\n')[2].indexOf(key) + 1;
    expect(f).toMatchObject({ line: 3, column: col, end_line: 3, end_column: col + key.length });
  });

  it('spans the lines of a private key block', async () => {
    const body = Array.from({ length: 4 }, () => newSecret('[A-Za-z0-9+/]{64}', rand)).join('\n');
    const code = `const pem = \`\n-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----\n\`;\n`;
    const findings = await scanSecrets(code);
    expect(findings.map((f) => [f.rule_id, f.line, f.end_line])).toEqual([['secrets/private-key', 2, 7]]);
  });

  it('never shows the secret: the message masks it to a prefix, stars and its length', async () => {
    const secret = awsSecret();
    const key = awsKeyId();
    const code = `aws_secret_access_key = "${secret}"\nid = "${key}"\nDATABASE_URL=postgres://app:Zx81kPq0Wd@db.internal:5432/app\n`;
    const findings = await scanSecrets(code);
    expect(findings).toHaveLength(3);
    for (const f of findings) {
      for (const s of [secret, key, 'Zx81kPq0Wd', secret.slice(4, 20), key.slice(4)]) expect(JSON.stringify(f)).not.toContain(s);
    }
    expect(findings[1].message).toContain(maskSecret(key));
    expect(maskSecret(key)).toBe(`AKIA${'*'.repeat(12)}… (20 characters)`);
    expect(maskSecret('abcdefghijklmnop')).toBe('ab************… (16 characters)');
    expect(maskSecret('short1')).toBe('****** (6 characters)');
  });

  it("keeps secretlint's findings for what gitleaks has no rule for: credentials in URLs and connection strings", async () => {
    const findings = await scanSecrets('const db = "mongodb+srv://reporter:pa55w0rdXq@cluster0.mongodb.net/test";\nfetch("https://admin:S3cr3tPassw@api.example.com/x");\n');
    expect(findings.map((f) => `${f.line} ${f.engine} ${f.rule_id}`)).toEqual(['1 secretlint secretlint/database-connection-string/MongoDBConnection', '2 secretlint secretlint/basicauth/BasicAuth']);
  });

  it("does not flag the provider placeholders secretlint's own provider rules would (ghp_xxxx…, xoxb-…)", async () => {
    expect(await scanSecrets('token = "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"\nslack = "xoxb-12345-abcd234"\n')).toEqual([]);
  });

  it('honours gitleaks:allow on the line', async () => {
    const key = awsKeyId();
    expect(await scanSecrets(`const fixture = "${key}"; // gitleaks:allow\n`)).toEqual([]);
    expect(await scanSecrets(`const fixture = "${key}";\n// gitleaks:allow\n`)).toHaveLength(1);
  });

  it('runs the path-bound rules when the file name is given (a Kubernetes Secret in YAML)', async () => {
    const yaml = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: UyFCXCpkJHpEc2I9Wk1vR3Rh\n';
    // One finding for the one secret: the generic rule's, on the same value, folds into the Kubernetes rule's.
    expect((await scanSecrets(yaml, 'k8s/db-secret.yaml')).map((f) => `${f.line} ${f.rule_id}`)).toEqual(['6 secrets/kubernetes-secret-yaml']);
    // Elsewhere (or with no name) the Kubernetes rule does not run, and only the password's entropy speaks.
    expect((await scanSecrets(yaml, 'notes.txt')).map((f) => `${f.line} ${f.rule_id}`)).toEqual(['6 secrets/generic-api-key']);
    expect((await scanSecrets(yaml)).map((f) => `${f.line} ${f.rule_id}`)).toEqual(['6 secrets/generic-api-key']);
  });

  it('leaves ordinary code alone: the 500-line bench file and this project\'s own review engine', async () => {
    expect(await scanSecrets(FILE, 'bench.ts')).toEqual([]);
    for (const f of ['engine.ts', 'findings.ts', 'secrets/detect.ts', 'secrets/re2.ts']) {
      const path = `tools/commercial/review/${f}`;
      expect(await scanSecrets(fs.readFileSync(path, 'utf8'), path), path).toEqual([]);
    }
  });
});
