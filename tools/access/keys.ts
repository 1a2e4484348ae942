// API keys without signup: POST /keys/issue gives a free key at once (shown once); GET /keys/usage reads it.
import { z } from 'zod';
import { isOperator } from '../../src/auth/operator.js';
import { TIER_QUOTA, TOOL_QUOTA, isUnlimited, type Tier } from '../../src/billing/tiers.js';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';

/** Free keys one email address may hold (keys per client address per day: GATEWAY_KEYS_PER_CLIENT_PER_DAY). */
export const FREE_KEYS_PER_EMAIL = 3;

const emailFull = () => new GatewayError('conflict', `This email already holds ${FREE_KEYS_PER_EMAIL} free keys; use one of them.`);
const clientFull = (perDay: number) =>
  new GatewayError('rate_limited', `At most ${perDay} keys per client per day; retry tomorrow.`, { headers: { 'Retry-After': '86400' } });

export const keysIssue = defineTool({
  name: 'keys_issue',
  secretFields: { output: ['key'] },
  title: 'Issue an API key',
  toolset: 'access',
  description:
    'Issues an API key (prefix agk_live_) shown ONCE; send it as X-API-Key. Tier free (10,000 calls/month) is ' +
    `issued at once without signup (at most ${FREE_KEYS_PER_EMAIL} per email). Tiers pro (25,000/month) and ` +
    'enterprise (unlimited) need an operator token (X-Operator-Token) or a store entitlement.',
  input: z.object({
    email: z.email().max(254).describe('Contact email; only a keyed hash of it is stored.'),
    tier: z.enum(['free', 'pro', 'enterprise']).default('free').describe('free, pro or enterprise.'),
  }),
  auth: 'optional_owner',
  annotations: { destructiveHint: false, idempotentHint: false },
  handler: async (input, ctx) => {
    const tier = input.tier as Tier;
    const creds = ctx.caller.credentials;
    if (tier !== 'free' && !isOperator(ctx.config, creds.operatorToken)) {
      throw new GatewayError(
        'forbidden',
        `A ${tier} key needs an operator token (X-Operator-Token) or a store entitlement (POST /v1/entitlements/appstore). Free keys need neither.`,
      );
    }
    const emailHash = ctx.services.clientKey(`email:${input.email.toLowerCase()}`);
    const clientHash = ctx.services.clientKey(creds.ip);
    const perDay = ctx.config.keysPerClientPerDay;
    // Counted and inserted in one locked step, so concurrent issues cannot all pass the counts (docs/decisions/limits.md).
    const issued = await ctx.services.keys.issueWithin(
      { tier, emailHash, clientHash, agentId: ctx.caller.agent?.id ?? null },
      { freePerEmail: FREE_KEYS_PER_EMAIL, perClient: { limit: perDay, since: ctx.clock.now() - 24 * 3600 * 1000 } },
    );
    if ('refused' in issued) throw issued.refused === 'email' ? emailFull() : clientFull(perDay);
    return {
      key: issued.key,
      tier,
      hint: issued.hint,
      monthly_quota: isUnlimited(tier) ? null : TIER_QUOTA[tier],
      per_tool_quota: Object.fromEntries(Object.entries(TOOL_QUOTA).flatMap(([t, q]) => (q[tier] ? [[t, q[tier]]] : []))),
      notice: 'Store the key now: it is shown only once. Send it as X-API-Key; never put it in a URL.',
      usage: `GET ${ctx.config.baseUrl}/keys/usage with X-API-Key`,
    };
  },
});

export const keysUsage = defineTool({
  name: 'keys_usage',
  title: 'API key usage',
  toolset: 'access',
  description: "The calling key's tier, calls used this UTC month, quota, remaining calls and reset time (send X-API-Key).",
  input: z.object({}),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (_input, ctx) => {
    const presented = ctx.caller.credentials.apiKey;
    if (!presented) throw new GatewayError('unauthorized', 'Send the key in the X-API-Key header.');
    const key = await ctx.services.keys.resolve(presented);
    if (!key) throw new GatewayError('forbidden', 'The API key is not valid.');
    return { key: key.hint, ...(await ctx.services.billing.quota.usage(key)) };
  },
});
