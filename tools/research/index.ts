// The `research` verb (spec: MCP-only verbs, issue 22): a question answered from web sources with numbered
// citations. The work is a job of type 'research' (tools/jobs, run by research/run.ts): a client that accepts a
// task of the MCP Tasks extension gets one at once and follows the job; any other client waits on the request,
// hearing its progress, for the final report. Paid per delivered research: a failed one is never charged.
// Decisions: docs/decisions/research.md.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ERRORS, GatewayError, validationError, type ErrorCode } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { Charge } from '../../src/registry/call-types.js';
import type { DurableWork, Tool, ToolContext } from '../../src/registry/types.js';
import { jobWork, pollUrl } from '../jobs/index.js';
import * as jobs from '../jobs/store.js';
import { Key, Namespace, SCRATCHPAD } from '../memory/limits.js';
import type { ResearchFailure, ResearchParams, ResearchResult } from './run.js';
import { linkAbort, onProgress, waitForJob } from './work.js';

/** Ceiling of max_sources and of the urls given (GATEWAY_RESEARCH_MAX_SOURCES cannot go higher either). */
export const RESEARCH_MAX_SOURCES = 20;
/** How long a call that waits for its research waits before giving up (the job goes on; nothing is charged). */
export const WAIT_MS = 10 * 60_000;
/** How long the process that accepted a task follows its job to settle the payment. */
export const SETTLE_WAIT_MS = 30 * 60_000;

const NOT_CONFIGURED =
  'research needs a search provider to find sources, and none is configured: the operator sets SEARCH_PROVIDER=searxng ' +
  'with SEARCH_BASE_URL (a SearXNG instance with its JSON format on), or SEARCH_PROVIDER=brave with SEARCH_API_KEY ' +
  '(a Brave Search API token). Without one, give the sources yourself in `urls`.';

const ResearchInput = z.object({
  question: z.string().trim().min(3).max(500).describe('The question to research (3-500 characters).'),
  urls: z
    .array(z.url({ protocol: /^https?$/ }).max(2000))
    .min(1)
    .max(RESEARCH_MAX_SOURCES)
    .optional()
    .describe('Read these http(s) pages instead of searching (needed when the gateway has no search provider).'),
  max_sources: z.number().int().min(1).max(RESEARCH_MAX_SOURCES).optional().describe('Most sources to read when searching (default and ceiling: the gateway’s setting, 5 unless changed).'),
  save: z
    .object({
      namespace: Namespace.refine((n) => n !== SCRATCHPAD, 'the report goes into your own memory, not the public scratchpad'),
      key: Key,
    })
    .optional()
    .describe('Also store the report in your memory under namespace/key (agents only).'),
});

const Citation = z.object({
  n: z.number().int().describe('The number the answer cites as [n].'),
  url: z.string(),
  title: z.string().nullable(),
  passage: z.string().describe('The exact passage of the source’s text (Markdown) the citation points to.'),
  source: z.number().int().describe('The source’s number in `sources`.'),
  cited: z.boolean().describe('Whether the answer cites it.'),
});

const Source = z.object({
  n: z.number().int().optional().describe('Number of a source read (citations name it).'),
  url: z.string(),
  title: z.string().nullable(),
  status: z.enum(['read', 'skipped']),
  reason: z.string().optional().describe('Why a source was skipped: robots_disallowed, blocked_address, timeout, upstream_status, empty…'),
  message: z.string().optional(),
});

export const ResearchOutput = z.object({
  job_id: z.string(),
  status: z.literal('succeeded'),
  question: z.string(),
  answer: z.string().describe('The answer, each statement followed by the [n] of its citation.'),
  engine: z.string().describe('"extractive", or "llm:<model>" when a language model wrote the answer from the passages.'),
  ranking: z.enum(['bm25', 'bm25+embeddings']),
  citations: z.array(Citation),
  sources: z.array(Source),
  dropped_citations: z.array(z.number().int()).describe('Citations the model made up (no such passage): removed from the answer.'),
  notes: z.array(z.string()),
  report: z.object({ artifact_id: z.string(), url: z.string(), expires_at: z.string() }).describe('The Markdown report, an artifact.'),
  saved: z.object({ namespace: z.string(), key: z.string(), version: z.number().int() }).optional(),
  save_error: z.object({ code: z.string(), message: z.string() }).optional(),
});

/** The error a failed research job ended with, as the gateway error it was. */
function failure(row: jobs.JobRow): GatewayError {
  const out = (row.result ? JSON.parse(row.result) : null) as ResearchFailure | null;
  const code = out?.error.code && out.error.code in ERRORS ? (out.error.code as ErrorCode) : 'upstream_error';
  return new GatewayError(code, out?.error.message ?? row.error ?? 'The research failed.', {
    extra: { job_id: row.id, ...(out?.error.reason ? { reason: out.error.reason } : {}), sources: out?.sources ?? [] },
  });
}

