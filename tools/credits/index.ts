// Agent credits: the owner reads its balance and ledger; the operator grants credits. Credits are spent by
// calling paid tools with only the Bearer secret (src/billing/credits.ts). 1 credit = US$0.000001.
import { z } from 'zod';
import { numberInput } from '../../src/registry/number-input.js';
import { requireOperator } from '../../src/auth/operator.js';
import { CREDIT_HEADERS, CREDIT_UNIT, creditsToUsd } from '../../src/billing/credits.js';
import { MAX_PRODUCT_CREDITS } from '../../src/billing/entitlements/config.js';
import { GatewayError, validationError } from '../../src/errors.js';
import { creditAccount } from '../../src/store/accounts.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { balanceOf, grantCredits, ledgerOf, type LedgerRow } from '../../src/store/credits.js';
import { HandleRef } from '../identity/handles.js';
import { agentByHandle } from '../identity/store.js';

const UNIT_NOTE = `1 credit = $${creditsToUsd(1)} (integer micro-dollars): a $0.001 tool costs 1000 credits.`;

const entry = (r: LedgerRow) => ({
  id: r.id,
  kind: r.kind,
  amount: r.amount,
  balance_after: r.balance_after,
  reason: r.reason,
  reference: r.reference,
  at: new Date(r.created_at).toISOString(),
});

export const creditsBalance = defineTool({
  name: 'credits_balance',
  title: 'Credit balance',
  toolset: 'credits',
  description:
    `The calling agent's credit balance and its latest ledger entries. ${UNIT_NOTE} Paid tools called with only ` +
    `the Bearer secret (no API key, no x402 payment) are paid from it; the response says ${CREDIT_HEADERS.charged} and ${CREDIT_HEADERS.balance}. Owner only.`,
  input: z.object({ handle: HandleRef }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const id = ctx.caller.agent!.id;
    const [balance, recent] = await Promise.all([balanceOf(ctx.db, id), ledgerOf(ctx.db, id, 10)]);
    return { handle: input.handle, balance, usd: creditsToUsd(balance), unit: CREDIT_UNIT, recent: recent.map(entry) };
  },
});

export const creditsLedger = defineTool({
  name: 'credits_ledger',
  title: 'Credit ledger',
  toolset: 'credits',
  description:
    'The append-only credit ledger of the calling agent, newest first: grants (store entitlements, operator), ' +
    'spends (paid tool calls) and refunds (failed calls), each with its reason, reference and the balance after it. ' +
    'Page with `before` = the last id seen. Owner only.',
  input: z.object({
    handle: HandleRef,
    limit: numberInput(z.number().int().min(1).max(200)).default(50),
    before: numberInput(z.number().int().positive()).optional().describe('Return entries older than this ledger id.'),
  }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const rows = await ledgerOf(ctx.db, ctx.caller.agent!.id, input.limit, input.before);
    const next = rows.length === input.limit ? rows[rows.length - 1].id : null;
    return { handle: input.handle, entries: rows.map(entry), next_before: next, unit: CREDIT_UNIT };
  },
});

export const creditsGrant = defineTool({
  name: 'credits_grant',
  title: 'Grant credits (operator)',
  toolset: 'credits',
  description:
    `Operator only (X-Operator-Token): adds credits to an agent (handle), or to a commercial account's prepaid balance ` +
    `(email: invoices paid by transfer, promotions), recorded in its ledger with the reason. ${UNIT_NOTE}`,
  input: z.object({
    handle: HandleRef.optional().describe('The agent to credit.'),
    email: z.email().max(254).optional().describe('Instead of handle: the commercial account (POST /signup at the commercial API) to credit.'),
    amount: z.number().int().positive().max(MAX_PRODUCT_CREDITS).describe('Credits to add (1 credit = $0.000001).'),
    reason: z.string().trim().min(1).max(200).describe('Why, kept in the ledger.'),
    reference: z.string().trim().min(1).max(200).optional().describe('An external reference (ticket, invoice), kept in the ledger.'),
  }),
  auth: 'public',
  annotations: { destructiveHint: false, idempotentHint: false },
  handler: async (input, ctx) => {
    requireOperator(ctx.config, ctx.caller.credentials.operatorToken);
    if ((input.handle === undefined) === (input.email === undefined)) {
      throw validationError([{ loc: ['handle'], msg: 'Name exactly one of handle (an agent) and email (a commercial account).', type: 'missing' }]);
    }
    const reason = `operator: ${input.reason}`;
    const reference = input.reference ?? null;
    if (input.email !== undefined) {
      const credited = await creditAccount(ctx.db, { email: input.email.toLowerCase(), amount: input.amount, reason, reference, now: ctx.clock.now() });
      if (credited === undefined) throw new GatewayError('not_found', 'No commercial account has this email.');
      if (credited === null) throw new GatewayError('conflict', 'This grant would take the balance past its maximum.');
      return { email: input.email.toLowerCase(), granted: input.amount, balance: credited, usd: creditsToUsd(credited), unit: CREDIT_UNIT };
    }
    const agent = await agentByHandle(ctx.db, input.handle!);
    if (!agent) throw new GatewayError('not_found', `No agent has the handle "${input.handle}".`);
    const moved = await grantCredits(ctx.db, { agentId: agent.id, amount: input.amount, reason, reference, now: ctx.clock.now() });
    if (!moved) throw new GatewayError('conflict', 'This grant would take the balance past its maximum.');
    return { handle: agent.handle, granted: input.amount, balance: moved.balance, usd: creditsToUsd(moved.balance), unit: CREDIT_UNIT, ledger_id: moved.ledgerId };
  },
});

export const creditTools = [creditsBalance, creditsLedger, creditsGrant];
