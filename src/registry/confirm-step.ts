// The confirmation step of the call pipeline: before a tool acts, the person confirms what the tool asks
// (deleting an agent, forgetting memory for real) and any paid call priced above the threshold the caller set.
// It runs after validation and before any charge or side effect, so asking again on a retried request
// (an MCP input_required round trip) repeats nothing.
import { GatewayError } from '../errors.js';
import type { Confirmation, Confirmer } from './call-types.js';
import type { Tool } from './types.js';

function questionFor(tool: Tool, args: unknown, aboveUsd: number | undefined): Confirmation | null {
  const own = tool.confirm?.(args) ?? null;
  if (own) return own;
  if (aboveUsd === undefined || !tool.price || Number(tool.price.usd) <= aboveUsd) return null;
  return { message: `${tool.title ?? tool.name} costs $${tool.price.usd} per call, above the $${aboveUsd} you asked to confirm. Pay and go on?` };
}

export async function confirmBeforeActing(tool: Tool, args: unknown, confirmer: Confirmer | undefined): Promise<void> {
  // A client that cannot fill forms is not asked: its explicit arguments are the consent, as on REST.
  if (!confirmer || confirmer.canAnswer?.('form') === false) return;
  const q = questionFor(tool, args, confirmer.aboveUsd);
  if (!q) return;
  const answer = await confirmer.ask(q);
  if (answer === 'declined') throw new GatewayError('declined');
  if (answer === 'pending') throw new GatewayError('confirmation_required', q.message, { extra: { confirmation: q } });
}
