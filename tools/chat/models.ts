// GET /v1/models: gateway-local always, then the upstream's models when LLM_BASE_URL is set (its list is
// cached for a minute; when it cannot be read, LLM_MODEL stands in for it).
import { listModels, type UpstreamModel } from '../../src/llm/openai-client.js';
import { LOCAL_MODEL } from '../../src/llm/local-engine.js';
import type { ToolContext } from '../../src/registry/types.js';

const CACHE_MS = 60_000;
/** A fixed creation time for gateway-local (2026-01-01), so the list is stable. */
const LOCAL_CREATED = 1_767_225_600;

const cache = new WeakMap<object, { at: number; models: UpstreamModel[] }>();

async function upstreamModels(ctx: ToolContext): Promise<UpstreamModel[]> {
  const llm = ctx.config.llm;
  if (!llm) return [];
  const hit = cache.get(ctx.services);
  if (hit && ctx.clock.now() - hit.at < CACHE_MS) return hit.models;
  try {
    const models = await listModels(llm, ctx.signal);
    cache.set(ctx.services, { at: ctx.clock.now(), models });
    return models;
  } catch (err) {
    ctx.log.warn({ err }, 'could not list the upstream models');
    return llm.model ? [{ id: llm.model }] : [];
  }
}

export async function modelList(ctx: ToolContext) {
  const data = [{ id: LOCAL_MODEL, object: 'model', created: LOCAL_CREATED, owned_by: 'agent-gateway' }];
  for (const m of await upstreamModels(ctx)) {
    if (m.id === LOCAL_MODEL) continue;
    data.push({ id: m.id, object: 'model', created: m.created ?? 0, owned_by: m.owned_by ?? 'upstream' });
  }
  return { object: 'list', data };
}
