// Human handoffs: an agent parks a task a person must do; an operator completes or rejects it (web page or
// operator API); unresolved ones expire. The callback fires on completion, rejection and expiry. Nothing
// notifies an operator unless GATEWAY_OPERATOR_WEBHOOK_URL is set.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { jsonValue } from '../../src/registry/json-value.js';
import { numberInput } from '../../src/registry/number-input.js';
import { isOperator } from '../../src/auth/operator.js';
import { GatewayError } from '../../src/errors.js';
import { takeAnonymousCreateOf } from '../../src/anonymous-creates.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import type { WorkKind } from '../../src/scheduler/scheduler.js';
import type { WorkerContext } from '../../src/workers.js';
import { notify } from '../notifications/index.js';
import { deliveriesOf, newWebhookSecret, OPERATOR_SOURCE, operatorWebhookKey, scheduleWebhook, secretForAgent } from '../webhooks/index.js';
import * as store from './store.js';

export const HANDOFF_DEFAULT_TTL = 24 * 3600;
export const HANDOFF_MAX_TTL = 30 * 24 * 3600;

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
export const handoffUrl = (ctx: { config: { baseUrl: string } }, id: string) => `${ctx.config.baseUrl}/handoffs/${id}`;

export async function describeHandoff(ctx: Pick<ToolContext, 'db' | 'config'>, h: store.HandoffRow, withTask = true) {
  return {
    handoff_id: h.id,
    status: h.status,
    ...(withTask ? { task: h.task, context: JSON.parse(h.context) as unknown } : {}),
    created_at: iso(h.created_at),
    expires_at: iso(h.expires_at),
    resolved_at: iso(h.resolved_at),
    result: h.result === null ? null : (JSON.parse(h.result) as unknown),
    reason: h.reason,
    poll_url: handoffUrl(ctx, h.id),
    callback: h.callback_url ? { deliveries: await deliveriesOf(ctx, 'handoff', h.id) } : null,
  };
}

/** Parks a task for a person (the operator is told when GATEWAY_OPERATOR_WEBHOOK_URL is set); its id and expiry. */
export async function parkHandoff(
  ctx: Pick<WorkerContext, 'db' | 'clock' | 'config' | 'services'>,
  h: { agentId: string | null; task: string; context: unknown; callbackUrl: string | null; callbackSecret: string | null; ttlSeconds: number },
): Promise<{ id: string; expiresAt: number }> {
  const now = ctx.clock.now();
  const id = `ho_${randomBytes(12).toString('base64url')}`;
  const expiresAt = now + h.ttlSeconds * 1000;
  await ctx.db.transaction(async (tx) => {
    await store.insertHandoff(tx, { id, agent_id: h.agentId, task: h.task, context: JSON.stringify(h.context), callback_url: h.callbackUrl, callback_secret: h.callbackSecret, created_at: now, expires_at: expiresAt });
    await ctx.services.scheduler.enqueue('handoff_expiry', id, expiresAt, tx);
    const opHook = ctx.config.operatorWebhookUrl;
    if (opHook && operatorWebhookKey(ctx.config)) {
      // No secret stored with it: the key is read from the configuration when it is sent.
      const body = { event: 'handoff.parked', handoff_id: id, task: h.task, expires_at: iso(expiresAt), console: `${ctx.config.baseUrl}/operator` };
      await scheduleWebhook(ctx, { source: OPERATOR_SOURCE, ref: id, agentId: null, url: opHook, body, secret: '' }, tx);
    }
  });
  ctx.services.bus.emit('handoff:updated', { handoffId: id, status: 'parked' });
  return { id, expiresAt };
}

/** The context a caller without credentials may park (an agent's counts against its storage budget). */
export const ANON_CONTEXT_MAX_BYTES = 16 * 1024;

/** A handoff without credentials: its context kept small, and so many an hour per client. */
async function refuseAnonymousHandoff(ctx: ToolContext, context: unknown): Promise<void> {
  const size = context === undefined ? 0 : Buffer.byteLength(JSON.stringify(context));
  if (size > ANON_CONTEXT_MAX_BYTES) {
    throw new GatewayError('payload_too_large', `The context is ${size} bytes; a handoff without credentials takes at most ${ANON_CONTEXT_MAX_BYTES} (register for more).`, {
      extra: { limit: ANON_CONTEXT_MAX_BYTES, bytes: size },
    });
  }
  await takeAnonymousCreateOf(ctx, 'handoffs', 'Handoffs');
}

export const handoffCreate = defineTool({
  name: 'handoff_create',
  secretFields: { output: ['callback_secret'] },
  title: 'Park a task for a human',
  toolset: 'handoffs',
  description:
    'Parks a task a human must do and returns handoff_id and expires_at at once (status parked). An operator completes ' +
    'it with a result or rejects it; unresolved it expires. callback_url fires on completion, rejection and expiry. ' +
    'Without credentials the context is at most 16 KB, and a client parks a limited number an hour.',
  input: z.object({
    task: z.string().min(1).max(5000).describe('What the human should do.'),
    context: jsonValue().optional().describe('Anything that helps: links, data, constraints.'),
    callback_url: z.url({ protocol: /^https?$/ }).max(2000).optional().describe('Signed webhook when it is resolved or expires.'),
    ttl_seconds: z.number().int().min(60).max(HANDOFF_MAX_TTL).default(HANDOFF_DEFAULT_TTL).describe('Seconds before it expires (default 24 h, max 30 days).'),
  }),
  auth: 'optional_owner',
  annotations: { destructiveHint: false, idempotentHint: false },
  handler: async (input, ctx) => {
    const agentId = ctx.caller.agent?.id ?? null;
    if (!agentId) await refuseAnonymousHandoff(ctx, input.context);
    const anonSecret = input.callback_url && !agentId ? newWebhookSecret() : null;
    const { id, expiresAt } = await parkHandoff(ctx, { agentId, task: input.task, context: input.context ?? null, callbackUrl: input.callback_url ?? null, callbackSecret: anonSecret, ttlSeconds: input.ttl_seconds });
    return {
      handoff_id: id,
      status: 'parked' as const,
      expires_at: iso(expiresAt),
      poll_url: handoffUrl(ctx, id),
      ...(anonSecret ? { callback_secret: anonSecret, notice: 'The callback signing secret is shown only now.' } : {}),
    };
  },
});

