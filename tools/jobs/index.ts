// Async errands (jobs): fetch_bundle and delay. Created at once (queued), run by the scheduler, finished as
// succeeded, failed (with a reason) or canceled; a callback_url gets a signed webhook when the job ends.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { GatewayError } from '../../src/errors.js';
import { takeAnonymousCreateOf } from '../../src/anonymous-creates.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { DurableWork, ToolContext, WorkState } from '../../src/registry/types.js';
import type { WorkKind } from '../../src/scheduler/scheduler.js';
import type { TxOptions } from '../../src/store/db.js';
import type { WorkerContext } from '../../src/workers.js';
import { holdIfSuspended } from '../identity/suspended-work.js';
import { deliveriesOf, newWebhookSecret, scheduleWebhook, secretForAgent } from '../webhooks/index.js';
import { BUNDLE_MAX_URLS, runFetchBundle } from './bundle.js';
import * as store from './store.js';

export const DELAY_MAX_SECONDS = 30 * 24 * 3600;
/** Attempts before a job that keeps failing for transient reasons ends as failed. */
export const JOB_ATTEMPTS = 3;

const CallbackUrl = z.url({ protocol: /^https?$/ }).max(2000).optional().describe('Signed webhook (POST JSON) when the job finishes.');

// One object (MCP tool inputs must be objects) whose required fields depend on `type`.
const JobInput = z
  .object({
    type: z.enum(['fetch_bundle', 'delay']).describe('fetch_bundle or delay.'),
    urls: z.array(z.url({ protocol: /^https?$/ })).min(1).max(BUNDLE_MAX_URLS).optional().describe(`fetch_bundle: up to ${BUNDLE_MAX_URLS} http(s) URLs.`),
    seconds: z.number().int().min(1).max(DELAY_MAX_SECONDS).optional().describe(`delay: seconds to wait (1 to ${DELAY_MAX_SECONDS}, 30 days).`),
    callback_url: CallbackUrl,
  })
  .superRefine((v, ctx) => {
    const need = v.type === 'fetch_bundle' ? 'urls' : 'seconds';
    const other = v.type === 'fetch_bundle' ? 'seconds' : 'urls';
    if (v[need] === undefined) ctx.addIssue({ code: 'custom', path: [need], message: `${v.type} needs ${need}` });
    if (v[other] !== undefined) ctx.addIssue({ code: 'custom', path: [other], message: `${other} does not go with ${v.type}` });
  });

export const JOB_MENU = [
  { type: 'fetch_bundle', description: `Fetch up to ${BUNDLE_MAX_URLS} URLs (4 at a time, 1 MB each, through the egress guard) into one JSON artifact.`, limits: { max_urls: BUNDLE_MAX_URLS, per_url_bytes: 1024 * 1024 } },
  { type: 'delay', description: 'A durable timer: the job finishes when its time comes, across restarts.', limits: { max_seconds: DELAY_MAX_SECONDS } },
];

/**
 * A job's transactions (finish, cancel) check only through guarded statements (they update a row still queued or
 * running), so they are keyed by the job (TxOptions): they wait for each other, not for other areas' transactions.
 */
const jobLock = (id: string): TxOptions => ({ lockKey: `job:${id}` });

export const pollUrl = (ctx: { config: { baseUrl: string } }, id: string): string => `${ctx.config.baseUrl}/jobs/${id}`;

export async function describeJob(ctx: Pick<ToolContext, 'db' | 'config'>, j: store.JobRow) {
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  return {
    job_id: j.id,
    type: j.type,
    status: j.status,
    poll_url: pollUrl(ctx, j.id),
    created_at: iso(j.created_at),
    due_at: iso(j.due_at),
    started_at: iso(j.started_at),
    finished_at: iso(j.finished_at),
    attempts: j.attempts,
    result: j.result === null ? null : (JSON.parse(j.result) as unknown),
    error: j.error,
    callback: j.callback_url ? { deliveries: await deliveriesOf(ctx, 'job', j.id) } : null,
  };
}

const WORK_STATES: Record<store.JobStatus, WorkState> = { queued: 'running', running: 'running', succeeded: 'succeeded', failed: 'failed', canceled: 'canceled' };

