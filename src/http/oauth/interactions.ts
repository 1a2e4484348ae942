// The sign-in and consent steps of the authorization flow (oidc-provider "interactions"): an agent signs in
// with its handle and secret, registers a new handle, or pastes an API key issued to it; then it sees the
// client and the scopes and allows or denies. A wrong secret and an unknown handle get the same answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Provider } from 'oidc-provider';
import { parseScopes, type OAuthScope } from '../../auth/oauth-scopes.js';
import { hashSecret } from '../../auth/secrets.js';
import type { Config } from '../../config.js';
import { GatewayError } from '../../errors.js';
import type { Registry } from '../../registry/registry.js';
import type { Db } from '../../store/db.js';
import { agentById, agentOfKey, recordConsent } from '../../store/oauth.js';
import { credentialsOf } from '../credentials.js';
import { readBody } from '../read-body.js';
import type { Router } from '../router.js';
import { csrfOk, csrfToken, sameOrigin } from './csrf.js';
import { consentPage, errorPage, secretShownPage, sendPage, signInPage, type ClientView } from './pages.js';

export interface InteractionDeps {
  load(): Promise<{ provider: Provider; cookieKey: string }>;
  registry: Registry;
  db: Db;
  config: Config;
}

type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

/** Same words whether the handle exists or not, so the page is no oracle for handles. */
export const WRONG_SIGN_IN = 'That handle and secret do not match. Check both and try again.';

interface Step {
  provider: Provider;
  cookieKey: string;
  details: Details;
  client: ClientView;
  scopes: OAuthScope[];
  /** Origins the page's forms may end up redirecting to (the client's redirect URI). */
  targets: string[];
}

async function step(deps: InteractionDeps, req: IncomingMessage, res: ServerResponse, uid: string): Promise<Step | null> {
  const { provider, cookieKey } = await deps.load();
  let details: Details;
  try {
    details = await provider.interactionDetails(req, res);
  } catch {
    sendPage(res, 400, errorPage('Sign-in expired', 'This sign-in is unknown or has expired (or cookies are blocked).'));
    return null;
  }
  if (details.uid !== uid) {
    sendPage(res, 400, errorPage('Sign-in expired', 'This page does not belong to the sign-in in progress.'));
    return null;
  }
  const clientId = String(details.params.client_id);
  const c = await provider.Client.find(clientId);
  const client: ClientView = { id: clientId, name: c?.clientName, uri: c?.clientUri };
  const missing = (details.prompt.details.missingResourceScopes ?? {}) as Record<string, string[]>;
  const asked = new Set([...String(details.params.scope ?? '').split(' '), ...Object.values(missing).flat()]);
  const redirect = typeof details.params.redirect_uri === 'string' && URL.canParse(details.params.redirect_uri) ? [new URL(details.params.redirect_uri).origin] : [];
  return { provider, cookieKey, details, client, scopes: parseScopes([...asked].join(' ')), targets: redirect };
}

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams((await readBody(req, 16 * 1024)) ?? '');
}

async function show(s: Step, res: ServerResponse, db: Db, status = 200, extra: { error?: string; handle?: string } = {}): Promise<void> {
  const { details, cookieKey, client, scopes } = s;
  const csrf = csrfToken(cookieKey, details.uid);
  if (details.prompt.name === 'consent' && details.session?.accountId) {
    const agent = await agentById(db, details.session.accountId);
    if (agent) return sendPage(res, status, consentPage({ uid: details.uid, csrf, client, scopes, handle: agent.handle }), s.targets);
  }
  sendPage(res, status, signInPage({ uid: details.uid, csrf, client, scopes, ...extra }), s.targets);
}

