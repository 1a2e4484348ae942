// Dev tasks (POST /dev/tasks): classified into the spec's tiers by fixed rules (the quote is the same for the same
// words, and `quote_only` shows it without ordering), written by the model (or, without one, by the operator
// through a handoff), sent back for revisions as often as allowed, and captured only when the client accepts (or
// when the acceptance window ends).
import { z } from 'zod';
import { microToUsd } from '../../src/commerce/prices.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext, WorkerContext } from '../../src/registry/types.js';
import { GatewayError } from '../../src/errors.js';
import * as store from '../../src/store/orders.js';
import { handoffById } from '../handoffs/store.js';
import { HANDOFF_DEFAULT_TTL, parkHandoff } from '../handoffs/index.js';
import type { DevTaskDeliverable } from './content/index.js';
import { classifyDevTask } from './content/dev-tiers.js';
import { followHandoffs } from './handoff-wake.js';
import { DevTaskInput } from './content/schemas.js';
import { modelOf } from './model-check.js';
import { MAX_REVISIONS } from './orders.js';
import { OrderExtras, placeOrder } from './place.js';
import type { Produced, ServiceDef } from './services.js';
import { orderView } from './view.js';

/** A day beyond the acceptance window: the hold must outlive the auto-acceptance that captures it. */
const SLACK_MS = 24 * 3600_000;

function quoteOf(ctx: ToolContext, input: DevTaskInput) {
  const c = classifyDevTask(input);
  const amount = ctx.config.commercial.prices[c.price_id];
  return { tier: c.tier, price_id: c.price_id, price: { usd: microToUsd(amount), micro_usd: amount }, score: c.score, reasons: c.reasons, amount };
}

export const devTaskCreate = defineTool({
  name: 'dev_task_create',
  secretFields: { output: ['webhook_secret'] },
  title: 'Order a dev task',
  toolset: 'commercial',
  description:
    'Orders a development task, priced by its tier: simple $25, medium $100, complex $250 (the quote comes with the order; quote_only shows it ' +
    `without ordering). You may ask for up to ${MAX_REVISIONS} revisions; the payment is captured only when you accept (order_accept), or when the ` +
    'acceptance window ends. Not payable by x402 (an authorization cannot wait for the acceptance).',
  input: DevTaskInput.extend({ ...OrderExtras, quote_only: z.boolean().default(false).describe('Only show the tier and price; nothing is ordered or held.') }),
  auth: 'account',
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
  handler: async ({ payment_method, webhook_url, quote_only, ...task }, ctx) => {
    const { amount, ...quote } = quoteOf(ctx, task);
    if (quote_only) return { quote, ordered: false };
    // Without a model the operator does it (a handoff); without either nobody can.
    if (!ctx.config.operatorToken) modelOf(ctx);
    const placed = await placeOrder(
      ctx,
      {
        service: 'dev.task',
        priceId: quote.price_id,
        amount,
        input: { ...task, tier: quote.tier },
        webhookUrl: webhook_url,
        capturableForMs: ctx.config.commercial.devAutoAcceptMs + SLACK_MS,
        refuses: { x402: 'A dev task is captured when you accept it, days after the order: an x402 authorization cannot wait that long. Pay with the prepaid balance or a card.' },
      },
      payment_method,
    );
    ctx.meta.headers.Location = `${ctx.config.commercial.baseUrl}/orders/${placed.order.id}`;
    return {
      ...orderView(placed.order, ctx.config.commercial.baseUrl),
      quote,
      ...(placed.webhookSecret ? { webhook_secret: placed.webhookSecret, notice: 'The webhook signing secret is shown only now.' } : {}),
    };
  },
});

/** The writing engine loads with the first task it does, not at start-up. */
const engine = () => import('./content/index.js');

/**
 * How often a task a person is doing is looked at: the fallback only. The operator's resolution of the handoff
 * wakes the order at once (handoff-wake.ts).
 */
const RECHECK_MS = 60_000;

/** The deliverable a person gave (the handoff's result): Markdown, or an object holding it. */
async function fromPerson(result: unknown, language: string): Promise<DevTaskDeliverable> {
  const markdown = typeof result === 'string' ? result : typeof (result as { markdown?: unknown })?.markdown === 'string' ? (result as { markdown: string }).markdown : JSON.stringify(result, null, 2);
  const parsed = (await engine()).parseDevTask(markdown, language);
  return parsed.ok ? parsed.value : { markdown, code_blocks: [], summary: markdown.slice(0, 600) };
}

/** Without a model the operator does the task: a handoff is parked, and its result is the deliverable. */
async function byPerson(o: store.OrderRow, task: DevTaskInput & { tier: string }, ctx: WorkerContext): Promise<Produced> {
  // The process that parks the handoff follows it even where the gateway's workers do not (every instance should).
  followHandoffs(ctx);
  const now = ctx.clock.now();
  if (!o.handoff_id) {
    const previous = o.revision_notes !== null && o.result !== null ? (JSON.parse(o.result) as DevTaskDeliverable).markdown : null;
    const { id } = await parkHandoff(ctx, {
      agentId: null,
      task: `Dev task ${o.id} (${task.tier}, ${task.language}): ${task.description}${previous ? `\n\nRevision asked: ${o.revision_notes}` : ''}`.slice(0, 5000),
      context: { order_id: o.id, tier: task.tier, language: task.language, description: task.description, revision_notes: o.revision_notes, previous, deliver: 'Complete the handoff with the deliverable as Markdown (code in fenced blocks).' },
      callbackUrl: null,
      callbackSecret: null,
      ttlSeconds: HANDOFF_DEFAULT_TTL,
    });
    await store.setHandoff(ctx.db, o.id, id, now);
    return { recheckAt: now + RECHECK_MS };
  }
  const h = await handoffById(ctx.db, o.handoff_id);
  if (!h || h.status === 'parked') return { recheckAt: now + RECHECK_MS };
  if (h.status !== 'completed') throw new GatewayError('conflict', `The operator did not do the task (${h.status}${h.reason ? `: ${h.reason}` : ''}); nothing is charged.`);
  return { result: await fromPerson(h.result === null ? null : JSON.parse(h.result), task.language) };
}

export const devTaskService: ServiceDef = {
  service: 'dev.task',
  acceptance: true,
  produce: async (o: store.OrderRow, ctx) => {
    const { tier, ...task } = JSON.parse(o.input) as DevTaskInput & { tier: 'simple' | 'medium' | 'complex' };
    if (!ctx.config.llm?.model) return byPerson(o, { ...task, tier }, ctx);
    const revising = o.revision_notes !== null && o.result !== null;
    const made = await (await engine()).produceDevTask(task, modelOf(ctx), {
      tier,
      attempts: ctx.config.commercial.contentAttempts,
      ...(revising ? { revisionNotes: o.revision_notes!, previous: JSON.parse(o.result!) as DevTaskDeliverable } : {}),
    });
    return { result: made.deliverable, usage: made.usage };
  },
};