/**
 * How an adapter follows a job a call started (an MCP task over job_create): read by id with job_get, whose
 * answer (status, result or error) is the outcome once the job ends; job_cancel stops it while it is queued.
 */
export const jobWork: DurableWork<{ job_id: string }> = {
  read: 'job_get',
  field: 'job_id',
  cancel: 'job_cancel',
  idOf: (r) => r.job_id,
  statusOf: (j) => {
    const at = (k: string) => (typeof j[k] === 'string' ? Date.parse(j[k] as string) : undefined);
    const status = j.status as store.JobStatus;
    const createdAt = at('created_at') ?? 0;
    const dueAt = at('due_at');
    const why = status === 'failed' && typeof j.error === 'string' ? `: ${j.error}` : '';
    const when = status === 'queued' && dueAt !== undefined ? `, due at ${j.due_at as string}` : '';
    return {
      state: WORK_STATES[status] ?? 'running',
      message: `Job ${String(j.job_id)} (${String(j.type)}) is ${status}${when}${why}.`,
      createdAt,
      updatedAt: at('finished_at') ?? at('started_at') ?? createdAt,
      ...(status === 'queued' && dueAt !== undefined ? { dueAt } : {}),
    };
  },
};

export const jobsMenu = defineTool({
  name: 'jobs_menu',
  title: 'Job types',
  toolset: 'jobs',
  description: 'The errand types with their input schemas and limits.',
  input: z.object({}),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: () => ({ types: JOB_MENU, input_schema: z.toJSONSchema(JobInput, { io: 'input' }), statuses: ['queued', 'running', 'succeeded', 'failed', 'canceled'] }),
});

export const jobCreate = defineTool({
  name: 'job_create',
  secretFields: { output: ['callback_secret'] },
  title: 'Start a job',
  toolset: 'jobs',
  description:
    'Starts an errand and returns job_id, status (queued) and poll_url at once. fetch_bundle pulls up to 20 URLs into one ' +
    'hosted artifact; delay is a durable timer. Anonymous jobs are allowed (their callback secret is returned once).',
  input: JobInput,
  auth: 'optional_owner',
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
  durable: jobWork,
  handler: async (input, ctx) => {
    const now = ctx.clock.now();
    const id = `job_${randomBytes(12).toString('base64url')}`;
    const agentId = ctx.caller.agent?.id ?? null;
    if (!agentId) await takeAnonymousCreateOf(ctx, 'jobs', 'Jobs');
    const anonSecret = input.callback_url && !agentId ? newWebhookSecret() : null;
    const dueAt = input.type === 'delay' ? now + input.seconds! * 1000 : now;
    const { callback_url: _c, type: _t, ...params } = input;
    const work = ctx.services.scheduler.enqueueStatement('job', id, dueAt);
    await store.insertJob(ctx.db, { id, agent_id: agentId, type: input.type, input: JSON.stringify(params), callback_url: input.callback_url ?? null, callback_secret: anonSecret, created_at: now, due_at: dueAt }, work.statement);
    work.committed();
    return {
      job_id: id,
      type: input.type,
      status: 'queued' as const,
      poll_url: pollUrl(ctx, id),
      due_at: new Date(dueAt).toISOString(),
      ...(anonSecret ? { callback_secret: anonSecret, notice: 'The callback signing secret is shown only now.' } : {}),
    };
  },
});

export const jobGet = defineTool({
  name: 'job_get',
  title: 'Job status',
  toolset: 'jobs',
  description: 'Status and result of a job (anyone holding its id may read it).',
  input: z.object({ job_id: z.string().min(4).max(64).describe('The job id.') }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const j = await store.jobById(ctx.db, input.job_id);
    if (!j) throw new GatewayError('not_found', 'No such job.');
    return describeJob(ctx, j);
  },
});

