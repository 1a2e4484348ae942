// The operator console: a small server-rendered page where a person clears parked handoffs. It signs in
// with GATEWAY_OPERATOR_TOKEN (kept in an HttpOnly, SameSite=Strict cookie scoped to /operator) and calls
// the same registry tools as the operator API; no scripts, forms only.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isOperator } from '../auth/operator.js';
import type { Config } from '../config.js';
import { GatewayError } from '../errors.js';
import type { Registry } from '../registry/registry.js';
import { credentialsOf } from './credentials.js';
import { readBody } from './read-body.js';
import type { Router } from './router.js';

const COOKIE = 'gw_operator';
const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:56rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
.card{border:1px solid #dde;border-radius:6px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap;background:#f3f4f8;padding:.6rem;border-radius:4px}
textarea,input[type=text],input[type=password]{width:100%;box-sizing:border-box;font:inherit;margin:.3rem 0}button{font:inherit;padding:.3rem .9rem;margin-right:.5rem}`;

function page(res: ServerResponse, status: number, title: string, body: string): void {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>${STYLE}</style></head><body><h1>${esc(title)}</h1>${body}</body></html>`;
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' });
  res.end(html);
}

const redirect = (res: ServerResponse, to: string, cookie?: string) => {
  res.writeHead(303, { Location: to, ...(cookie ? { 'Set-Cookie': cookie } : {}) });
  res.end();
};

function cookieToken(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams((await readBody(req, 64 * 1024)) ?? '');
}

/** A browser form from another site must not act with the operator's cookie. */
function sameOrigin(req: IncomingMessage, config: Config): boolean {
  const origin = req.headers.origin;
  return !origin || origin === new URL(config.baseUrl).origin || origin === `http://${req.headers.host}`;
}

export function mountOperatorConsole(router: Router, registry: Registry, config: Config): void {
  const secure = config.baseUrl.startsWith('https:') ? '; Secure' : '';
  const creds = (req: IncomingMessage) => ({ ...credentialsOf(req, 'rest', config.trustProxy), operatorToken: cookieToken(req) });

  router.add('GET', '/operator', async (req, res) => {
    if (!config.operatorToken) return page(res, 503, 'Operator console', '<p>No operator is configured: set GATEWAY_OPERATOR_TOKEN.</p>');
    if (!isOperator(config, cookieToken(req))) {
      return page(res, 200, 'Operator sign-in', '<form method="post" action="/operator/login"><label>Operator token <input type="password" name="token" autocomplete="current-password" required></label><button type="submit">Sign in</button></form>');
    }
    const out = await registry.call('handoffs_parked', { limit: 200 }, creds(req));
    const list = (out.result as { handoffs: { handoff_id: string; task: string; context: unknown; created_at: string; expires_at: string }[] }).handoffs;
    const cards = list
      .map(
        (h) => `<div class="card" data-handoff="${esc(h.handoff_id)}"><h2>${esc(h.task.slice(0, 120))}</h2><pre>${esc(h.task)}</pre>${h.context === null ? '' : `<pre>${esc(JSON.stringify(h.context, null, 2))}</pre>`}<p>Parked ${esc(h.created_at)}, expires ${esc(h.expires_at)}</p>
<form method="post" action="/operator/console/${esc(h.handoff_id)}/complete"><label>Result <textarea name="result" rows="3" required></textarea></label><button type="submit">Complete</button></form>
<form method="post" action="/operator/console/${esc(h.handoff_id)}/reject"><label>Reason <input type="text" name="reason" required></label><button type="submit">Reject</button></form></div>`,
      )
      .join('');
    page(res, 200, 'Parked handoffs', `<p>${list.length} waiting.</p>${cards}<form method="post" action="/operator/logout"><button type="submit">Sign out</button></form>`);
  });

  router.add('POST', '/operator/login', async (req, res) => {
    const token = (await form(req)).get('token') ?? '';
    if (!sameOrigin(req, config) || !isOperator(config, token)) return page(res, 403, 'Operator sign-in', '<p>That token is not valid. <a href="/operator">Try again</a>.</p>');
    redirect(res, '/operator', `${COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/operator${secure}`);
  });

  router.add('POST', '/operator/logout', async (_req, res) => redirect(res, '/operator', `${COOKIE}=; HttpOnly; SameSite=Strict; Path=/operator; Max-Age=0${secure}`));

  for (const action of ['complete', 'reject'] as const) {
    router.add('POST', `/operator/console/{id}/${action}`, async (req, res, m) => {
      if (!sameOrigin(req, config)) return page(res, 403, 'Refused', '<p>Cross-site form refused.</p>');
      const f = await form(req);
      const input = action === 'complete' ? { handoff_id: m.params.id, result: f.get('result') ?? '' } : { handoff_id: m.params.id, reason: f.get('reason') ?? '' };
      try {
        await registry.call(`handoff_${action}`, input, creds(req));
        redirect(res, '/operator');
      } catch (err) {
        const ge = err instanceof GatewayError ? err : new GatewayError('internal_error');
        page(res, ge.status, 'Not done', `<p>${esc(ge.message)}</p><p><a href="/operator">Back to the console</a></p>`);
      }
    });
  }
}
