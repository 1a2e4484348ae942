// POST /review ($25) and POST /v1/code-review (metered) end to end on the commercial listener: known defects in
// each language found with exact rule ids and lines, clean samples with no finding, a syntax error as a finding,
// an unknown language refused, focus, 422 before any hold, another account kept out.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { openAccount, revenueKey as key } from '../helpers/commerce.js';
import { ROOT } from '../helpers/paths.js';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm.js';

const OPERATOR = 'operator-token-for-review-test';
const fixture = (name: string) => fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'review', name), 'utf8');
let gw: TestGateway;
let k: string;
const account = (email: string, credit: number) => openAccount(gw, email, { credit, operatorToken: OPERATOR, name: 'Review Co' });

beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY: '100' } });
  k = await account('reviewer@example.com', 1_000_000_000);
});
afterAll(async () => {
  await gw?.cleanup();
  await withModel?.cleanup();
  await llm?.close();
});

const KNOWN: Record<string, string[]> = {
  'bad.ts': ['6 security/detect-child-process', '7 security/detect-non-literal-regexp', '8 no-var', '9 security/detect-eval-with-expression'],
  'bad.js': ['4 security/detect-non-literal-fs-filename', '5 security/detect-eval-with-expression'],
  'bad.py': ['8 python/command-injection', '9 python/unsafe-deserialization', '10 python/sql-injection', '11 python/weak-hash', '12 python/tls-verify-disabled', '14 python/eval', '15 python/bare-except'],
  'bad.go': ['4 go/weak-crypto', '12 go/sql-injection', '13 go/command-injection', '14 go/tls-insecure-skip-verify', '15 go/weak-crypto-use', '16 go/sql-injection'],
  'Bad.java': ['8 java/sql-injection', '9 java/command-injection', '10 java/unsafe-deserialization', '11 java/weak-crypto', '14 java/empty-catch'],
  'bad.rs': ['2 rust/weak-hash', '5 rust/unwrap', '6 rust/command-injection', '7 rust/tls-verify-disabled', '9 rust/unsafe-block'],
  'bad.rb': ['4 ruby/command-injection', '5 ruby/unsafe-deserialization', '6 ruby/sql-injection', '7 ruby/tls-verify-disabled', '8 ruby/eval', '9 ruby/bare-rescue'],
  'bad.php': ['3 php/command-injection', '4 php/unsafe-deserialization', '5 php/sql-injection', '6 php/weak-hash', '8 php/tls-verify-disabled', '9 php/eval'],
  'Bad.cs': ['9 csharp/sql-injection', '10 csharp/command-injection', '11 csharp/unsafe-deserialization', '12 csharp/tls-validation-disabled', '13 csharp/weak-crypto', '14 csharp/empty-catch'],
  'bad.sh': ['3 shell/eval', '4 shell/curl-pipe-shell', '5 shell/tls-verify-disabled', '6 shell/world-writable', '7 shell/unquoted-variable'],
};
const CLEAN = ['clean.ts', 'clean.js', 'clean.py', 'clean.go', 'Clean.java', 'clean.rs', 'clean.rb', 'clean.php', 'Clean.cs', 'clean.sh'];

