// A detection as the review reports it: rule `secrets/<gitleaks rule id>`, CWE-798 (hard-coded credentials), the
// secret's own span (1-based, end exclusive), a message naming the provider and the secret only masked.
import type { Finding, Severity } from '../findings.js';
import type { Detection, Lines } from './detect.js';
import { maskSecret } from './mask.js';

/** Heuristic rules (keyword and entropy, any JWT, a YAML Secret's data) are high; a provider's own format critical. */
const HIGH = new Set(['generic-api-key', 'jwt', 'jwt-base64', 'kubernetes-secret-yaml']);

export function severityOf(ruleId: string): Severity {
  return HIGH.has(ruleId) ? 'high' : 'critical';
}

/** The name a generic secret is assigned to (`aws_secret_access_key = "…"` → aws_secret_access_key). */
function assignedTo(text: string, d: Detection): string | undefined {
  const before = text.slice(d.matchStart, d.start);
  return /([A-Za-z_$][\w.$-]*)[^\w.$-]*$/.exec(before)?.[1];
}

export function toFinding(d: Detection, text: string, lines: Lines): Finding {
  const from = lines.position(d.start);
  const to = lines.position(d.end);
  const masked = maskSecret(d.secret);
  const name = d.rule.generic ? assignedTo(text, d) : undefined;
  const what = d.rule.generic ? `Hard-coded credential${name ? ` assigned to ${name}` : ''}` : `Hard-coded ${d.rule.providerName} credential`;
  return {
    rule_id: `secrets/${d.rule.id}`,
    line: from.line,
    column: from.column,
    end_line: to.line,
    end_column: to.column,
    severity: severityOf(d.rule.id),
    category: 'security',
    cwe: 'CWE-798',
    message: `${what} (${masked}): ${d.rule.description}`,
    fix: `Remove the ${d.rule.generic ? '' : `${d.rule.providerName} `}secret from the code, revoke and rotate it (it stays in the history), and read it from the environment or a secret store.`,
    engine: 'secrets',
  };
}
