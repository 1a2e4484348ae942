// Watches: recurring checks of a URL that notify only on change, following the spec's state table —
// at most 5 live per handle, interval ≥ 1 h, expiry 14 days after creation or renewal, paused after 7 idle
// days without the owner listing its watches, renew reactivates, delete cancels.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { GatewayError } from '../../src/errors.js';
import { isEgressError } from '../../src/egress/index.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { aliasOf } from '../../src/registry/field-alias.js';
import type { ToolContext } from '../../src/registry/types.js';
import type { WorkKind } from '../../src/scheduler/scheduler.js';
import type { WorkerContext } from '../../src/workers.js';
import { AGENT_MAX_TTL, artifactUrl, storeArtifact } from '../artifacts/service.js';
import { contentOf } from '../../src/blobs/content.js';
import { HandleRef } from '../identity/handles.js';
import { holdIfSuspended } from '../identity/suspended-work.js';
import { notify } from '../notifications/index.js';
import { deliveriesOf, scheduleWebhook, secretForAgent } from '../webhooks/index.js';
import { hashOf, normalize } from './normalize.js';
import * as store from './store.js';

export const MAX_LIVE_WATCHES = 5;
export const MIN_INTERVAL_HOURS = 1;
export const WATCH_TTL_MS = 14 * 24 * 3600 * 1000;
export const IDLE_PAUSE_MS = 7 * 24 * 3600 * 1000;
const HOUR = 3600 * 1000;
const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

/** The state the table says a watch is in now (a check may not have run since a deadline passed). */
export function effectiveStatus(w: store.WatchRow, now: number): store.WatchStatus {
  if (w.status !== 'active') return w.status;
  if (now >= w.expires_at) return 'expired';
  if (now - w.owner_seen_at >= IDLE_PAUSE_MS) return 'paused';
  return 'active';
}

/** The optional JSON body of delete and renew may name the owner's handle; another handle answers 403. */
const OwnHandle = HandleRef.optional().describe('Your own handle (optional; naming another handle answers 403).');

function describe(ctx: Pick<ToolContext, 'config' | 'clock'>, w: store.WatchRow) {
  const now = ctx.clock.now();
  return {
    watch_id: w.id,
    owner: w.owner,
    url: w.url,
    interval_hours: w.interval_hours,
    mode: w.mode,
    selector: w.selector,
    status: effectiveStatus(w, now),
    created_at: iso(w.created_at),
    renewed_at: iso(w.renewed_at),
    expires_at: iso(w.expires_at),
    pauses_at: iso(w.owner_seen_at + IDLE_PAUSE_MS),
    last_checked_at: iso(w.last_checked_at),
    last_changed_at: iso(w.last_changed_at),
    latest_artifact: w.last_artifact_id ? artifactUrl(ctx, w.last_artifact_id) : null,
    last_error: w.last_error,
    consecutive_failures: w.consecutive_failures,
    checks: w.checks,
    changes: w.changes,
  };
}

async function ownWatch(ctx: ToolContext, id: string): Promise<store.WatchRow> {
  const w = await store.watchById(ctx.db, id);
  if (!w) throw new GatewayError('not_found', 'No such watch.');
  if (w.agent_id !== ctx.caller.agent!.id) throw new GatewayError('forbidden', 'This watch belongs to another agent.');
  return w;
}

