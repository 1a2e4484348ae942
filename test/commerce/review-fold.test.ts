// Findings of two engines on one line and one weakness fold into one (tools/commercial/review/findings.ts): a
// hard-coded key found by ESLint's rule and by the secret scan is told by the secret scan, which names the
// provider and the key's exact span, with ESLint's rule id in `also`.
import { describe, expect, it } from 'vitest';
import { review } from '../../tools/commercial/review/engine.js';

describe('folding', () => {
  it('a hard-coded AWS key: one finding, the secret scan’s, with the ESLint rule beside it', async () => {
    const key = 'AKIA' + 'QYLPMN5HHHFPZAM2';
    const code = `const client = makeClient();\nconst password = "${key}";\nexport default client;\n`;
    const r = await review({ code, language: 'javascript' });
    const onLine = r.findings.filter((f) => f.line === 2);
    expect(onLine).toHaveLength(1);
    expect(onLine[0]).toMatchObject({ engine: 'secrets', cwe: 'CWE-798', severity: 'critical' });
    expect(onLine[0]!.rule_id).toMatch(/^secrets\/aws/);
    expect(onLine[0]!.message).not.toContain(key);
    expect(onLine[0]!.column).toBe(code.split('\n')[1]!.indexOf(key) + 1);
    expect((onLine[0] as { also?: string[] }).also ?? []).toEqual(['review/hardcoded-secret']);
  });
});