export function mountInteractions(router: Router, deps: InteractionDeps): void {
  const { registry, db, config } = deps;

  router.add('GET', '/oauth/interaction/{uid}', async (req, res, m) => {
    const s = await step(deps, req, res, m.params.uid);
    if (s) await show(s, res, db);
  });

  /** Runs a form post: checks the interaction, the CSRF token and the origin first. */
  const post = (action: string, fn: (s: Step, f: URLSearchParams, req: IncomingMessage, res: ServerResponse) => Promise<void>) =>
    router.add('POST', `/oauth/interaction/{uid}/${action}`, async (req, res, m) => {
      const f = await form(req);
      const s = await step(deps, req, res, m.params.uid);
      if (!s) return;
      if (!sameOrigin(req, config.baseUrl) || !csrfOk(s.cookieKey, s.details.uid, f.get('csrf'))) {
        return sendPage(res, 403, errorPage('Refused', 'This form did not come from this sign-in page.'));
      }
      await fn(s, f, req, res);
    });

  const signIn = (s: Step, req: IncomingMessage, res: ServerResponse, accountId: string) =>
    s.provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });

  post('login', async (s, f, req, res) => {
    const handle = (f.get('handle') ?? '').trim().toLowerCase();
    const secret = f.get('secret') ?? '';
    // The secret is resolved whatever the handle, so an unknown handle costs the same and reads the same.
    const agent = await registry.services.resolveAgent(secret);
    if (!agent || agent.handle !== handle) return show(s, res, db, 401, { error: WRONG_SIGN_IN, handle });
    await signIn(s, req, res, agent.id);
  });

  post('key', async (s, f, req, res) => {
    const key = (f.get('api_key') ?? '').trim();
    const agent = key.length > 8 && key.length <= 128 ? await agentOfKey(db, hashSecret(key)) : undefined;
    if (!agent) return show(s, res, db, 401, { error: 'That API key is not valid, or it was not issued to an agent. Sign in with the handle and secret instead.' });
    await signIn(s, req, res, agent.id);
  });

  post('register', async (s, f, req, res) => {
    const handle = (f.get('handle') ?? '').trim();
    let out: { handle: string; secret: string };
    try {
      out = (await registry.call('agent_register', { handle }, credentialsOf(req, 'rest', config.trustProxy))).result as typeof out;
    } catch (err) {
      const ge = err instanceof GatewayError ? err : new GatewayError('internal_error');
      const hint = typeof ge.extra.suggestion === 'string' ? ` "${ge.extra.suggestion}" is free.` : '';
      const why = ge.code === 'validation_error' ? 'Handles are 3–32 characters of a-z 0-9 - _, starting with a letter.' : ge.message;
      return show(s, res, db, ge.status, { error: `${why}${hint}` });
    }
    const agent = await registry.services.resolveAgent(out.secret);
    if (!agent) return sendPage(res, 500, errorPage('Not registered', 'The new agent could not be found; try again.'));
    // The result is kept now; the agent continues (to consent) after it has saved its secret.
    const continueTo = await s.provider.interactionResult(req, res, { login: { accountId: agent.id } }, { mergeWithLastSubmission: false });
    sendPage(res, 201, secretShownPage({ handle: out.handle, secret: out.secret, continueTo }));
  });

  post('consent', async (s, f, req, res) => {
    const { provider, details } = s;
    const accountId = details.session?.accountId;
    if (f.get('decision') !== 'approve' || details.prompt.name !== 'consent' || !accountId) {
      return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The agent did not allow access.' }, { mergeWithLastSubmission: false });
    }
    const clientId = String(details.params.client_id);
    const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
    const pd = details.prompt.details;
    if (Array.isArray(pd.missingOIDCScope)) grant.addOIDCScope(pd.missingOIDCScope.join(' '));
    for (const [resource, scopes] of Object.entries((pd.missingResourceScopes ?? {}) as Record<string, string[]>)) grant.addResourceScope(resource, scopes.join(' '));
    const grantId = await grant.save();
    await recordConsent(db, accountId, { grant_id: grantId, client_id: clientId, client_name: s.client.name ?? null, client_uri: s.client.uri ?? null, scope: s.scopes.join(' ') }, Date.now());
    await provider.interactionFinished(req, res, { consent: details.grantId ? {} : { grantId } }, { mergeWithLastSubmission: true });
  });
}
