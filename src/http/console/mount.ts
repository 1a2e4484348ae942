// The operator console (docs/decisions/operator-console.md): server-rendered pages, no scripts, forms only. Signed in
// with GATEWAY_OPERATOR_TOKEN (session.ts); every read and every action is a registry tool of the operator API, called
// with the session's token, so the console can do nothing the API would refuse.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isOperator } from '../../auth/operator.js';
import type { Config } from '../../config.js';
import { GatewayError } from '../../errors.js';
import type { Registry } from '../../registry/registry.js';
import type { Overview } from '../../store/console-overview.js';
import { credentialsOf } from '../credentials.js';
import type { Router } from '../router.js';
import { handoffsBody, type ParkedAnswer } from './handoffs.js';
import { bare, esc, page, redirect, type Section } from './layout.js';
import { agentsBody, keysBody, ordersBody, settlementsBody, type AgentsAnswer, type KeysAnswer, type OrdersAnswer, type SettlementsAnswer } from './lists.js';
import { overviewBody } from './overview.js';
import { clearCookie, formToken, formTokenValid, newSession, readForm, sameOrigin, sessionCookie, sessionOf, signedIn } from './session.js';

const PAGE_SIZE = 50;
const SIGN_IN = '<form method="post" action="/operator/login"><label>Operator token <input type="password" name="token" autocomplete="current-password" required></label><button type="submit">Sign in</button></form>';

type Action = { tool: string; input: (params: Record<string, string>, f: URLSearchParams) => Record<string, unknown>; back: string; check?: (params: Record<string, string>, f: URLSearchParams) => string | null };

/** Each console form: the path it posts to, the registry tool it calls and the page it returns to. */
const ACTIONS: Record<string, Action> = {
  '/operator/console/{id}/complete': { tool: 'handoff_complete', input: (p, f) => ({ handoff_id: p.id, result: f.get('result') ?? '' }), back: '/operator/console/handoffs' },
  '/operator/console/{id}/reject': { tool: 'handoff_reject', input: (p, f) => ({ handoff_id: p.id, reason: f.get('reason') ?? '' }), back: '/operator/console/handoffs' },
  '/operator/console/agents/{handle}/credits': {
    tool: 'credits_grant',
    input: (p, f) => ({ handle: p.handle, amount: /^\d+$/.test(f.get('amount') ?? '') ? Number(f.get('amount')) : f.get('amount'), reason: f.get('reason') ?? '' }),
    back: '/operator/console/agents',
  },
  '/operator/console/agents/{handle}/suspend': { tool: 'operator_agent_suspend', input: (p) => ({ handle: p.handle }), back: '/operator/console/agents' },
  '/operator/console/agents/{handle}/unsuspend': { tool: 'operator_agent_unsuspend', input: (p) => ({ handle: p.handle }), back: '/operator/console/agents' },
  '/operator/console/agents/{handle}/delete': {
    tool: 'operator_agent_delete',
    input: (p) => ({ handle: p.handle }),
    check: (p, f) => ((f.get('confirm') ?? '').trim().toLowerCase() === p.handle ? null : 'Type the handle to confirm the deletion.'),
    back: '/operator/console/agents',
  },
  '/operator/console/orders/{id}/cancel': { tool: 'operator_order_cancel', input: (p) => ({ order_id: p.id }), back: '/operator/console/orders' },
  '/operator/console/orders/{id}/refund': { tool: 'operator_order_refund', input: (p, f) => ({ order_id: p.id, reason: f.get('reason') ?? '' }), back: '/operator/console/orders' },
  '/operator/console/keys/{id}/revoke': { tool: 'operator_key_revoke', input: (p) => ({ key_id: p.id }), back: '/operator/console/keys' },
};

/** The query's filter fields that are set (empty fields of a submitted filter form mean "any"). */
const setFields = (q: URLSearchParams, names: string[]): Record<string, string> => Object.fromEntries(names.flatMap((n) => (q.get(n) ? [[n, q.get(n)!]] : [])));