export const watchCreate = defineTool({
  name: 'watch_create',
  title: 'Watch a URL',
  toolset: 'watches',
  description:
    `Checks a URL every interval_hours (at least ${MIN_INTERVAL_HOURS}) and notifies only when its content changes: a tray ` +
    'notification, the new content stored as an artifact, and an optional signed callback (callback_url, or callback) with old/new hashes. The first ' +
    `check records the baseline. At most ${MAX_LIVE_WATCHES} live watches per handle; expires after 14 days unless renewed; ` +
    'pauses after 7 days without you listing your watches. mode: raw bytes, text (visible page text) or selector (CSS).',
  input: z
    .object({
      url: z.url({ protocol: /^https?$/ }).max(2000).describe('The http(s) URL to watch.'),
      interval_hours: z.number().describe(`Hours between checks (at least ${MIN_INTERVAL_HOURS}).`),
      callback_url: z.url({ protocol: /^https?$/ }).max(2000).optional().describe('Signed webhook on each change.'),
      callback: z.url({ protocol: /^https?$/ }).max(2000).optional().describe('Same as callback_url (the name WatchBody has in the spec).'),
      mode: z.enum(['raw', 'text', 'selector']).default('text').describe('What is compared: raw, text (default) or selector.'),
      selector: z.string().min(1).max(300).optional().describe('CSS selector, for mode "selector".'),
    })
    .refine((v) => v.interval_hours >= MIN_INTERVAL_HOURS && v.interval_hours <= 24 * 14, { message: `interval_hours must be between ${MIN_INTERVAL_HOURS} and 336`, path: ['interval_hours'] })
    .refine((v) => (v.mode === 'selector') === (v.selector !== undefined), { message: 'a selector goes with mode "selector" (and only with it)', path: ['selector'] })
    .superRefine(aliasOf('callback_url', 'callback')),
  auth: 'owner',
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
  handler: async (input, ctx) => {
    const me = ctx.caller.agent!;
    const now = ctx.clock.now();
    const id = `w_${randomBytes(12).toString('base64url')}`;
    await ctx.db.transaction(async (tx) => {
      const live = await store.liveCount(tx, me.id);
      if (live >= MAX_LIVE_WATCHES) throw new GatewayError('conflict', `You already have ${live} live watches (the limit is ${MAX_LIVE_WATCHES}); delete one first.`, { extra: { limit: MAX_LIVE_WATCHES } });
      await store.insertWatch(tx, { id, agent_id: me.id, url: input.url, interval_hours: input.interval_hours, mode: input.mode, selector: input.selector ?? null, callback_url: input.callback_url ?? input.callback ?? null }, now, now + WATCH_TTL_MS);
      await ctx.services.scheduler.enqueue('watch_check', id, now, tx);
    });
    return describe(ctx, (await store.watchById(ctx.db, id))!);
  },
});

