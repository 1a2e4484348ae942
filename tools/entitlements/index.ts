// Store entitlements: POST /v1/entitlements/appstore verifies an App Store signed transaction and grants the
// product's tier (a new API key) or credits to the authenticated handle, once per purchase.
import { z } from 'zod';
import { numberInput } from '../../src/registry/number-input.js';
import { APPSTORE, checkTransaction, verifySignedTransaction } from '../../src/billing/entitlements/appstore.js';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { AgentRef, ToolContext } from '../../src/registry/types.js';
import { HandleRef } from '../identity/handles.js';
import { describeGrant, redeem } from './grant.js';
import * as store from './store.js';

const WWW_AUTHENTICATE = { 'WWW-Authenticate': 'Bearer realm="agent-gateway"' };

/**
 * The acting agent: the Bearer secret, or the `secret` field (this route alone accepts a secret in the body,
 * as the spec says). Both given must name the same agent, and it must be the named handle.
 */
async function authenticate(ctx: ToolContext, handle: string, secret: string | undefined): Promise<AgentRef> {
  let agent = ctx.caller.agent;
  if (secret !== undefined) {
    const bySecret = await ctx.services.resolveAgent(secret);
    if (!bySecret) throw new GatewayError('forbidden', 'The secret is not valid.');
    if (agent && agent.id !== bySecret.id) throw new GatewayError('forbidden', 'The Bearer secret and the body secret belong to different agents.');
    agent = bySecret;
  }
  if (!agent) {
    throw new GatewayError('unauthorized', 'Send the agent secret as Authorization: Bearer <secret> or in the body as `secret`.', {
      headers: WWW_AUTHENTICATE,
    });
  }
  if (agent.handle !== handle) throw new GatewayError('forbidden', `These credentials belong to another handle than "${handle}".`);
  return agent;
}

export const entitlementAppstore = defineTool({
  name: 'entitlement_appstore',
  secretFields: { input: ['secret'], output: ['key'] },
  title: 'Redeem an App Store purchase',
  toolset: 'entitlements',
  description:
    'Verifies an App Store signed transaction (the JWS from StoreKit 2 / the App Store Server API, x5c chain up to ' +
    "Apple's root) and grants the product to the handle: a pro or enterprise API key (returned once) or credits " +
    '(1 credit = $0.000001). Checks bundle id, environment, product and expiry. A purchase grants once: a replay ' +
    'returns the same grant. Authenticate with Authorization: Bearer or the `secret` field.',
  input: z.object({
    handle: HandleRef.describe('The handle that receives the entitlement.'),
    secret: z.string().min(8).max(512).optional().describe("That agent's secret, if not sent as Authorization: Bearer."),
    signed_transaction: z.string().min(1).max(65_536).describe('The signed transaction (compact JWS, JWSTransactionDecodedPayload).'),
  }),
  secretInBody: true,
  auth: 'optional_owner',
  annotations: { destructiveHint: false, idempotentHint: true },
  handler: async (input, ctx) => {
    // Credentials first: a caller without them is told to sign in, whatever this gateway offers.
    const agent = await authenticate(ctx, input.handle, input.secret);
    const { appstore, products } = ctx.config.entitlements;
    if (!appstore) throw new GatewayError('unavailable', 'App Store entitlements are not configured on this gateway.');
    const now = ctx.clock.now();
    const t = await verifySignedTransaction(input.signed_transaction, { rootCerts: appstore.rootCerts, now });
    const granted = checkTransaction(t, { appstore, products, now });
    return redeem(ctx, agent, APPSTORE, t, granted);
  },
});

export const entitlementsList = defineTool({
  name: 'entitlements_list',
  title: 'Entitlements of an agent',
  toolset: 'entitlements',
  description: 'The store purchases redeemed by the calling agent and what each granted (keys by hint only). Owner only.',
  input: z.object({
    handle: HandleRef,
    limit: numberInput(z.number().int().min(1).max(200)).default(50),
  }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const now = ctx.clock.now();
    const rows = await store.grantsOf(ctx.db, ctx.caller.agent!.id, input.limit);
    return { handle: input.handle, entitlements: rows.map((g) => describeGrant(g, now)), count: rows.length };
  },
});

export const entitlementTools = [entitlementAppstore, entitlementsList];
