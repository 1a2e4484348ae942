// The research job (type 'research' of tools/jobs): find the sources (the search provider, or the URLs given),
// read them through browse in parallel, rank their passages against the question, answer with numbered
// citations, keep the report as a Markdown artifact and, when asked, in the owner's memory. The job runner
// (tools/jobs/index.ts) stores what this returns as the job's outcome.
import { contentOf } from '../../src/blobs/content.js';
import { GatewayError, toGatewayError } from '../../src/errors.js';
import type { ToolContext } from '../../src/registry/types.js';
import type { WorkerContext } from '../../src/workers.js';
import { AGENT_MAX_TTL, ANON_MAX_TTL, storeArtifact } from '../artifacts/service.js';
import { browserOf } from '../browse/index.js';
import type { JobRow } from '../jobs/store.js';
import { putOne } from '../memory/entries.js';
import { answer, citedIn, type Numbered } from './answer.js';
import { rankPassages, splitPassages, PASSAGES_MAX, type Passage } from './passages.js';
import { reportMarkdown, type ReportCitation, type ReportSource } from './report.js';
import { searchWeb } from './search.js';
import { jobSignal, reportProgress } from './work.js';

/** Sources read at once. */
export const READ_CONCURRENCY = 5;
/** The reading phase stops after this long; sources not read by then are skipped with reason `deadline`. */
export const READ_DEADLINE_MS = 90_000;
/** With a search provider, up to this many results per source wanted, so a failing result can be replaced. */
const CANDIDATES_PER_SOURCE = 2;

export interface ResearchParams {
  question: string;
  urls?: string[];
  max_sources?: number;
  save?: { namespace: string; key: string };
}

export interface ResearchResult {
  job_id: string;
  status: 'succeeded';
  question: string;
  answer: string;
  engine: string;
  ranking: 'bm25' | 'bm25+embeddings';
  citations: ReportCitation[];
  sources: ReportSource[];
  dropped_citations: number[];
  notes: string[];
  report: { artifact_id: string; url: string; expires_at: string };
  saved?: { namespace: string; key: string; version: number };
  save_error?: { code: string; message: string };
}

/** What a failed research leaves in the job's result: its error, and the sources with why each was skipped. */
export interface ResearchFailure {
  error: { code: string; message: string; reason?: string };
  sources: ReportSource[];
}

export type ResearchOutcome = { ok: true; result: ResearchResult } | { ok: false; error: string; result: ResearchFailure };

/** How many sources a call reads at most: its max_sources, never beyond the gateway's GATEWAY_RESEARCH_MAX_SOURCES. */
export const sourcesWanted = (ctx: Pick<WorkerContext, 'config'>, p: Pick<ResearchParams, 'max_sources'>): number =>
  Math.min(p.max_sources ?? ctx.config.research.maxSources, ctx.config.research.maxSources);

interface Candidate {
  url: string;
  title: string | null;
}

interface Read {
  url: string;
  finalUrl: string;
  title: string | null;
  content: string;
}

type Tried = { ok: true; read: Read } | { ok: false; source: ReportSource };

function skipped(url: string, title: string | null, err: unknown): ReportSource {
  const ge = toGatewayError(err);
  const reason = typeof ge.extra.reason === 'string' ? ge.extra.reason : ge.code;
  return { url, title, status: 'skipped', reason, message: ge.code === 'internal_error' ? 'The page could not be read.' : ge.message };
}

class Progress {
  private done = 0;
  private total: number;
  constructor(private readonly id: string, expected: number) {
    this.total = expected;
  }
  step(message: string): void {
    this.done++;
    this.total = Math.max(this.total, this.done + 1);
    reportProgress(this.id, this.done, this.total, message);
  }
  end(message: string): void {
    this.done++;
    reportProgress(this.id, this.done, this.done, message);
  }
}

