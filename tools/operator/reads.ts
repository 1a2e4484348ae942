// Operator reads (X-Operator-Token): the overview's aggregates and the console's lists of agents, orders, API keys
// and x402 settlements. The console renders these; the operator API answers them as JSON.
import { z } from 'zod';
import { requireOperator } from '../../src/auth/operator.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { numberInput } from '../../src/registry/number-input.js';
import type { ToolContext } from '../../src/registry/types.js';
import * as lists from '../../src/store/console-lists.js';
import { overview } from '../../src/store/console-overview.js';

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const operatorOnly = (ctx: ToolContext) => requireOperator(ctx.config, ctx.caller.credentials.operatorToken);
const Paging = {
  limit: numberInput(z.number().int().min(1).max(200)).default(50).describe('Rows per page.'),
  offset: numberInput(z.number().int().min(0).max(1_000_000)).default(0).describe('Rows to skip (next_offset of the previous page).'),
};
const nextOffset = (input: { limit: number; offset: number }, page: { more: boolean }) => (page.more ? input.offset + input.limit : null);
const common = { toolset: 'operator', auth: 'public' as const, expose: { mcp: false }, annotations: { readOnlyHint: true } };

export const operatorOverview = defineTool({
  ...common,
  name: 'operator_overview',
  title: 'Business overview (operator)',
  description:
    'Operator only: per day over the last `days` (UTC), agents registered, calls of the five most called tools, revenue by ' +
    'service and rail (micro-dollars), failed webhook deliveries and jobs; orders by state; the ten owners using the most storage.',
  input: z.object({ days: numberInput(z.number().int().min(1).max(366)).default(30).describe('Days up to and including today.') }),
  handler: async (input, ctx) => {
    operatorOnly(ctx);
    return overview(ctx.db, ctx.clock.now(), input.days);
  },
});

export const operatorAgents = defineTool({
  ...common,
  name: 'operator_agents',
  title: 'Agents (operator)',
  description: 'Operator only: agents, newest first, with credits, storage and live API keys; `handle` filters by prefix.',
  input: z.object({ handle: z.string().trim().toLowerCase().max(32).optional().describe('Handle prefix.'), ...Paging }),
  handler: async (input, ctx) => {
    operatorOnly(ctx);
    const page = await lists.listAgents(ctx.db, { handlePrefix: input.handle || undefined, limit: input.limit, offset: input.offset });
    return {
      agents: page.rows.map((a) => ({ handle: a.handle, created_at: iso(Number(a.created_at)), last_seen_at: iso(a.last_seen_at === null ? null : Number(a.last_seen_at)), suspended_at: iso(a.suspended_at === null ? null : Number(a.suspended_at)), credits: Number(a.credits), storage_bytes: Number(a.storage_bytes), api_keys: Number(a.keys) })),
      next_offset: nextOffset(input, page),
    };
  },
});

const ORDER_STATUSES = ['placed', 'working', 'delivered', 'revision_requested', 'accepted', 'failed', 'canceled'] as const;
export const operatorOrders = defineTool({
  ...common,
  name: 'operator_orders',
  title: 'Orders (operator)',
  description: 'Operator only: every account’s orders, newest first; filter by status, rail or service.',
  input: z.object({
    status: z.enum(ORDER_STATUSES).optional(),
    rail: z.enum(['credits', 'x402', 'card']).optional(),
    service: z.string().trim().max(100).optional(),
    ...Paging,
  }),
  handler: async (input, ctx) => {
    operatorOnly(ctx);
    const page = await lists.listOrders(ctx.db, { status: input.status, rail: input.rail, service: input.service || undefined, limit: input.limit, offset: input.offset });
    return {
      orders: page.rows.map((o) => ({
        order_id: o.id,
        email: o.email,
        service: o.service,
        status: o.status,
        rail: o.rail,
        price_micro_usd: Number(o.price),
        payment_state: o.payment_state,
        charged_micro_usd: o.payment_state === 'captured' ? Number(o.charged ?? 0) : 0,
        refunded_micro_usd: Number(o.refunded),
        created_at: iso(Number(o.created_at)),
      })),
      next_offset: nextOffset(input, page),
    };
  },
});

export const operatorKeys = defineTool({
  ...common,
  name: 'operator_keys',
  title: 'API keys (operator)',
  description: 'Operator only: API keys (their hint, never the key), newest first; filter by tier and by active or revoked.',
  input: z.object({ tier: z.enum(['free', 'pro', 'enterprise']).optional(), state: z.enum(['active', 'revoked']).optional(), ...Paging }),
  handler: async (input, ctx) => {
    operatorOnly(ctx);
    const page = await lists.listKeys(ctx.db, { tier: input.tier, state: input.state, limit: input.limit, offset: input.offset });
    return {
      keys: page.rows.map((k) => ({ key_id: k.id, hint: k.hint, tier: k.tier, handle: k.handle, created_at: iso(Number(k.created_at)), revoked_at: iso(k.revoked_at === null ? null : Number(k.revoked_at)) })),
      next_offset: nextOffset(input, page),
    };
  },
});

const X402_STATUSES = ['verified', 'settling', 'settled', 'failed', 'released', 'recovered', 'abandoned'] as const;
export const operatorSettlements = defineTool({
  ...common,
  name: 'operator_x402_settlements',
  title: 'x402 settlements (operator)',
  description: 'Operator only: the x402 wallet’s ledger, newest first (amount in the asset’s atomic units); filter by status or payer address.',
  input: z.object({ status: z.enum(X402_STATUSES).optional(), payer: z.string().trim().regex(/^0x[0-9a-fA-F]{40}$/, 'An address (0x and 40 hex digits).').optional(), ...Paging }),
  handler: async (input, ctx) => {
    operatorOnly(ctx);
    const page = await lists.listSettlements(ctx.db, { status: input.status, payer: input.payer, limit: input.limit, offset: input.offset });
    return {
      settlements: page.rows.map((p) => ({ id: p.id, network: p.network, payer: p.payer, amount: p.amount, tool: p.tool, status: p.status, tx_hash: p.tx_hash, created_at: iso(Number(p.created_at)), updated_at: iso(Number(p.updated_at)) })),
      next_offset: nextOffset(input, page),
    };
  },
});

export const operatorReadTools = [operatorOverview, operatorAgents, operatorOrders, operatorKeys, operatorSettlements];
