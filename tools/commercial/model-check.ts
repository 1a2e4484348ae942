// The content services need the operator's language model: without one they answer 503 before any hold.
import { GatewayError } from '../../src/errors.js';
import type { WorkerContext } from '../../src/registry/types.js';
import type { LlmSettings } from './content/index.js';

export function modelOf(ctx: Pick<WorkerContext, 'config'>): LlmSettings {
  const llm = ctx.config.llm;
  if (!llm?.model) {
    throw new GatewayError('model_not_configured', 'This service writes with a language model and none is configured: the operator sets LLM_BASE_URL and LLM_MODEL. Nothing was charged.');
  }
  return llm;
}