export const jobCancel = defineTool({
  name: 'job_cancel',
  title: 'Cancel a job',
  toolset: 'jobs',
  description: 'Cancels one of your queued jobs (a delay not yet due, a bundle not yet started).',
  input: z.object({ job_id: z.string().min(4).max(64).describe('The job id.') }),
  auth: 'owner',
  annotations: { destructiveHint: true, idempotentHint: true },
  handler: async (input, ctx) => {
    const j = await store.jobById(ctx.db, input.job_id);
    if (!j || j.agent_id !== ctx.caller.agent!.id) throw new GatewayError('not_found', 'No such job of yours.');
    const canceled = await ctx.db.transaction(async (tx) => {
      const ok = await store.cancelJob(tx, j.id, ctx.clock.now());
      if (ok) await ctx.services.scheduler.cancel('job', j.id, tx);
      return ok;
    }, jobLock(j.id));
    if (!canceled) throw new GatewayError('conflict', `The job is ${j.status}; only a queued job can be canceled.`, { extra: { status: j.status } });
    ctx.services.bus.emit('job:updated', { jobId: j.id, status: 'canceled' });
    return describeJob(ctx, (await store.jobById(ctx.db, j.id))!);
  },
});

/**
 * Ends a job: stores the outcome with its owner's notification (one write), schedules the callback in the same
 * transaction when there is one, announces it on the bus.
 */
async function finish(ctx: WorkerContext, j: store.JobRow, status: 'succeeded' | 'failed', result: unknown, error: string | null): Promise<void> {
  const now = ctx.clock.now();
  const outcome = { status, result, error };
  const told = { kind: 'job', title: `Job ${j.type} ${status}`, data: { job_id: j.id, status } };
  // Inside the callback's transaction, these statements join it.
  const end = () => (j.agent_id ? store.finishJobNotifying(ctx.db, { id: j.id, agentId: j.agent_id }, outcome, told, now) : store.finishJob(ctx.db, j.id, status, result, error, now));
  const callback = j.callback_url;
  const changed = !callback
    ? await end()
    : await ctx.db.transaction(async (tx) => {
        if (!(await end())) return false;
        const secret = j.callback_secret ?? (await secretForAgent(ctx, j.agent_id!));
        const body = { event: 'job.finished', job_id: j.id, type: j.type, status, result: result ?? null, error, finished_at: new Date(now).toISOString(), poll_url: pollUrl(ctx, j.id) };
        await scheduleWebhook(ctx, { source: 'job', ref: j.id, agentId: j.agent_id, url: callback, body, secret }, tx);
        return true;
      }, jobLock(j.id));
  if (changed) ctx.services.bus.emit('job:updated', { jobId: j.id, status });
}

export const jobKind: WorkKind<WorkerContext> = {
  kind: 'job',
  leaseMs: 5 * 60_000,
  maxAttempts: JOB_ATTEMPTS,
  async run(ref, ctx) {
    const held = await holdIfSuspended(ctx, (await store.jobById(ctx.db, ref))?.agent_id);
    if (held) return held;
    const j = await store.startJob(ctx.db, ref, ctx.clock.now());
    if (!j) return;
    ctx.services.bus.emit('job:updated', { jobId: j.id, status: 'running' });
    const params = JSON.parse(j.input) as { urls?: string[]; seconds?: number };
    if (j.type === 'delay') return finish(ctx, j, 'succeeded', { waited_seconds: params.seconds, due_at: new Date(j.due_at).toISOString() }, null);
    if (j.type === 'fetch_bundle') return finish(ctx, j, 'succeeded', await runFetchBundle(ctx, j.id, params.urls!, j.agent_id), null);
    // research (the MCP-only verb, tools/research): started by the verb only, never by job_create. Its failures are
    // final (no retry): the outcome keeps the error and the sources skipped, with why.
    if (j.type === 'research') {
      // The research engine loads with the first research job, not at start-up.
      const { runResearch } = await import('../research/run.js');
      const out = await runResearch(ctx, j);
      return out.ok ? finish(ctx, j, 'succeeded', out.result, null) : finish(ctx, j, 'failed', out.result, out.error);
    }
    return finish(ctx, j, 'failed', undefined, `unknown job type ${j.type}`);
  },
  async giveUp(ref, error, ctx) {
    const j = await store.jobById(ctx.db, ref);
    if (j) await finish(ctx, j, 'failed', undefined, `failed after ${JOB_ATTEMPTS} attempts: ${error}`);
  },
};

export const jobTools = [jobsMenu, jobCreate, jobGet, jobCancel];
