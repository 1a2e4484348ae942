// Issue 43: the paid analysis measured the way the field measures it, on public labelled corpora. Each corpus's
// module (bench/quality/*.ts) runs its engine on its labelled cases and reports a table; this prints them all.
import type { QualityReport } from '../quality/report.js';

/** The corpora, in the order the issue names them; each module exports `measure()`. */
const CORPORA = ['javascript', 'python-go', 'secrets', 'seo', 'extraction'] as const;

function table(r: QualityReport): string {
  const columns = [...new Set(r.rows.flatMap((row) => Object.keys(row)))];
  const lines = [`### ${r.title}`, '', `| ${columns.join(' | ')} |`, `| ${columns.map(() => '---').join(' | ')} |`];
  for (const row of r.rows) lines.push(`| ${columns.map((c) => String(row[c] ?? '')).join(' | ')} |`);
  for (const n of r.notes ?? []) lines.push('', `- ${n}`);
  return lines.join('\n');
}

export async function quality(): Promise<string> {
  const out = ['## Quality on public labelled corpora (issue 43)'];
  for (const name of CORPORA) {
    const started = performance.now();
    const mod = (await import(`../quality/${name}.js`)) as { measure(): Promise<QualityReport[]> };
    for (const r of await mod.measure()) out.push(table(r));
    out.push(`_(${name}: ${((performance.now() - started) / 1000).toFixed(1)} s)_`);
  }
  return out.join('\n\n');
}

