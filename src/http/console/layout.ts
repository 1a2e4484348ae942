// The console's page frame: escaping, the content security policy (no scripts; inline SVG and styles only), the
// navigation and the answer helpers every console page uses.
import type { ServerResponse } from 'node:http';

export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** No script runs; inline SVG needs nothing beyond inline styles (Vega writes a few style attributes). */
export const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;max-width:80rem;margin:1.5rem auto;padding:0 1rem;color:#1d2330}
nav{display:flex;gap:1rem;align-items:center;border-bottom:1px solid #dde;padding-bottom:.6rem;margin-bottom:1rem}nav a{color:#2747b8;text-decoration:none}nav a[aria-current]{font-weight:600;color:#1d2330}
nav form{margin-left:auto}.card{border:1px solid #dde;border-radius:6px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap;background:#f3f4f8;padding:.6rem;border-radius:4px}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(36rem,1fr));gap:1rem}figure.chart{margin:0;border:1px solid #dde;border-radius:6px;padding:.8rem;display:flex;gap:1rem;flex-wrap:wrap;align-items:flex-start}
figure.chart figcaption{width:100%;font-weight:600}figure.chart .numbers{max-height:14rem;overflow:auto;font-size:12px}
table{border-collapse:collapse}th,td{padding:.2rem .5rem;border-bottom:1px solid #eef;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
.filters{display:flex;gap:.6rem;align-items:end;flex-wrap:wrap;margin:.5rem 0 1rem}.filters label{display:flex;flex-direction:column;font-size:12px}
td form{display:inline-flex;gap:.3rem;margin:0 .3rem 0 0}input,select,button,textarea{font:inherit}.pager{display:flex;gap:1rem;margin:1rem 0}
textarea,.wide{width:100%;box-sizing:border-box;margin:.3rem 0}button{padding:.2rem .7rem}.empty{color:#667}`;

export type Section = 'overview' | 'agents' | 'orders' | 'handoffs' | 'keys' | 'x402';
const NAV: [Section, string, string][] = [
  ['overview', 'Overview', '/operator'],
  ['agents', 'Agents', '/operator/console/agents'],
  ['orders', 'Orders', '/operator/console/orders'],
  ['handoffs', 'Handoffs', '/operator/console/handoffs'],
  ['keys', 'API keys', '/operator/console/keys'],
  ['x402', 'x402 settlements', '/operator/console/x402'],
];

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store', 'Referrer-Policy': 'same-origin' });
  res.end(html);
}

const frame = (title: string, nav: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · Operator</title><style>${STYLE}</style></head><body>${nav}<h1>${esc(title)}</h1>${body}</body></html>`;

/** A page for someone not signed in (sign-in, refusals): no navigation. */
export const bare = (res: ServerResponse, status: number, title: string, body: string): void => send(res, status, frame(title, '', body));

/** A signed-in page: the navigation (with the sign-out form carrying the form token) above the body. */
export function page(res: ServerResponse, o: { status?: number; title: string; section: Section; formToken: string; body: string }): void {
  const links = NAV.map(([s, label, href]) => `<a href="${href}"${s === o.section ? ' aria-current="page"' : ''}>${label}</a>`).join('');
  const nav = `<nav>${links}<form method="post" action="/operator/logout">${hidden(o.formToken)}<button type="submit">Sign out</button></form></nav>`;
  send(res, o.status ?? 200, frame(o.title, nav, o.body));
}

/** The form token field every POST form carries. */
export const hidden = (formToken: string): string => `<input type="hidden" name="form_token" value="${esc(formToken)}">`;

export function redirect(res: ServerResponse, to: string, cookie?: string): void {
  res.writeHead(303, { Location: to, 'Cache-Control': 'no-store', ...(cookie ? { 'Set-Cookie': cookie } : {}) });
  res.end();
}

export const iso = (s: string | null): string => (s === null ? '—' : s.replace('T', ' ').slice(0, 16));
export const micro = (n: number): string => `$${(n / 1e6).toFixed(2)}`;