export const watchList = defineTool({
  name: 'watch_list',
  title: 'Your watches',
  toolset: 'watches',
  description: 'Lists your watches and resets their 7-day inactivity timer.',
  input: z.object({ handle: HandleRef }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { readOnlyHint: false, idempotentHint: true },
  handler: async (_input, ctx) => {
    const me = ctx.caller.agent!;
    const now = ctx.clock.now();
    const rows = await store.watchesOf(ctx.db, me.id);
    // Listing is the owner's sign of life; a watch already paused stays paused until renewed.
    for (const w of rows) if (effectiveStatus(w, now) === 'paused' && w.status === 'active') await store.leaveActive(ctx.db, w, 'paused');
    await store.touchOwner(ctx.db, me.id, now);
    const fresh = await store.watchesOf(ctx.db, me.id);
    return { handle: me.handle, watches: await Promise.all(fresh.map(async (w) => ({ ...describe(ctx, w), callback: w.callback_url ? { deliveries: await deliveriesOf(ctx, 'watch', w.id) } : null }))) };
  },
});

export const watchGet = defineTool({
  name: 'watch_get',
  title: 'Watch status',
  toolset: 'watches',
  description: "A watch's public status (anyone holding its id; no callback details).",
  input: z.object({ watch_id: z.string().min(3).max(64).describe('The watch id.') }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const w = await store.watchById(ctx.db, input.watch_id);
    if (!w) throw new GatewayError('not_found', 'No such watch.');
    return describe(ctx, w);
  },
});

export const watchDelete = defineTool({
  name: 'watch_delete',
  title: 'Cancel a watch',
  toolset: 'watches',
  description: 'Cancels one of your watches (checks stop; it no longer counts toward the limit).',
  input: z.object({ watch_id: z.string().min(3).max(64).describe('The watch id.'), handle: OwnHandle }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { destructiveHint: true, idempotentHint: true },
  handler: async (input, ctx) => {
    const w = await ownWatch(ctx, input.watch_id);
    await ctx.db.transaction(async (tx) => {
      await store.cancel(tx, w.id);
      await ctx.services.scheduler.cancel('watch_check', w.id, tx);
    });
    return describe(ctx, (await store.watchById(ctx.db, w.id))!);
  },
});

export const watchRenew = defineTool({
  name: 'watch_renew',
  title: 'Renew a watch',
  toolset: 'watches',
  description: 'Reactivates a paused or expired watch (or extends an active one): 14 more days from now.',
  input: z.object({ watch_id: z.string().min(3).max(64).describe('The watch id.'), handle: OwnHandle }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { idempotentHint: true },
  handler: async (input, ctx) => {
    const w = await ownWatch(ctx, input.watch_id);
    const now = ctx.clock.now();
    await ctx.db.transaction(async (tx) => {
      // Its status as of now, inside the transaction: a cancel (or a create) that landed since the read above must
      // not be undone (or get past the live limit).
      const status = (await store.watchById(tx, w.id))?.status;
      if (status === undefined || status === 'cancelled') throw new GatewayError('conflict', 'A cancelled watch cannot be renewed; create a new one.');
      // An expired watch coming back is one more live watch; a paused one already counts.
      if (status === 'expired' && (await store.liveCount(tx, w.agent_id)) >= MAX_LIVE_WATCHES) {
        throw new GatewayError('conflict', `You already have ${MAX_LIVE_WATCHES} live watches.`);
      }
      await store.renew(tx, w.id, now, now + WATCH_TTL_MS);
      await ctx.services.scheduler.enqueue('watch_check', w.id, now, tx);
    });
    return describe(ctx, (await store.watchById(ctx.db, w.id))!);
  },
});

/** One check: apply the state table's deadlines, fetch, compare, and act only on a change. */
async function check(ref: string, ctx: WorkerContext): Promise<{ next: number } | void> {
  const w = await store.watchById(ctx.db, ref);
  if (!w || w.status !== 'active') return;
  const now = ctx.clock.now();
  const state = effectiveStatus(w, now);
  if (state !== 'active') {
    await store.leaveActive(ctx.db, w, state);
    return;
  }
  const held = await holdIfSuspended(ctx, w.agent_id);
  if (held) return held;
  const interval = w.interval_hours * HOUR;
  let res;
  try {
    res = await ctx.services.egress.fetch(w.url, { maxBytes: 2 * 1024 * 1024, totalTimeoutMs: 20_000 });
    if (res.status >= 400) throw new Error(`HTTP ${res.status}`);
  } catch (err) {
    const message = isEgressError(err) ? `${err.code}: ${err.message}` : (err as Error).message;
    await store.recordFailure(ctx.db, w.id, now, message.slice(0, 300));
    // Errors never count as a change; checks back off (2, 4, 8… intervals, at most a day).
    return { next: now + Math.min(interval * 2 ** Math.min(w.consecutive_failures + 1, 5), 24 * HOUR) };
  }
  const content = await normalize(w.mode, res.body, res.headers['content-type'], w.selector);
  const hash = hashOf(content);
  const first = w.last_hash === null;
  const changed = !first && hash !== w.last_hash;
  let artifactId: string | null = null;
  if (first || changed) {
    const a = await storeArtifact(ctx, { content: contentOf(content), contentType: w.mode === 'raw' ? (res.headers['content-type'] ?? 'application/octet-stream') : 'text/plain; charset=utf-8', filename: `${w.id}.${w.mode === 'raw' ? 'bin' : 'txt'}`, ttlSeconds: AGENT_MAX_TTL, agentId: w.agent_id, source: 'watch' });
    artifactId = a.id;
  }
  await ctx.db.transaction(async (tx) => {
    await store.recordCheck(tx, w.id, { now, hash, artifactId, changed });
    if (!changed) return;
    const data = { watch_id: w.id, url: w.url, old_hash: w.last_hash, new_hash: hash, artifact_url: artifactUrl(ctx, artifactId!) };
    await notify(ctx, w.agent_id, { kind: 'watch_change', title: `Changed: ${w.url}`, data }, tx);
    if (w.callback_url) {
      await scheduleWebhook(ctx, { source: 'watch', ref: w.id, agentId: w.agent_id, url: w.callback_url, body: { event: 'watch.changed', ...data, checked_at: iso(now) }, secret: await secretForAgent(ctx, w.agent_id) }, tx);
    }
  });
  return { next: now + interval };
}

export const watchCheckKind: WorkKind<WorkerContext> = { kind: 'watch_check', leaseMs: 2 * 60_000, maxAttempts: 3, run: (ref, ctx) => check(ref, ctx) };

export const watchTools = [watchCreate, watchList, watchGet, watchDelete, watchRenew];