/** Commits the held payment when the job succeeds, releases it when it fails, is canceled or is not seen to end. */
async function settleWhenDone(ctx: ToolContext, id: string, charge: Charge): Promise<void> {
  let row: jobs.JobRow | undefined;
  try {
    row = await waitForJob(ctx, id, { timeoutMs: SETTLE_WAIT_MS });
  } catch (err) {
    // The database went away (shutdown): the job resumes elsewhere, and this reservation is neither kept nor paid.
    ctx.log.warn({ err, job: id }, 'research: the payment could not be settled');
    return;
  }
  try {
    if (row?.status === 'succeeded') await charge.commit(ctx.meta);
    else await charge.release();
  } catch (err) {
    ctx.log.error({ err, job: id }, 'research: settling the payment failed');
  }
}

/** A research task ends with the research's own answer (the job's result), as the call would have given it. */
const researchWork: DurableWork<{ job_id: string }> = {
  ...jobWork,
  resultOf: (j) => (j.result && typeof j.result === 'object' && !Array.isArray(j.result) ? (j.result as Record<string, unknown>) : j),
};

export const research = defineTool({
  name: 'research',
  title: 'Research a question',
  toolset: 'verbs',
  description:
    'Answers a question from web sources with numbered citations [n], each pointing to the exact passage it came from. ' +
    'Finds sources with the gateway’s search provider, or reads the `urls` you give; reads them in parallel (robots.txt ' +
    'honoured), ranks their passages, and answers extractively or, when the gateway has a language model, in the model’s ' +
    'words checked against the passages. Keeps the report as a Markdown artifact; `save` also stores it in your memory. ' +
    'Runs as a task for clients of the Tasks extension. Paid; a failed research is not charged.',
  input: ResearchInput,
  output: ResearchOutput,
  auth: 'paid',
  price: { usd: '0.05' },
  expose: { mcpOnly: true },
  annotations: { readOnlyHint: false, openWorldHint: true, idempotentHint: false },
  durable: researchWork,
  handler: async (input, ctx) => {
    const cap = ctx.config.research.maxSources;
    if (!input.urls && !ctx.config.search) {
      throw new GatewayError('validation_error', NOT_CONFIGURED, {
        extra: { reason: 'search_not_configured' },
        detail: [{ loc: ['urls'], msg: 'Required when the gateway has no search provider (SEARCH_PROVIDER).', type: 'missing' }],
      });
    }
    if (input.urls && input.urls.length > cap) {
      throw validationError([{ loc: ['urls'], msg: `At most ${cap} urls on this gateway (GATEWAY_RESEARCH_MAX_SOURCES).`, type: 'too_big' }]);
    }
    const agent = ctx.caller.agent;
    if (input.save && !agent) {
      throw new GatewayError('unauthorized', '`save` stores the report in your memory: send Authorization: Bearer <AGENT_SECRET>.', {
        headers: { 'WWW-Authenticate': 'Bearer realm="agent-gateway"' },
      });
    }
    const params: ResearchParams = {
      question: input.question,
      // The research engine (run.js and what it reads with) loads with the first research call, not at start-up.
      ...(input.urls ? { urls: input.urls } : { max_sources: (await import('./run.js')).sourcesWanted(ctx, input) }),
      ...(input.save ? { save: input.save } : {}),
    };
    const now = ctx.clock.now();
    const id = `job_${randomBytes(12).toString('base64url')}`;
    const insert = async () => {
      const work = ctx.services.scheduler.enqueueStatement('job', id, now);
      await jobs.insertJob(ctx.db, { id, agent_id: agent?.id ?? null, type: 'research', input: JSON.stringify(params), callback_url: null, callback_secret: null, created_at: now, due_at: now }, work.statement);
      work.committed();
    };

    if (ctx.followsWork) {
      // The client follows the job as a task: answer its handle now; the payment waits for the job's outcome.
      await insert();
      const charge = ctx.holdCharge();
      if (charge) void settleWhenDone(ctx, id, charge);
      return { job_id: id, type: 'research', status: 'queued' as const, poll_url: pollUrl(ctx, id), question: input.question };
    }

    // Otherwise the call waits for the job, passing its progress on; a client that goes away stops its reading.
    const stopProgress = ctx.progress ? onProgress(id, (done, total, message) => ctx.progress!(done, total, message)) : () => undefined;
    const unlink = linkAbort(id, ctx.signal);
    try {
      await insert();
      let row: jobs.JobRow | undefined;
      try {
        row = await waitForJob(ctx, id, { signal: ctx.signal, timeoutMs: WAIT_MS });
      } catch (err) {
        if (ctx.signal?.aborted) throw new GatewayError('upstream_error', 'The call was canceled before the research ended.', { extra: { reason: 'canceled', job_id: id } });
        throw err;
      }
      if (!row) throw new GatewayError('unavailable', `The research is taking too long; it goes on as job ${id} (job_get), uncharged.`, { extra: { job_id: id } });
      if (row.status === 'succeeded') return JSON.parse(row.result!) as ResearchResult;
      if (row.status === 'canceled') throw new GatewayError('conflict', 'The research job was canceled.', { extra: { job_id: id } });
      throw failure(row);
    } finally {
      stopProgress();
      unlink();
    }
  },
});

export const researchTools: Tool[] = [research];
