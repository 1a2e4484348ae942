// Operator actions (X-Operator-Token) the console's buttons and the operator API share: revoke an API key, cancel
// or refund an order, suspend or delete an agent. Granting credits is credits_grant; handoffs are handoff_complete/_reject.
import { z } from 'zod';
import { requireOperator } from '../../src/auth/operator.js';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext, WorkerContext } from '../../src/registry/types.js';
import { accountById, addToBalance, hasLedgerRow } from '../../src/store/accounts.js';
import { keyById, revokeKey } from '../../src/store/console-lists.js';
import * as orders from '../../src/store/orders.js';
import { cancel } from '../commercial/settle.js';
import { HandleRef } from '../identity/handles.js';
import { agentWithSuspension, deleteAgent, setSuspended } from '../identity/store.js';

const operatorOnly = (ctx: ToolContext) => requireOperator(ctx.config, ctx.caller.credentials.operatorToken);
const OrderId = z.string().regex(/^ord_[A-Za-z0-9_-]{16}$/, 'An order id (ord_…).').describe('The order id.');
const common = { toolset: 'operator', auth: 'public' as const, expose: { mcp: false } };

async function mustFindOrder(ctx: ToolContext, id: string): Promise<orders.OrderRow> {
  const o = await orders.orderById(ctx.db, id);
  if (!o) throw new GatewayError('not_found', 'No such order.');
  return o;
}

export const operatorKeyRevoke = defineTool({
  ...common,
  name: 'operator_key_revoke',
  title: 'Revoke an API key (operator)',
  description: 'Operator only: revokes an API key for good; calls with it are refused as with an unknown key. Revoking a revoked key changes nothing.',
  input: z.object({ key_id: z.string().regex(/^key_[A-Za-z0-9_-]{4,64}$/, 'A key id (key_…).').describe('The key id (from operator_keys).') }),
  annotations: { destructiveHint: true, idempotentHint: true },
  handler: async (input, ctx) => {
    operatorOnly(ctx);
    const now = ctx.clock.now();
    const key = await keyById(ctx.db, input.key_id);
    if (!key) throw new GatewayError('not_found', 'No such key.');
    if (key.revoked_at === null) await revokeKey(ctx.db, key.id, now);
    ctx.services.keys.forget(key.id);
    const after = (await keyById(ctx.db, key.id))!;
    return { key_id: key.id, hint: key.hint, revoked: true, revoked_at: new Date(Number(after.revoked_at)).toISOString() };
  },
});

export const operatorOrderCancel = defineTool({
  ...common,
  name: 'operator_order_cancel',
  title: 'Cancel an order (operator)',
  description: 'Operator only: cancels an order whose result is not made yet, as its client can; its hold is released and nothing is charged.',
  input: z.object({ order_id: OrderId }),
  annotations: { destructiveHint: true, idempotentHint: true },
  handler: async (input, ctx) => {
    operatorOnly(ctx);
    const o = await mustFindOrder(ctx, input.order_id);
    if (o.status !== 'canceled' && !(await cancel(ctx as WorkerContext, o))) {
      throw new GatewayError('conflict', `The order is ${o.status}; only an order whose result is not made yet can be canceled.`, { extra: { status: o.status } });
    }
    const after = (await orders.orderById(ctx.db, o.id))!;
    return { order_id: o.id, status: after.status, payment_state: after.payment_state };
  },
});

