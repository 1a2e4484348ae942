// Secrets in any language: gitleaks' default rules (provider formats, the keyword-and-entropy generic rule, its
// allowlists) run by secrets/detect.ts, and secretlint's rules for the kinds gitleaks has none for (secrets/
// secretlint.ts). A secret both find (same line, overlapping span) is one finding, the gitleaks rule's, with
// secretlint's rule id in `also`. Findings come ordered by place.
import type { Finding } from './findings.js';
import { detect, Lines } from './secrets/detect.js';
import { secretlintScan } from './secrets/secretlint.js';
import { toFinding } from './secrets/to-finding.js';

/** `filename`, when known, lets the rules that read a path run (a Kubernetes Secret in a .yaml file…). */
export async function scanSecrets(code: string, filename?: string): Promise<Finding[]> {
  const lines = new Lines(code);
  const detections = detect(code, { filePath: filename });
  const findings: (Finding & { also?: string[] })[] = detections.map((d) => toFinding(d, code, lines));
  for (const hit of await secretlintScan(code)) {
    const i = detections.findIndex((d, k) => d.start < hit.end && hit.start < d.end && findings[k].line === hit.finding.line);
    if (i === -1) findings.push(hit.finding);
    else (findings[i].also ??= []).push(hit.finding.rule_id);
  }
  return findings.sort((a, b) => a.line - b.line || a.column - b.column);
}