export function mountOperatorConsole(router: Router, registry: Registry, config: Config): void {
  const secure = config.baseUrl.startsWith('https:');
  // A live session acts with the operator token; the cookie never holds it.
  const creds = (req: IncomingMessage) => ({ ...credentialsOf(req, 'rest', config.trustProxy), operatorToken: signedIn(req, config) ? config.operatorToken : undefined });

  const failed = (res: ServerResponse, err: unknown, back: string) => {
    const ge = err instanceof GatewayError ? err : new GatewayError('internal_error');
    bare(res, ge.status, 'Not done', `<p>${esc(ge.message)}</p><p><a href="${esc(back)}">Back</a></p>`);
  };

  /** A signed-in GET page: the sign-in form otherwise; the body from the tool's answer. */
  const view = (path: string, section: Section, title: string, body: (req: IncomingMessage, q: URLSearchParams, token: string) => Promise<string>) =>
    router.add('GET', path, async (req, res) => {
      if (!config.operatorToken) return bare(res, 503, 'Operator console', '<p>No operator is configured: set GATEWAY_OPERATOR_TOKEN.</p>');
      if (!signedIn(req, config)) return bare(res, 200, 'Operator sign-in', SIGN_IN);
      const q = new URL(req.url ?? '/', 'http://x').searchParams;
      const token = formToken(config, sessionOf(req)!);
      try {
        page(res, { title, section, formToken: token, body: await body(req, q, token) });
      } catch (err) {
        failed(res, err, path);
      }
    });

  const call = async <T>(req: IncomingMessage, tool: string, input: Record<string, unknown>): Promise<T> => (await registry.call(tool, input, creds(req))).result as T;
  const paging = (q: URLSearchParams) => ({ limit: PAGE_SIZE, offset: q.get('offset') ?? '0' });

  view('/operator', 'overview', 'Overview', async (req, q) => overviewBody(await call<Overview>(req, 'operator_overview', { days: q.get('days') ?? '30' })));
  view('/operator/console/agents', 'agents', 'Agents', async (req, q, t) => agentsBody(await call<AgentsAnswer>(req, 'operator_agents', { ...setFields(q, ['handle']), ...paging(q) }), q, PAGE_SIZE, t));
  view('/operator/console/orders', 'orders', 'Orders', async (req, q, t) => ordersBody(await call<OrdersAnswer>(req, 'operator_orders', { ...setFields(q, ['status', 'rail', 'service']), ...paging(q) }), q, PAGE_SIZE, t));
  view('/operator/console/handoffs', 'handoffs', 'Parked handoffs', async (req, _q, t) => handoffsBody(await call<ParkedAnswer>(req, 'handoffs_parked', { limit: 200 }), t));
  view('/operator/console/keys', 'keys', 'API keys', async (req, q, t) => keysBody(await call<KeysAnswer>(req, 'operator_keys', { ...setFields(q, ['tier', 'state']), ...paging(q) }), q, PAGE_SIZE, t));
  view('/operator/console/x402', 'x402', 'x402 settlements', async (req, q) => settlementsBody(await call<SettlementsAnswer>(req, 'operator_x402_settlements', { ...setFields(q, ['status', 'payer']), ...paging(q) }), q, PAGE_SIZE));

  router.add('POST', '/operator/login', async (req, res) => {
    const token = (await readForm(req)).get('token') ?? '';
    if (!sameOrigin(req, config) || !isOperator(config, token)) {
      return bare(res, 403, 'Operator sign-in', '<p>That token is not valid. <a href="/operator">Try again</a>.</p>');
    }
    // Waiting human work comes first: the sign-in lands on the parked handoffs when any wait.
    const parked = (await registry.call('handoffs_parked', { limit: 1 }, { ...creds(req), operatorToken: token })).result as ParkedAnswer;
    redirect(res, parked.handoffs.length > 0 ? '/operator/console/handoffs' : '/operator', sessionCookie(newSession(config, Date.now()), secure));
  });

  /** Every POST of a signed-in page: same origin, signed in, and the session's form token, or nothing happens. */
  const guarded = async (req: IncomingMessage, res: ServerResponse): Promise<URLSearchParams | null> => {
    if (!sameOrigin(req, config)) return bare(res, 403, 'Refused', '<p>Cross-site form refused.</p>'), null;
    const f = await readForm(req);
    if (!signedIn(req, config)) return bare(res, 401, 'Operator sign-in', SIGN_IN), null;
    if (!formTokenValid(config, sessionOf(req), f.get('form_token'))) return bare(res, 403, 'Refused', '<p>The form token is missing or not valid: reload the page and try again.</p>'), null;
    return f;
  };

  router.add('POST', '/operator/logout', async (req, res) => {
    if (!(await guarded(req, res))) return;
    redirect(res, '/operator', clearCookie(secure));
  });

  for (const [path, action] of Object.entries(ACTIONS)) {
    router.add('POST', path, async (req, res, m) => {
      const f = await guarded(req, res);
      if (!f) return;
      const refusal = action.check?.(m.params, f);
      if (refusal) return bare(res, 422, 'Not done', `<p>${esc(refusal)}</p><p><a href="${action.back}">Back</a></p>`);
      try {
        await registry.call(action.tool, action.input(m.params, f), creds(req));
        redirect(res, action.back);
      } catch (err) {
        failed(res, err, action.back);
      }
    });
  }
}
