// The sign-in and consent pages of the authorization server: server-rendered HTML in the operator console's
// style, forms only, no scripts. Every form carries the interaction's CSRF token.
import type { ServerResponse } from 'node:http';
import { SCOPE_TEXT, type OAuthScope } from '../../auth/oauth-scopes.js';

export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
.card{border:1px solid #dde;border-radius:6px;padding:1rem;margin:1rem 0}.err{color:#a4161a;font-weight:600}code,pre{background:#f3f4f8;padding:.1rem .3rem;border-radius:4px;word-break:break-all}
input[type=text],input[type=password]{width:100%;box-sizing:border-box;font:inherit;margin:.3rem 0}button{font:inherit;padding:.3rem .9rem;margin-right:.5rem}`;

/** The client as the pages show it: what it says about itself, and its id (a URL for metadata documents). */
export interface ClientView {
  id: string;
  name?: string;
  uri?: string;
}

export function sendPage(res: ServerResponse, status: number, html: string, formTargets: string[] = []): void {
  // A form's redirect lands on the client's redirect URI, which form-action must allow too.
  const formAction = ["'self'", ...new Set(formTargets)].join(' ');
  const csp = `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action ${formAction}; base-uri 'none'; frame-ancestors 'none'`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    // same-origin, not no-referrer: with no-referrer the browser posts the forms with `Origin: null`.
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  });
  res.end(html);
}

export const document = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(title)}</title><style>${STYLE}</style></head><body><h1>${esc(title)}</h1>${body}</body></html>`;

const clientLine = (c: ClientView): string => {
  const name = esc(c.name ?? c.id);
  const link = c.uri && /^https?:\/\//.test(c.uri) ? ` (<a href="${esc(c.uri)}" rel="noreferrer">${esc(c.uri)}</a>)` : '';
  return `<p><strong data-client-name>${name}</strong>${link} asks to use this gateway as your agent.</p><p>Client id: <code data-client-id>${esc(c.id)}</code></p>`;
};

const scopeList = (scopes: OAuthScope[]): string =>
  scopes.length === 0
    ? '<p>It asks for no permissions.</p>'
    : `<p>It asks to:</p><ul data-scopes>${scopes.map((s) => `<li data-scope="${s}"><strong>${s}</strong>: ${esc(SCOPE_TEXT[s])}</li>`).join('')}</ul>`;

const hidden = (csrf: string): string => `<input type="hidden" name="csrf" value="${esc(csrf)}">`;

export function signInPage(o: { uid: string; csrf: string; client: ClientView; scopes: OAuthScope[]; error?: string; handle?: string }): string {
  const base = `/oauth/interaction/${encodeURIComponent(o.uid)}`;
  return document(
    'Sign in as your agent',
    `${clientLine(o.client)}${scopeList(o.scopes)}${o.error ? `<p class="err" role="alert" data-error>${esc(o.error)}</p>` : ''}
<div class="card"><h2>Handle and secret</h2><form method="post" action="${base}/login">${hidden(o.csrf)}
<label>Handle <input type="text" name="handle" autocomplete="username" required value="${esc(o.handle ?? '')}"></label>
<label>Secret <input type="password" name="secret" autocomplete="current-password" required></label>
<button type="submit" name="action" value="login">Sign in</button></form></div>
<div class="card"><h2>New agent</h2><p>Claim a handle here; its secret is shown once, on the next page.</p><form method="post" action="${base}/register">${hidden(o.csrf)}
<label>Handle <input type="text" name="handle" required pattern="[A-Za-z][A-Za-z0-9_-]{1,30}[A-Za-z0-9]"></label>
<button type="submit" name="action" value="register">Register</button></form></div>
<div class="card"><h2>API key</h2><p>A key issued to an agent signs in as that agent.</p><form method="post" action="${base}/key">${hidden(o.csrf)}
<label>API key <input type="password" name="api_key" autocomplete="off" required></label>
<button type="submit" name="action" value="key">Sign in with the key</button></form></div>
<form method="post" action="${base}/consent">${hidden(o.csrf)}<button type="submit" name="decision" value="deny">Cancel</button></form>`,
  );
}

export function secretShownPage(o: { handle: string; secret: string; continueTo: string }): string {
  return document(
    'Your new agent',
    `<p>The handle <strong data-handle>${esc(o.handle)}</strong> is yours. Its secret is shown <strong>once</strong>; keep it now, it cannot be recovered:</p>
<pre data-secret>${esc(o.secret)}</pre><p>With it, the agent can also call the gateway directly (Authorization: Bearer).</p>
<p><a href="${esc(o.continueTo)}" data-continue>Continue</a></p>`,
  );
}

export function consentPage(o: { uid: string; csrf: string; client: ClientView; scopes: OAuthScope[]; handle: string }): string {
  const action = `/oauth/interaction/${encodeURIComponent(o.uid)}/consent`;
  return document(
    'Allow access?',
    `<p>Signed in as <strong data-handle>${esc(o.handle)}</strong>.</p>${clientLine(o.client)}${scopeList(o.scopes)}
<p>You can disconnect it any time (the <code>oauth_clients_list</code> and <code>oauth_client_revoke</code> tools, or <code>GET /connections</code>).</p>
<form method="post" action="${action}">${hidden(o.csrf)}<button type="submit" name="decision" value="approve">Allow</button><button type="submit" name="decision" value="deny">Deny</button></form>`,
  );
}

export const errorPage = (title: string, message: string): string => document(title, `<p class="err" data-error>${esc(message)}</p><p>Go back to the application and start again.</p>`);
