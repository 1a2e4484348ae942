// Secrets in any language: secretlint's recommended rules, in memory (no files, no config file).
import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import type { Finding } from './findings.js';

const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };

export async function scanSecrets(code: string): Promise<Finding[]> {
  const r = await lintSource({ source: { filePath: '/input', content: code, contentType: 'text' }, options: { config, maskSecrets: true } });
  return r.messages.map((m) => ({
    rule_id: `secretlint/${m.ruleId.replace(/^@secretlint\/secretlint-rule-/, '')}${m.messageId ? `/${m.messageId}` : ''}`,
    line: m.loc.start.line,
    column: m.loc.start.column + 1,
    end_line: m.loc.end.line,
    end_column: m.loc.end.column + 1,
    severity: 'critical' as const,
    category: 'security' as const,
    message: m.message,
    fix: 'Remove the secret from the code, revoke and rotate it, and read it from the environment or a secret store.',
    engine: 'secretlint' as const,
  }));
}