describe('POST /review', () => {
  it('finds the known defects of each language, exactly, and charges $25 on delivery', async () => {
    for (const [file, expected] of Object.entries(KNOWN)) {
      const r = await api(gw.apiUrl, 'POST', '/review', { body: { code: fixture(file), filename: file }, headers: key(k) });
      expect(r.status, file).toBe(200);
      expect(r.body.findings.map((f: { line: number; rule_id: string }) => `${f.line} ${f.rule_id}`), file).toEqual(expected);
      for (const f of r.body.findings) expect(f).toMatchObject({ column: expect.any(Number), severity: expect.stringMatching(/^(critical|high|medium|low|info)$/), message: expect.any(String), fix: expect.any(String) });
      expect(r.body.charged).toEqual({ usd: '25', micro_usd: 25_000_000 });
    }
  });

  it('raises no false alarm on clean samples', async () => {
    for (const file of CLEAN) {
      const r = await api(gw.apiUrl, 'POST', '/review', { body: { code: fixture(file), filename: file }, headers: { authorization: `Bearer ${k}` } });
      expect(r.status, file).toBe(200);
      expect(r.body.findings, file).toEqual([]);
    }
  });

  it('folds duplicates, offers a patch where ESLint has one, and keeps the order to its account', async () => {
    const r = await api(gw.apiUrl, 'POST', '/review', { body: { code: fixture('bad.ts'), language: 'typescript' }, headers: key(k) });
    const evalFinding = r.body.findings.find((f: { line: number }) => f.line === 9);
    expect(evalFinding.also).toEqual(['no-eval']);
    // The patch of a TypeScript line with types would drop them: none is offered there; JavaScript gets one.
    expect(r.body.findings.find((f: { rule_id: string }) => f.rule_id === 'no-var').patch).toBeUndefined();
    const js = await api(gw.apiUrl, 'POST', '/review', { body: { code: 'export function f() {\n  var n = 1;\n  return n;\n}\n', language: 'javascript' }, headers: key(k) });
    expect(js.body.findings).toMatchObject([{ rule_id: 'no-var', line: 2, column: 3, patch: { line: 2, column: 3, end_line: 2, end_column: 13, replacement: 'let n = 1;' } }]);
    const order = await api(gw.apiUrl, 'GET', `/orders/${r.body.order_id}`, { headers: key(k) });
    expect(order.body).toMatchObject({ service: 'review', status: 'delivered', price: { price_id: 'review' }, payment: { state: 'captured', charged_micro_usd: 25_000_000 } });
    const stranger = await account('stranger@example.com', 1_000_000);
    expect((await api(gw.apiUrl, 'GET', `/orders/${r.body.order_id}`, { headers: key(stranger) })).status).toBe(404);
  });

  it('reports a syntax error as a finding, and refuses an unknown language before any hold (422)', async () => {
    const broken = await api(gw.apiUrl, 'POST', '/review', { body: { code: fixture('broken.py'), language: 'python' }, headers: key(k) });
    expect(broken.status).toBe(200);
    expect(broken.body.findings.map((f: { line: number; rule_id: string }) => `${f.line} ${f.rule_id}`)).toEqual(['4 python/syntax-error']);
    // Without a model, a language the engines do not parse is not reviewed, so not charged (commercial-details.test.ts).
    const kt = await api(gw.apiUrl, 'POST', '/review', { body: { code: fixture('secrets.kt'), filename: 'secrets.kt' }, headers: key(k) });
    expect(kt.status).toBe(422);
    expect(kt.body.error).toMatchObject({ reason: 'unsupported_language', language: 'kt' });
    expect(JSON.stringify(kt.body)).not.toContain('ghp_16C7e42F292c6912E7710c838347Ae178B4a');
  });

  it('refuses too much code with 422 before any hold, and a missing key with 401', async () => {
    const before = (await api(gw.apiUrl, 'GET', '/usage', { headers: key(k) })).body.balance;
    expect((await api(gw.apiUrl, 'POST', '/review', { body: { code: 'x\n'.repeat(5001) }, headers: key(k) })).status).toBe(422);
    expect((await api(gw.apiUrl, 'POST', '/review', { body: { code: '' }, headers: key(k) })).status).toBe(422);
    expect((await api(gw.apiUrl, 'POST', '/review', { body: { code: 'a' } })).status).toBe(401);
    expect((await api(gw.apiUrl, 'GET', '/usage', { headers: key(k) })).body.balance).toBe(before);
  });
});

describe('POST /v1/code-review', () => {
  it('keeps the focus asked for and charges the code’s tokens', async () => {
    const code = fixture('bad.py');
    const r = await api(gw.apiUrl, 'POST', '/v1/code-review', { body: { code, language: 'python', focus: 'correctness' }, headers: key(k) });
    expect(r.status).toBe(200);
    expect(r.body.findings.map((f: { line: number; rule_id: string }) => `${f.line} ${f.rule_id}`)).toEqual(['15 python/bare-except']);
    const tokens = Math.ceil(code.length / 4);
    expect(r.body.tokens).toEqual({ code: tokens, model: 0, total: tokens });
    expect(r.body.charged.micro_usd).toBe(tokens * 100);
    const sec = await api(gw.apiUrl, 'POST', '/v1/code-review', { body: { code, language: 'python', focus: ['security'] }, headers: key(k) });
    expect(sec.body.findings).toHaveLength(6);
    const order = await api(gw.apiUrl, 'GET', `/orders/${r.body.order_id}`, { headers: key(k) });
    expect(order.body).toMatchObject({ service: 'code_review', price: { price_id: 'code_review.per_1k_tokens' }, payment: { state: 'captured', charged_micro_usd: tokens * 100 } });
    expect((await api(gw.apiUrl, 'POST', '/v1/code-review', { body: { code, focus: 'speed' }, headers: key(k) })).status).toBe(422);
  });
});