export const handoffGet = defineTool({
  name: 'handoff_get',
  title: 'Handoff status',
  toolset: 'handoffs',
  description: 'Status and result of a handoff (anyone holding its id may read it).',
  input: z.object({ handoff_id: z.string().min(4).max(64).describe('The handoff id.') }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const h = await store.handoffById(ctx.db, input.handoff_id);
    if (!h) throw new GatewayError('not_found', 'No such handoff.');
    return describeHandoff(ctx, h);
  },
});

/** Resolves a handoff: status, owner tray, callback, bus. False when it was no longer parked. */
export async function resolve(ctx: Pick<WorkerContext, 'db' | 'clock' | 'config' | 'services'>, id: string, status: 'completed' | 'rejected' | 'expired', result: unknown, reason: string | null): Promise<boolean> {
  const now = ctx.clock.now();
  const changed = await ctx.db.transaction(async (tx) => {
    const h = await store.handoffById(tx, id);
    if (!h || !(await store.resolveHandoff(tx, id, status, result, reason, now))) return false;
    await ctx.services.scheduler.cancel('handoff_expiry', id, tx);
    if (h.agent_id) await notify(ctx, h.agent_id, { kind: 'handoff', title: `Handoff ${status}`, data: { handoff_id: id, status } }, tx);
    if (h.callback_url) {
      const secret = h.callback_secret ?? (await secretForAgent(ctx, h.agent_id!));
      const body = { event: `handoff.${status}`, handoff_id: id, status, result: result ?? null, reason, resolved_at: iso(now), poll_url: handoffUrl(ctx, id) };
      await scheduleWebhook(ctx, { source: 'handoff', ref: id, agentId: h.agent_id, url: h.callback_url, body, secret }, tx);
    }
    return true;
  });
  if (changed) ctx.services.bus.emit('handoff:updated', { handoffId: id, status });
  return changed;
}

const mustBeOperator = (ctx: ToolContext) => {
  if (!ctx.config.operatorToken) throw new GatewayError('unavailable', 'No operator is configured on this gateway (GATEWAY_OPERATOR_TOKEN).');
  if (!ctx.caller.credentials.operatorToken) throw new GatewayError('unauthorized', 'Send the operator token in X-Operator-Token.');
  if (!isOperator(ctx.config, ctx.caller.credentials.operatorToken)) throw new GatewayError('forbidden', 'The operator token is not valid.');
};

export const handoffsParked = defineTool({
  name: 'handoffs_parked',
  title: 'Parked handoffs (operator)',
  toolset: 'operator',
  description: 'Handoffs waiting for a human, oldest first (operator token).',
  input: z.object({ limit: numberInput(z.number().int().min(1).max(500)).default(100).describe('How many.') }),
  auth: 'public',
  expose: { mcp: false },
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    mustBeOperator(ctx);
    const rows = await store.parkedHandoffs(ctx.db, input.limit, ctx.clock.now());
    return { handoffs: await Promise.all(rows.map((h) => describeHandoff(ctx, h))) };
  },
});

const ResolveInput = z.object({ handoff_id: z.string().min(4).max(64).describe('The handoff id.') });

export const handoffComplete = defineTool({
  name: 'handoff_complete',
  title: 'Complete a handoff (operator)',
  toolset: 'operator',
  description: 'Completes a parked handoff with a result (operator token).',
  input: ResolveInput.extend({ result: jsonValue().describe('What the human did or found (text or JSON).') }),
  auth: 'public',
  expose: { mcp: false },
  annotations: { destructiveHint: false },
  handler: async (input, ctx) => {
    mustBeOperator(ctx);
    if (!(await resolve(ctx, input.handoff_id, 'completed', input.result, null))) throw new GatewayError('conflict', 'This handoff is not parked any more.');
    return describeHandoff(ctx, (await store.handoffById(ctx.db, input.handoff_id))!);
  },
});

export const handoffReject = defineTool({
  name: 'handoff_reject',
  title: 'Reject a handoff (operator)',
  toolset: 'operator',
  description: 'Rejects a parked handoff with a reason (operator token).',
  input: ResolveInput.extend({ reason: z.string().min(1).max(2000).describe('Why it cannot be done.') }),
  auth: 'public',
  expose: { mcp: false },
  annotations: { destructiveHint: false },
  handler: async (input, ctx) => {
    mustBeOperator(ctx);
    if (!(await resolve(ctx, input.handoff_id, 'rejected', undefined, input.reason))) throw new GatewayError('conflict', 'This handoff is not parked any more.');
    return describeHandoff(ctx, (await store.handoffById(ctx.db, input.handoff_id))!);
  },
});

export const handoffExpiryKind: WorkKind<WorkerContext> = {
  kind: 'handoff_expiry',
  leaseMs: 60_000,
  maxAttempts: 5,
  async run(ref, ctx) {
    await resolve(ctx, ref, 'expired', undefined, 'No operator resolved it before it expired.');
  },
};

export const handoffTools = [handoffCreate, handoffGet, handoffsParked, handoffComplete, handoffReject];
