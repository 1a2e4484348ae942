// secretlint's recommended rules, in memory (no files, no config file), for the kinds of secret gitleaks' default
// rules have no rule for: credentials in URLs and database connection strings, Docker, Figma, Groq, Tailscale and
// Vercel tokens, AWS secret access keys and GCP service-account keys named as such. Where gitleaks has a rule for
// the provider (GitHub, Slack, GitLab…) its rule decides: secretlint's versions flagged 26 of the placeholders in
// gitleaks' false-positive samples (ghp_xxxx…, xoxb-12345-abcd234) and found no true positive gitleaks missed.
// secretlint-disable comments are honoured (filter-comments), as gitleaks honours gitleaks:allow.
import { lintSource } from '@secretlint/core';
import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import type { Finding } from '../findings.js';

export const SECRETLINT_RULES = ['aws', 'gcp', 'basicauth', 'database-connection-string', 'docker', 'figma', 'groq', 'tailscale', 'vercel', 'filter-comments'];

const kept = new Set(SECRETLINT_RULES.map((r) => `@secretlint/secretlint-rule-${r}`));
const config = { rules: rules.filter((r) => kept.has(r.meta.id)).map((r) => ({ id: r.meta.id, rule: r })) };
if (config.rules.length !== kept.size) throw new Error(`secretlint's preset lacks some of ${SECRETLINT_RULES.join(', ')}`);

export interface SecretlintHit {
  finding: Finding;
  /** UTF-16 offsets of the flagged text. */
  start: number;
  end: number;
}

export async function secretlintScan(code: string): Promise<SecretlintHit[]> {
  const r = await lintSource({ source: { filePath: '/input', content: code, contentType: 'text' }, options: { config, maskSecrets: true } });
  return r.messages.map((m) => ({
    start: m.range[0],
    end: m.range[1],
    finding: {
      rule_id: `secretlint/${m.ruleId.replace(/^@secretlint\/secretlint-rule-/, '')}${m.messageId ? `/${m.messageId}` : ''}`,
      line: m.loc.start.line,
      column: m.loc.start.column + 1,
      end_line: m.loc.end.line,
      end_column: m.loc.end.column + 1,
      severity: 'critical',
      category: 'security',
      cwe: 'CWE-798',
      message: m.message,
      fix: 'Remove the secret from the code, revoke and rotate it, and read it from the environment or a secret store.',
      engine: 'secretlint',
    },
  }));
}