let withModel: TestGateway;
let llm: ScriptedLlm;

describe('with a model', () => {
  it('merges the model’s findings that point to a real line, folds its duplicates of engine findings, and charges its tokens', async () => {
    llm = await startScriptedLlm([]);
    withModel = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY: '100', LLM_BASE_URL: llm.url, LLM_MODEL: llm.model } });
    const r0 = await api(withModel.apiUrl, 'POST', '/signup', { body: { email: 'model@example.com', name: 'Model Co' } });
    const mk = r0.body.key as string;
    await api(withModel.url, 'POST', '/operator/credits', { body: { email: 'model@example.com', amount: 100_000_000, reason: 'test' }, headers: { 'x-operator-token': OPERATOR } });
    const code = fixture('bad.py');
    const usage = { prompt_tokens: 500, completion_tokens: 120, total_tokens: 620 };
    llm.push({
      usage,
      content: JSON.stringify({
        findings: [
          { line: 17, severity: 'low', category: 'correctness', rule: 'unused-result', message: 'handle returns the unpickled object to the caller unchecked.', fix: 'Validate obj before returning it.' },
          { line: 8, severity: 'critical', category: 'security', rule: 'shell', message: 'Shell injection.', fix: 'Use subprocess.run with a list.' },
          { line: 99, severity: 'high', category: 'security', rule: 'made-up', message: 'A line that does not exist.' },
          { line: 6, severity: 'high', category: 'security', rule: 'blank', message: 'A blank line.' },
        ],
      }),
    });
    const r = await api(withModel.apiUrl, 'POST', '/v1/code-review', { body: { code, language: 'python' }, headers: key(mk) });
    expect(r.status).toBe(200);
    expect(r.body.engines).toEqual(['ast-grep', 'taint', 'secrets', 'secretlint', 'model']);
    expect(r.body.findings.map((f: { line: number; rule_id: string }) => `${f.line} ${f.rule_id}`)).toEqual([...KNOWN['bad.py']!, '17 model/unused-result']);
    expect(r.body.findings.at(-1)).toMatchObject({ column: 5, severity: 'low', category: 'correctness', engine: 'model', fix: 'Validate obj before returning it.' });
    expect(r.body.model).toEqual({ findings: 1, folded: 1, dropped: 2 });
    // The model saw the code numbered, and the engines' findings.
    expect(llm.requests.at(-1)!.body.messages[1].content).toContain('8|     os.system("ls " + user)');
    const tokens = Math.ceil(code.length / 4);
    expect(r.body.tokens).toEqual({ code: tokens, model: 620, total: tokens + 620 });
    expect(r.body.charged.micro_usd).toBe((tokens + 620) * 100);
    expect((await api(withModel.apiUrl, 'GET', '/usage', { headers: key(mk) })).body.balance).toBe(100_000_000 - (tokens + 620) * 100);
  });

  it('delivers the engines’ findings with a note when the model fails', async () => {
    const r0 = await api(withModel.apiUrl, 'POST', '/signup', { body: { email: 'model2@example.com', name: 'Model Co' } });
    const mk = r0.body.key as string;
    await api(withModel.url, 'POST', '/operator/credits', { body: { email: 'model2@example.com', amount: 100_000_000, reason: 'test' }, headers: { 'x-operator-token': OPERATOR } });
    llm.push({ status: 500, error: { message: 'boom' } });
    const r = await api(withModel.apiUrl, 'POST', '/review', { body: { code: fixture('bad.go'), filename: 'bad.go' }, headers: key(mk) });
    expect(r.status).toBe(200);
    expect(r.body.findings.map((f: { line: number; rule_id: string }) => `${f.line} ${f.rule_id}`)).toEqual(KNOWN['bad.go']);
    expect(r.body.notes.join(' ')).toMatch(/The model could not review this code/);
    expect(r.body.charged.micro_usd).toBe(25_000_000);
  });
});