/** The sources to read: the URLs given (each once), or the search provider's results. */
async function candidatesFor(ctx: WorkerContext, p: ResearchParams, want: number, signal: AbortSignal | undefined): Promise<Candidate[]> {
  if (p.urls?.length) {
    const seen = new Set<string>();
    const out: Candidate[] = [];
    for (const u of p.urls) {
      let key = u;
      try {
        const parsed = new URL(u);
        parsed.hash = '';
        key = parsed.href;
      } catch {
        // browse answers a URL it cannot parse with its own error, listed as skipped
      }
      if (!seen.has(key)) out.push({ url: key, title: null });
      seen.add(key);
    }
    return out;
  }
  if (!ctx.config.search) throw new GatewayError('validation_error', 'No search provider is configured and no urls were given.');
  const hits = await searchWeb(ctx.config.search, p.question, want * CANDIDATES_PER_SOURCE, signal);
  if (!hits.length) throw new GatewayError('not_found', `The search provider (${ctx.config.search.provider}) found no sources for this question.`, { extra: { reason: 'no_results' } });
  return hits.map((h) => ({ url: h.url, title: h.title }));
}

/**
 * Reads candidates through browse, READ_CONCURRENCY at a time, until `want` are read or none is left: a source
 * that fails (robots.txt, a refused address, a timeout, an empty page) is recorded and the next candidate taken.
 */
async function readSources(
  ctx: WorkerContext,
  candidates: Candidate[],
  want: number,
  signal: AbortSignal,
  client: AbortSignal | undefined,
  progress: Progress,
): Promise<(Tried | undefined)[]> {
  const tried: (Tried | undefined)[] = new Array(candidates.length);
  const browser = browserOf(ctx);
  let next = 0;
  let read = 0;
  let reading = 0;
  const lane = async () => {
    while (next < candidates.length && read + reading < want && !signal.aborted) {
      const i = next++;
      const c = candidates[i]!;
      reading++;
      try {
        const page = await browser.browse(c.url, 'markdown', undefined, ctx.clock.now(), signal);
        const content = page.content.slice(0, ctx.config.browse.maxChars);
        if (!/[\p{L}\p{N}]/u.test(content)) throw new GatewayError('unsupported_media_type', 'The page has no readable text.', { extra: { reason: 'empty' } });
        tried[i] = { ok: true, read: { url: c.url, finalUrl: page.finalUrl, title: page.title ?? c.title, content } };
        read++;
        progress.step(`Read ${c.url}`);
      } catch (err) {
        const deadline = signal.aborted && !client?.aborted;
        tried[i] = { ok: false, source: deadline ? { url: c.url, title: c.title, status: 'skipped', reason: 'deadline', message: 'The reading time ran out.' } : skipped(c.url, c.title, err) };
        progress.step(`Skipped ${c.url}`);
      } finally {
        reading--;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(READ_CONCURRENCY, want, candidates.length)) }, lane));
  return tried;
}

/** Writes the report into the owner's memory with memory's own write (its limits and errors), as that owner. */
async function saveToMemory(ctx: WorkerContext, agentId: string, save: { namespace: string; key: string }, value: Record<string, unknown>) {
  const asOwner: ToolContext = {
    ...ctx,
    caller: { agent: { id: agentId, handle: '' }, badBearer: false, credentials: { ip: 'internal', transport: 'internal' } },
    meta: { headers: {}, meta: {} },
    call: () => Promise.reject(new GatewayError('internal_error')),
    holdCharge: () => null,
  };
  const out = await putOne(asOwner, { ownerId: agentId, ownerHandle: null, namespace: save.namespace, access: 'owner' }, { namespace: save.namespace, key: save.key, value: value as never, tags: ['research'] });
  ctx.services.bus.emit('memory:changed', { ownerId: agentId });
  return { namespace: save.namespace, key: save.key, version: out.version };
}

