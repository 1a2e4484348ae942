// Semantic search when an OpenAI-compatible embeddings endpoint is configured: the query's vector is
// compared with the caller's visible entries and the ranking is fused with BM25 (reciprocal rank fusion).
// Without an endpoint this is a pass-through and search stays lexical.
import { embed } from '../../src/llm/openai-client.js';
import type { ToolContext } from '../../src/registry/types.js';
import type { SearchHit } from './store/search.js';
import { hitsByIds, visibleVectors } from './store/embeddings.js';

/** How many recent visible vectors a query is compared with. */
const VECTOR_CANDIDATES = 5000;
const RRF_K = 60;

export const toVector = (b: Buffer): Float32Array => new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);

function cosine(a: Float32Array | number[], b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < b.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** The lexical hits fused with the entries nearest in meaning (reciprocal rank fusion); `score` becomes the fused one. */
export async function semanticRerank(ctx: ToolContext, q: string, hits: SearchHit[], { limit, namespace }: { limit: number; namespace: string | null }): Promise<SearchHit[]> {
  const cfg = ctx.config.embeddings;
  if (!cfg) return hits;
  let query: number[];
  try {
    [query] = await embed(cfg, [q]);
  } catch (err) {
    ctx.log.warn({ err }, 'embeddings endpoint failed; lexical search only');
    return hits;
  }
  const callerId = ctx.caller.agent?.id ?? null;
  const vectors = await visibleVectors(ctx.db, { callerId, namespace, limit: VECTOR_CANDIDATES, now: ctx.clock.now() });
  const bySimilarity = vectors
    .map((v) => ({ id: v.id, sim: cosine(query, toVector(v.vector)) }))
    .sort((a, b) => b.sim - a.sim)
    .slice(0, limit);
  const score = new Map<number, number>();
  hits.forEach((h, i) => score.set(h.id, 1 / (RRF_K + i + 1)));
  bySimilarity.forEach((v, i) => score.set(v.id, (score.get(v.id) ?? 0) + 1 / (RRF_K + i + 1)));
  const known = new Map(hits.map((h) => [h.id, h]));
  const extra = await hitsByIds(ctx.db, bySimilarity.map((v) => v.id).filter((id) => !known.has(id)));
  for (const e of extra) known.set(e.id, { ...e, score: 0 });
  return [...known.values()]
    .sort((a, b) => (score.get(b.id) ?? 0) - (score.get(a.id) ?? 0))
    .slice(0, limit)
    .map((h) => ({ ...h, score: (score.get(h.id) ?? 0) * 100 }));
}
