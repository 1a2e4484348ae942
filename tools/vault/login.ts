// vault_login and vault_logout (spec: MCP-only verbs) for hosts that can send neither a header nor do OAuth. On a
// lasting connection (a 2025-era session, stdio) the login binds it: later calls act as the agent until logout or
// the connection ends. On the stateless 2026-07-28 era there is nothing to bind, so the answer is a short-lived,
// revocable handle the identity-bearing tools take as their `login` argument. Either way the gateway keeps only
// the handle's hash and the agent's vault key sealed under the handle: the secret is checked, never stored.
import { z } from 'zod';
import { hashSecret, LOGIN_PREFIX, newSecret } from '../../src/auth/secrets.js';
import { GatewayError, validationError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { insertLogin, revokeLogin } from '../../src/store/vault-logins.js';
import { newSalt, vaultKey } from './crypto.js';
import { sealVaultKey } from './login-key.js';
import * as store from './store.js';

/** Why a login was refused: the same words whether the handle exists or not. */
const REFUSED = 'The handle or the secret is wrong.';

const signInUrl = (baseUrl: string) => `${baseUrl}/mcp/agent`;

export const vaultLogin = defineTool({
  name: 'vault_login',
  secretFields: { input: ['secret'], output: ['login'] },
  title: 'Sign in with the agent secret',
  toolset: 'verbs',
  description:
    'For hosts that can neither send Authorization: Bearer nor sign in with OAuth. Checks the handle and secret (never ' +
    'echoed or kept). On a lasting connection (a 2025-era session, stdio) it binds the connection: later calls act as ' +
    'the agent, vault tools included, until vault_logout. On the stateless 2026-07-28 era it returns `login`, a ' +
    'short-lived handle to pass as the `login` argument of memory, coach and the vault tools. OAuth sign-in at ' +
    '/mcp/agent is the better way when the host supports it.',
  input: z.object({
    handle: z.string().trim().min(1).max(64).describe('Your handle.'),
    secret: z.string().min(1).max(512).describe('Your agent secret (checked, never stored or echoed).'),
  }),
  output: z.object({
    handle: z.string(),
    bound: z.boolean().describe('True when this connection now acts as the agent (a session or stdio).'),
    login: z.string().nullable().describe('The handle to pass as `login` (stateless era); null when the connection is bound.'),
    expires_at: z.string(),
    sign_in: z.string().describe('Where OAuth sign-in is offered instead (no secret in the conversation).'),
    note: z.string(),
  }),
  auth: 'public',
  secretInBody: true,
  expose: { mcpOnly: true },
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (input, ctx) => {
    const agent = await ctx.services.resolveAgent(input.secret);
    if (!agent || agent.handle !== input.handle.replace(/^@/, '').toLowerCase()) throw new GatewayError('unauthorized', REFUSED);
    const now = ctx.clock.now();
    const login = newSecret(LOGIN_PREFIX);
    const expiresAt = now + ctx.config.vaultLoginTtlMs;
    const sealed = sealVaultKey(login, agent.id, vaultKey(input.secret, await store.saltOf(ctx.db, agent.id, newSalt, now)));
    await insertLogin(ctx.db, { idHash: hashSecret(login), agentId: agent.id, createdAt: now, expiresAt, keyNonce: sealed.nonce, sealedKey: sealed.ciphertext });
    const bound = ctx.session !== undefined;
    if (ctx.session) ctx.session.login = login;
    return {
      handle: agent.handle,
      bound,
      login: bound ? null : login,
      expires_at: new Date(expiresAt).toISOString(),
      sign_in: signInUrl(ctx.config.baseUrl),
      note: bound
        ? `This connection now acts as @${agent.handle} until vault_logout, the connection's end or ${new Date(expiresAt).toISOString()}.`
        : 'No session to bind on this protocol revision: pass `login` to memory, coach and the vault tools; vault_logout revokes it.',
    };
  },
});

export const vaultLogout = defineTool({
  name: 'vault_logout',
  title: 'Sign out of vault_login',
  toolset: 'verbs',
  description: 'Revokes a vault_login handle (the `login` given, or the one this connection is bound to) and unbinds the connection.',
  input: z.object({ login: z.string().min(1).max(200).optional().describe('The handle to revoke; default: the one bound to this connection.') }),
  output: z.object({ logged_out: z.boolean(), revoked: z.boolean().describe('False when the handle had already expired or been revoked.') }),
  auth: 'public',
  expose: { mcpOnly: true },
  annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (input, ctx) => {
    const login = input.login ?? ctx.session?.login;
    if (!login) throw validationError([{ loc: ['login'], msg: 'Nothing to log out: pass the `login` handle, or call this on the connection vault_login bound.', type: 'missing' }]);
    // Holding the handle is the right to revoke it: it is a credential of its own.
    const revoked = await revokeLogin(ctx.db, hashSecret(login), ctx.clock.now());
    if (ctx.session?.login === login) delete ctx.session.login;
    return { logged_out: true, revoked };
  },
});