export async function runResearch(ctx: WorkerContext, job: JobRow): Promise<ResearchOutcome> {
  const p = JSON.parse(job.input) as ResearchParams;
  let sources: ReportSource[] = [];
  try {
    const want = p.urls?.length ? p.urls.length : sourcesWanted(ctx, p);
    const progress = new Progress(job.id, want + 4);
    const client = jobSignal(job.id);
    const candidates = await candidatesFor(ctx, p, want, client);
    progress.step(p.urls?.length ? `Reading ${candidates.length} sources` : `Found ${candidates.length} candidate sources`);

    const signal = AbortSignal.any([...(client ? [client] : []), AbortSignal.timeout(READ_DEADLINE_MS)]);
    const tried = await readSources(ctx, candidates, Math.min(want, candidates.length), signal, client, progress);
    if (client?.aborted) throw new GatewayError('conflict', 'The research was stopped: the caller went away before it ended.', { extra: { reason: 'canceled' } });

    // Sources in the order of the candidates; the read ones numbered 1… in that order.
    const reads: Read[] = [];
    sources = [];
    tried.forEach((t) => {
      if (!t) return;
      if (t.ok) {
        reads.push(t.read);
        sources.push({ n: reads.length, url: t.read.finalUrl, title: t.read.title, status: 'read' });
      } else sources.push(t.source);
    });
    if (!reads.length) {
      throw new GatewayError('upstream_error', `None of the ${sources.length} sources could be read (${[...new Set(sources.map((s) => s.reason))].join(', ')}); nothing was charged.`, {
        extra: { reason: 'no_source_read' },
      });
    }

    const passages: Passage[] = reads.flatMap((r, i) => splitPassages(r.content, i)).slice(0, PASSAGES_MAX);
    const ranking = await rankPassages(passages, p.question, { embeddings: ctx.config.embeddings });
    progress.step(`Ranked ${passages.length} passages`);

    const numbered: Numbered[] = ranking.top.map((x, k) => ({ n: k + 1, text: x.text, title: reads[x.source]!.title, url: reads[x.source]!.finalUrl }));
    const ans = await answer(p.question, numbered, ctx.config.llm, client);
    progress.step(ans.engine === 'extractive' ? 'Extracted the answer' : 'The model wrote the answer');

    const cited = citedIn(ans.text, numbered.length);
    const citations: ReportCitation[] = ranking.top.map((x, k) => ({ n: k + 1, url: reads[x.source]!.finalUrl, title: reads[x.source]!.title, passage: x.text, source: x.source + 1, cited: cited.has(k + 1) }));
    const notes = [ranking.note, ans.note].filter((n): n is string => !!n);
    const at = new Date(ctx.clock.now()).toISOString();
    const md = reportMarkdown({ question: p.question, answer: ans.text, engine: ans.engine, ranking: ranking.method, at, citations, sources, dropped: ans.dropped, notes });
    const artifact = await storeArtifact(ctx, {
      content: contentOf(Buffer.from(md)),
      contentType: 'text/markdown; charset=utf-8',
      filename: `${job.id}-research.md`,
      ttlSeconds: job.agent_id ? AGENT_MAX_TTL : ANON_MAX_TTL,
      agentId: job.agent_id,
      source: 'research',
    });
    const result: ResearchResult = {
      job_id: job.id,
      status: 'succeeded',
      question: p.question,
      answer: ans.text,
      engine: ans.engine,
      ranking: ranking.method,
      citations,
      sources,
      dropped_citations: ans.dropped,
      notes,
      report: { artifact_id: artifact.id, url: artifact.url, expires_at: artifact.expires_at },
    };
    if (p.save && job.agent_id) {
      try {
        result.saved = await saveToMemory(ctx, job.agent_id, p.save, {
          question: p.question,
          answer: ans.text,
          engine: ans.engine,
          citations: citations.filter((c) => c.cited).map(({ n, url, title }) => ({ n, url, title })),
          report_url: artifact.url,
          job_id: job.id,
          researched_at: at,
          report: md,
        });
      } catch (err) {
        // The research is delivered (answer and artifact); the memory write's refusal is reported beside it.
        const ge = toGatewayError(err);
        result.save_error = { code: ge.code, message: ge.code === 'internal_error' ? 'The memory write failed.' : ge.message };
      }
    }
    progress.end('Done');
    return { ok: true, result };
  } catch (err) {
    const ge = toGatewayError(err);
    if (ge.code === 'internal_error') ctx.log.error({ err, job: job.id }, 'research failed');
    const message = ge.code === 'internal_error' ? 'The research failed.' : ge.message;
    return { ok: false, error: message, result: { error: { code: ge.code, message, ...(typeof ge.extra.reason === 'string' ? { reason: ge.extra.reason } : {}) }, sources } };
  }
}
