// When a registered agent asks /ask (or A2A) about something it stored, the answer comes from its memory: the
// question goes to memory_search as it is (relevance, in its own words), and the best entries are the answer. The
// memory is the caller's own, what is shared with it and public entries, as memory_search allows; an anonymous
// caller has no memory to draw on.
import type { ToolContext } from '../../src/registry/types.js';
import type { Ranked } from './catalog.js';
import { QUESTION_MAX } from '../memory/search.js';

/** Words that say the question is about what the caller stored rather than about the gateway. */
const MEMORY_CUE =
  /\b(?:remember|recall|remind me|my (?:notes?|memory|memories|entries)|from memory|in memory|did i|have i|do i (?:know|have)|what (?:do|did) i|i (?:said|wrote|noted|stored|saved|told you))\b/i;

interface MemoryHit {
  owner: string | null;
  namespace: string;
  key: string;
  snippet: string;
  score: number;
  created_at: string;
}

/** How many entries the answer quotes. */
const QUOTED = 3;

export const asksMemory = (q: string): boolean => MEMORY_CUE.test(q);

/** The caller's memory entries most relevant to the question (none for an anonymous caller). */
export async function recall(ctx: ToolContext, q: string): Promise<MemoryHit[]> {
  if (!ctx.caller.agent) return [];
  // A long message (a chat turn) is searched by its first words: the search takes QUESTION_MAX characters, and
  // refusing the chat for a field the caller never named would be wrong.
  const question = q.length <= QUESTION_MAX ? q : q.slice(0, QUESTION_MAX).replace(/\s+\S*$/, '');
  return ((await ctx.call('memory_search', { q: question, limit: QUOTED })) as { results: MemoryHit[] }).results;
}

function asResult(ctx: ToolContext, h: MemoryHit, top: number): Ranked {
  const path = `/memory/${encodeURIComponent(h.namespace)}/${encodeURIComponent(h.key)}`;
  const own = h.owner === ctx.caller.agent?.handle;
  return {
    id: `memory:${h.owner ?? ''}/${h.namespace}/${h.key}`,
    name: `${h.namespace}/${h.key}`,
    kind: 'memory',
    description: `${h.snippet} (written ${h.created_at}${own || !h.owner ? '' : ` by ${h.owner}`})`,
    url: `${ctx.config.baseUrl}${path}${own || !h.owner ? '' : `?handle=${encodeURIComponent(h.owner)}`}`,
    rest: `GET ${path}`,
    mcp: { method: 'tools/call', name: 'memory_get' },
    auth: 'owner',
    price: null,
    score: Math.max(1, Math.round((100 * h.score) / top)),
  };
}

/** The answer from memory: the best entry quoted, the next ones named. */
export function memoryAnswer(ctx: ToolContext, hits: MemoryHit[]): { text: string; results: Ranked[] } {
  const [best, ...more] = hits;
  const text =
    `From your memory, ${best.namespace}/${best.key} (written ${best.created_at}): ${best.snippet}` +
    (more.length ? ` Also: ${more.map((h) => `${h.namespace}/${h.key}`).join(', ')}.` : '');
  return { text, results: hits.map((h) => asResult(ctx, h, best.score)) };
}
