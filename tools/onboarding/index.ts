// Onboarding: GET /connect (free key, MCP config, pay per call) and GET /agent-economics (what is free,
// what costs, how paying works). JSON by default, HTML for browsers; every value comes from config and
// the registry, never written twice.
import { z } from 'zod';
import { TIER_QUOTA, TOOL_QUOTA } from '../../src/billing/tiers.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import { BATCH_MAX } from '../access/batch.js';
import { priceOf } from '../access/catalog.js';
import { FREE_KEYS_PER_EMAIL } from '../access/keys.js';
import { home } from './home.js';

function prices(ctx: ToolContext) {
  return ctx.services
    .listTools()
    .filter((t) => t.price)
    .map((t) => ({ tool: t.name, usd: t.price!.usd, amount: priceOf(t, ctx)!.amount }));
}

function payPerCall(ctx: ToolContext) {
  const p = ctx.services.payments;
  return {
    protocol: 'x402 v2 (exact scheme, EIP-3009 transferWithAuthorization)',
    network: p.network,
    asset: p.asset,
    asset_name: p.assetName,
    decimals: p.decimals,
    pay_to: p.payTo,
    header: 'PAYMENT-SIGNATURE',
    legacy_header: 'X-PAYMENT',
    receipt_header: 'PAYMENT-RESPONSE',
    discovery: `${ctx.config.baseUrl}/.well-known/x402`,
    settlement: 'The gateway settles on-chain from its own wallet; no third-party facilitator. Failed calls are never charged.',
  };
}

function tiers() {
  return (Object.keys(TIER_QUOTA) as (keyof typeof TIER_QUOTA)[]).map((tier) => ({
    tier,
    monthly_calls: tier === 'enterprise' ? 'unlimited' : TIER_QUOTA[tier],
    per_tool: Object.entries(TOOL_QUOTA)
      .filter(([, q]) => q[tier] !== undefined)
      .map(([tool, q]) => `${tool}: ${q[tier]}/month`)
      .join(', '),
    how: tier === 'free' ? 'POST /keys/issue, no signup' : 'operator token or store entitlement',
  }));
}

function mcpConfig(ctx: ToolContext) {
  const base = ctx.config.baseUrl;
  return {
    stdio: { command: 'npx', args: ['agent-gateway', 'mcp'], env: { AGENT_SECRET: '<your agent secret>', GATEWAY_API_KEY: '<optional API key>' } },
    streamable_http: { type: 'http', url: `${base}/mcp`, headers: { Authorization: 'Bearer <your agent secret>', 'X-API-Key': '<optional API key>' } },
    legacy_sse: `${base}/mcp/sse`,
  };
}

export const connect = defineTool({
  name: 'connect',
  title: 'Connect',
  toolset: 'onboarding',
  description: 'How to connect: a free API key, MCP configuration for stdio and HTTP, and how pay-per-call works.',
  input: z.object({}),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: (_input, ctx) => {
    const base = ctx.config.baseUrl;
    return {
      title: 'Connect to Agent Gateway',
      register: { request: `POST ${base}/agents/register`, body: { handle: 'your-name' }, note: 'The secret is returned once; send it as Authorization: Bearer.' },
      free_key: {
        request: `POST ${base}/keys/issue`,
        body: { email: 'you@example.com', tier: 'free' },
        monthly_quota: TIER_QUOTA.free,
        keys_per_email: FREE_KEYS_PER_EMAIL,
        header: 'X-API-Key',
      },
      mcp: mcpConfig(ctx),
      pay_per_call: payPerCall(ctx),
      tiers: tiers(),
      prices: prices(ctx),
      limits: { batch_max_calls: BATCH_MAX, quota_period: 'UTC calendar month' },
      links: { tools: `${base}/tools`, openapi: `${base}/openapi.json`, economics: `${base}/agent-economics` },
    };
  },
});

export const agentEconomics = defineTool({
  name: 'agent_economics',
  title: 'Agent economics',
  toolset: 'onboarding',
  description: 'Orientation: what is free, what costs and how much, how keys, quotas, x402 and credits work.',
  input: z.object({}),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: (_input, ctx) => ({
    title: 'Agent economics',
    free: ['identity', 'durable self and resume', 'memory', 'messenger and mail', 'the wall', 'likes', 'follows', 'browsing the exchange', 'toolbelt utilities'],
    paid: 'Calculators and other paid tools: covered by an API key quota, or paid per call with x402 above it. Credits pay only for attached extras.',
    tiers: tiers(),
    prices: prices(ctx),
    pay_per_call: payPerCall(ctx),
    credits: 'Agents hold credits from entitlements and operator grants, never from invites. Invites earn a reputation badge.',
    rules: [
      'A call with neither a valid key nor a payment gets HTTP 402 with the x402 v2 challenge.',
      'A key whose quota is spent gets the same 402: pay per call above quota.',
      `Each call in a /batch (at most ${BATCH_MAX}) costs one unit of quota.`,
      'Failed calls are not charged; x402 payments are settled only after the tool succeeds.',
    ],
  }),
});

export const onboardingTools = [connect, agentEconomics, home];
