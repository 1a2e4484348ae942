// The research report as Markdown: the question, the answer with its [n], each cited passage quoted under its
// number with its source, the sources read and skipped, and any citation the model invented.
export interface ReportCitation {
  n: number;
  url: string;
  title: string | null;
  passage: string;
  source: number;
  cited: boolean;
}

export interface ReportSource {
  n?: number;
  url: string;
  title: string | null;
  status: 'read' | 'skipped';
  reason?: string;
  message?: string;
}

export interface ReportInput {
  question: string;
  answer: string;
  engine: string;
  ranking: string;
  at: string;
  citations: ReportCitation[];
  sources: ReportSource[];
  dropped: number[];
  notes: string[];
}

/** One line of Markdown-safe text (a title or question in a heading). */
const line = (s: string): string => s.replace(/\s+/g, ' ').trim();
const quote = (s: string): string =>
  s
    .split('\n')
    .map((l) => (l.trim() ? `> ${l}` : '>'))
    .join('\n');
const link = (title: string | null, url: string): string => (title ? `[${line(title).replace(/[[\]]/g, '')}](<${url}>)` : `<${url}>`);

export function reportMarkdown(r: ReportInput): string {
  const out: string[] = [`# Research: ${line(r.question)}`, '', `_${r.at} · answer: ${r.engine} · ranking: ${r.ranking}_`, '', '## Answer', '', r.answer || '_No answer._', ''];
  if (r.notes.length) out.push(...r.notes.map((n) => `> **Note:** ${line(n)}`), '');
  if (r.dropped.length) out.push(`> **Dropped citations:** ${r.dropped.map((n) => `[${n}]`).join(', ')} named no passage given to the model and were removed.`, '');
  out.push('## Citations', '');
  for (const c of r.citations) out.push(`### [${c.n}] ${line(c.title ?? c.url)}`, '', `Source ${c.source}: <${c.url}>${c.cited ? '' : ' (not cited in the answer)'}`, '', quote(c.passage), '');
  out.push('## Sources', '');
  for (const s of r.sources) {
    if (s.status === 'read') out.push(`- Source ${s.n}: ${link(s.title, s.url)}`);
    else out.push(`- skipped: <${s.url}> (${s.reason ?? 'error'}${s.message ? `: ${line(s.message)}` : ''})`);
  }
  out.push('');
  return out.join('\n');
}