export const operatorOrderRefund = defineTool({
  ...common,
  name: 'operator_order_refund',
  title: 'Refund an order (operator)',
  description:
    'Operator only: gives what a captured order charged back to its account’s prepaid balance (whatever rail paid it: a card or ' +
    'x402 payment is not reversed on its network), recorded in the account ledger with the reason. Once per order.',
  input: z.object({ order_id: OrderId, reason: z.string().trim().min(1).max(200).describe('Why, kept in the ledger.') }),
  annotations: { destructiveHint: false, idempotentHint: true },
  handler: async (input, ctx) => {
    operatorOnly(ctx);
    const o = await mustFindOrder(ctx, input.order_id);
    const amount = o.payment_state === 'captured' ? Number(o.charged ?? 0) : 0;
    if (amount <= 0) throw new GatewayError('conflict', `The order charged nothing (payment ${o.payment_state}); there is nothing to refund.`, { extra: { payment_state: o.payment_state } });
    const reference = `refund:${o.id}`;
    const balance = await ctx.db.transaction(async (tx) => {
      if (await hasLedgerRow(tx, 'credit', reference)) return 'already' as const;
      if (!(await accountById(tx, o.account_id))) throw new GatewayError('not_found', 'The order’s account is gone.');
      return addToBalance(tx, 'credit', { accountId: o.account_id, amount, reason: `operator refund: ${input.reason}`, reference, now: ctx.clock.now() });
    });
    if (balance === 'already') throw new GatewayError('conflict', 'This order was refunded already.');
    if (balance === null) throw new GatewayError('conflict', 'This refund would take the balance past its maximum.');
    return { order_id: o.id, refunded_micro_usd: amount, refunded_to: 'prepaid_balance' as const, balance_micro_usd: balance };
  },
});

export const operatorAgentDelete = defineTool({
  ...common,
  name: 'operator_agent_delete',
  title: 'Delete an agent (operator)',
  description: 'Operator only: deletes an agent and everything that belongs to it, as agent_delete does for its owner. Irreversible.',
  input: z.object({ handle: HandleRef }),
  annotations: { destructiveHint: true, idempotentHint: false },
  handler: async (input, ctx) => {
    operatorOnly(ctx);
    const agent = await mustFindAgent(ctx, input.handle);
    await deleteAgent(ctx.db, agent.id);
    ctx.services.forgetAgent(agent.id);
    return { deleted: true, handle: agent.handle };
  },
});

async function mustFindAgent(ctx: ToolContext, handle: string) {
  const agent = await agentWithSuspension(ctx.db, handle);
  if (!agent) throw new GatewayError('not_found', `No agent has the handle "${handle}".`);
  return agent;
}

/** Suspends (`suspend`) or lifts the suspension of an agent; its cached credentials here are dropped at once. */
const suspension = (suspend: boolean) =>
  defineTool({
    ...common,
    name: suspend ? 'operator_agent_suspend' : 'operator_agent_unsuspend',
    title: suspend ? 'Suspend an agent (operator)' : 'Lift an agent’s suspension (operator)',
    description: suspend
      ? 'Operator only: suspends an agent. Every call with its credentials (secret, OAuth token, vault login, the API keys it issued) is then refused with 403 agent_suspended, and its watches, jobs, timers and webhooks wait; its data is kept. Other gateway processes refuse it within 30 s (their credential caches). Suspending a suspended agent changes nothing.'
      : 'Operator only: lifts an agent’s suspension; its credentials work again and its held work runs. Lifting one that is not suspended changes nothing.',
    input: z.object({ handle: HandleRef }),
    annotations: { destructiveHint: suspend, idempotentHint: true },
    handler: async (input, ctx) => {
      operatorOnly(ctx);
      const agent = await mustFindAgent(ctx, input.handle);
      const since = suspend ? (agent.suspended_at != null ? Number(agent.suspended_at) : ctx.clock.now()) : null;
      await setSuspended(ctx.db, agent.id, since);
      ctx.services.forgetAgent(agent.id);
      return { handle: agent.handle, suspended: suspend, suspended_at: since === null ? null : new Date(since).toISOString() };
    },
  });

export const operatorAgentSuspend = suspension(true);
export const operatorAgentUnsuspend = suspension(false);

export const operatorActionTools = [operatorKeyRevoke, operatorOrderCancel, operatorOrderRefund, operatorAgentSuspend, operatorAgentUnsuspend, operatorAgentDelete];
