// Renders onboarding documents (plain JSON sections) as a small, readable, script-free HTML page.
const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `body{font:16px/1.55 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
h1{font-size:1.9rem;margin-bottom:.2rem}h2{margin-top:2rem;border-bottom:1px solid #dde;padding-bottom:.2rem}
code,pre{font:14px ui-monospace,monospace;background:#f3f4f8;border-radius:4px}pre{padding:.8rem;overflow:auto}
code{padding:.1rem .3rem}table{border-collapse:collapse;width:100%}td,th{border:1px solid #dde;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f4f8}.lead{color:#4a5366}`;

export interface Section {
  heading: string;
  text?: string;
  code?: string;
  rows?: Record<string, string | number | null>[];
  items?: string[];
  /** Links, each with what it is for. */
  links?: { label: string; href: string; note?: string }[];
}

export interface Page {
  title: string;
  lead: string;
  sections: Section[];
}

function table(rows: Record<string, string | number | null>[]): string {
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const head = cols.map((c) => `<th>${esc(c)}</th>`).join('');
  const body = rows.map((r) => `<tr>${cols.map((c) => `<td>${esc(String(r[c] ?? ''))}</td>`).join('')}</tr>`).join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

export function renderPage(p: Page): string {
  const sections = p.sections
    .map((s) =>
      [
        `<h2>${esc(s.heading)}</h2>`,
        s.text ? `<p>${esc(s.text)}</p>` : '',
        s.items ? `<ul>${s.items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>` : '',
        s.links ? `<ul>${s.links.map((l) => `<li><a href="${esc(l.href)}">${esc(l.label)}</a>${l.note ? ` — ${esc(l.note)}` : ''}</li>`).join('')}</ul>` : '',
        s.code ? `<pre><code>${esc(s.code)}</code></pre>` : '',
        s.rows?.length ? table(s.rows) : '',
      ].join(''),
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(p.title)}</title><style>${STYLE}</style></head><body><h1>${esc(p.title)}</h1><p class="lead">${esc(p.lead)}</p>\n${sections}\n</body></html>`;
}
