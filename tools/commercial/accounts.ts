// Accounts of the commercial group: POST /signup opens one per email with a revenue key shown once; GET /usage
// reads the balance, this month's use per service, open orders and holds; the operator replaces a lost key.
import { z } from 'zod';
import { requireOperator } from '../../src/auth/operator.js';
import { microToUsd } from '../../src/commerce/prices.js';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { accountUsage } from '../../src/store/orders.js';

const DAY_MS = 24 * 3600 * 1000;
const usd = (micro: number) => ({ micro_usd: micro, usd: microToUsd(micro) });

const signupsFull = (perDay: number) =>
  new GatewayError('rate_limited', `At most ${perDay} signups per client address a day; retry tomorrow.`, { headers: { 'Retry-After': '86400' } });
const emailTaken = () =>
  new GatewayError('conflict', 'An account with this email exists already. Use its revenue key; if it is lost, ask the operator to issue a new one (the old one then stops working).', {
    extra: { reason: 'email_taken' },
  });

export const signup = defineTool({
  name: 'commercial_signup',
  secretFields: { output: ['key'] },
  title: 'Open a commercial account',
  toolset: 'commercial',
  description:
    'Opens an account of the commercial group (code review, SEO audits, copy, content, extraction, dev tasks) and issues its ' +
    'revenue key (prefix agr_live_), shown ONCE: send it as X-Revenue-Key. One account per email.',
  input: z.object({
    email: z.email().max(254).describe('The account’s email; one account per email.'),
    name: z.string().trim().min(1).max(200).describe('Who the account is for (a person or a company).'),
  }),
  auth: 'public',
  annotations: { destructiveHint: false, idempotentHint: false },
  handler: async (input, ctx) => {
    const email = input.email.toLowerCase();
    const clientHash = ctx.services.clientKey(ctx.caller.credentials.ip);
    const perDay = ctx.config.commercial.signupsPerClientPerDay;
    const now = ctx.clock.now();
    const opened = await ctx.services.commerce.accounts.open({ email, name: input.name, clientHash }, { limit: perDay, since: now - DAY_MS });
    if ('refused' in opened) throw opened.refused === 'client' ? signupsFull(perDay) : emailTaken();
    ctx.meta.headers['Cache-Control'] = 'no-store';
    return {
      account_id: opened.account.id,
      email,
      name: input.name,
      key: opened.key,
      hint: opened.hint,
      balance: usd(0),
      created_at: new Date(opened.createdAt).toISOString(),
      notice: 'Store the key now: it is shown only once. Send it as X-Revenue-Key (or Authorization: Bearer); never put it in a URL.',
      usage: `GET ${ctx.config.commercial.baseUrl}/usage with X-Revenue-Key`,
    };
  },
});

export const usage = defineTool({
  name: 'commercial_usage',
  title: 'Commercial account usage',
  toolset: 'commercial',
  description: 'The revenue key’s account: prepaid balance, orders and spend per service this UTC month, open orders, what is held and what was captured.',
  input: z.object({}),
  auth: 'account',
  annotations: { readOnlyHint: true },
  handler: async (_input, ctx) => {
    const account = ctx.caller.account!;
    const now = new Date(ctx.clock.now());
    const month = now.toISOString().slice(0, 7);
    const use = await accountUsage(ctx.db, account.id, month);
    return {
      account_id: account.id,
      email: account.email,
      balance: use.balance,
      balance_usd: microToUsd(use.balance),
      unit: 'micro_usd',
      month: { starts_at: `${month}-01T00:00:00.000Z`, services: use.services.map((s) => ({ service: s.service, orders: s.orders, delivered: s.delivered, spent: usd(s.spent) })) },
      open_orders: use.open_orders,
      held: usd(use.held),
      captured: { ...usd(use.captured), charges: use.charges },
    };
  },
});

export const rotateKey = defineTool({
  name: 'commercial_key_replace',
  secretFields: { output: ['key'] },
  title: 'Replace an account’s revenue key (operator)',
  toolset: 'commercial',
  description: 'Operator only (X-Operator-Token): issues a new revenue key for the account of an email (a lost key); the old key stops working at once.',
  input: z.object({ email: z.email().max(254) }),
  auth: 'public',
  annotations: { destructiveHint: true, idempotentHint: false },
  handler: async (input, ctx) => {
    requireOperator(ctx.config, ctx.caller.credentials.operatorToken);
    const replaced = await ctx.services.commerce.accounts.replaceKey(input.email.toLowerCase());
    if (!replaced) throw new GatewayError('not_found', 'No commercial account has this email.');
    ctx.meta.headers['Cache-Control'] = 'no-store';
    return { account_id: replaced.account.id, email: replaced.account.email, key: replaced.key, hint: replaced.hint, notice: 'Shown only once: hand it to the account holder.' };
  },
});
