// Signed webhooks for job, handoff and watch callbacks: a delivery row per event, sent by the scheduler
// (one attempt per run, retried with backoff and jitter), every attempt recorded. Signatures are
// HMAC-SHA256 over "<timestamp>.<body>" with the owner's webhook secret (GET /agents/{handle}/webhook-secret),
// or, for anonymous work, a secret returned once when the work was created.
import { createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../../src/config.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import type { WorkKind } from '../../src/scheduler/scheduler.js';
import type { WorkerContext } from '../../src/workers.js';
import type { Queryable } from '../../src/store/db.js';
import { HandleRef } from '../identity/handles.js';
import { holdIfSuspended } from '../identity/suspended-work.js';
import * as store from './store.js';

export const WEBHOOK_ATTEMPTS = 6;
/**
 * Deliveries sent at once by one process, of the scheduler's 16 lanes: a target that hangs holds a lane for the
 * whole timeout (10 s, six attempts), and anyone can name one, so hanging targets hold at most these.
 */
export const WEBHOOK_LANES = 4;

export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

/**
 * The key the operator's webhook (GATEWAY_OPERATOR_WEBHOOK_URL) is signed with: GATEWAY_OPERATOR_WEBHOOK_SECRET, or
 * else hex HMAC-SHA256(operator token, "operator-webhook"), so the receiver never holds the operator token itself.
 * Read from the configuration when each delivery is sent, never stored with it.
 */
export function operatorWebhookKey(config: Pick<Config, 'operatorToken' | 'operatorWebhookSecret'>): string | undefined {
  if (config.operatorWebhookSecret) return config.operatorWebhookSecret;
  return config.operatorToken ? createHmac('sha256', config.operatorToken).update('operator-webhook').digest('hex') : undefined;
}

/** The source of the deliveries that tell the operator of a parked handoff. */
export const OPERATOR_SOURCE = 'operator';

/** A delivery's signing key: the operator's from the configuration, any other the one stored with it. */
const signingKey = (d: store.DeliveryRow, config: Config): string | undefined => (d.source === OPERATOR_SOURCE ? operatorWebhookKey(config) : d.secret);

export const secretForAgent = (ctx: Pick<ToolContext, 'db' | 'clock'>, agentId: string): Promise<string> =>
  store.agentSecret(ctx.db, agentId, newWebhookSecret(), ctx.clock.now());

/** Records a delivery and schedules its first attempt now. */
export async function scheduleWebhook(
  ctx: Pick<WorkerContext, 'db' | 'clock' | 'services'>,
  d: { source: string; ref: string; agentId: string | null; url: string; body: unknown; secret: string },
  q: Queryable = ctx.db,
): Promise<number> {
  const now = ctx.clock.now();
  const id = await store.insertDelivery(q, { ...d, body: JSON.stringify(d.body), now });
  await ctx.services.scheduler.enqueue('webhook', String(id), now, q);
  return id;
}

/** The delivery outcome shown on a job, handoff or watch (never the secret or the body). */
export async function deliveriesOf(ctx: Pick<ToolContext, 'db'>, source: string, ref: string) {
  return (await store.deliveriesFor(ctx.db, source, ref)).map((d) => ({
    url_host: new URL(d.url).host,
    status: d.status,
    attempts: JSON.parse(d.attempts) as unknown[],
  }));
}

export const webhookKind: WorkKind<WorkerContext> = {
  kind: 'webhook',
  leaseMs: 60_000,
  maxAttempts: WEBHOOK_ATTEMPTS,
  lanes: WEBHOOK_LANES,
  async run(ref, ctx, attempt) {
    const d = await store.deliveryById(ctx.db, Number(ref));
    if (!d || d.status !== 'pending') return;
    const held = await holdIfSuspended(ctx, d.agent_id);
    if (held) return held;
    const secret = signingKey(d, ctx.config);
    // The operator token was unset since the delivery was made: nothing can sign it.
    if (secret === undefined) return void (await store.recordAttempt(ctx.db, d.id, { attempt, error: 'no operator webhook key is configured' }, 'failed', ctx.clock.now()));
    const out = await ctx.services.egress.sendWebhook({ url: d.url, body: JSON.parse(d.body), secret, attempts: 1, deliveryId: `dlv_${d.id}`, now: () => ctx.clock.now() });
    const a = out.attempts[0];
    const delivered = out.delivered;
    const final = delivered || attempt >= WEBHOOK_ATTEMPTS || (a?.status !== undefined && a.status >= 400 && a.status < 500 && a.status !== 429);
    await store.recordAttempt(ctx.db, d.id, { ...a, attempt }, delivered ? 'delivered' : final ? 'failed' : 'pending', ctx.clock.now());
    if (!final) throw new Error(`webhook attempt ${attempt} failed: ${a?.status ?? a?.error ?? 'unknown'}`);
  },
};

export const webhookSecretGet = defineTool({
  name: 'webhook_secret_get',
  title: 'Webhook signing secret',
  toolset: 'jobs',
  description: 'The secret your callbacks are signed with: X-Gateway-Signature = "sha256=" + hex HMAC-SHA256(secret, "<X-Gateway-Timestamp>.<body>").',
  input: z.object({ handle: HandleRef }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (_input, ctx) => ({
    secret: await secretForAgent(ctx, ctx.caller.agent!.id),
    headers: { signature: 'X-Gateway-Signature', timestamp: 'X-Gateway-Timestamp', delivery: 'X-Gateway-Delivery' },
  }),
});
