// Running an agent template: each step calls a registry tool live, as the caller (same credentials, same
// quota and payment rules), with its input filled from the params and earlier results. The first failing
// step stops the run; the error names it and carries the results of the steps before it.
import { z } from 'zod';
import { GatewayError, toGatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { zodIssuesToDetail } from '../../src/registry/registry.js';
import type { ToolContext } from '../../src/registry/types.js';
import { award } from '../xp/award.js';
import { interpolate } from './interpolate.js';
import { recordTemplateRun } from './store.js';
import { paramsValidator, requiredAuth, templateBySlug, type AgentTemplate } from './templates.js';

/** Tools a template may not call: no recursion, and nothing that removes the agent or its secret. */
const FORBIDDEN = new Set(['agent_template_run', 'agent_delete', 'agent_rotate_secret', 'batch']);

interface StepResult {
  index: number;
  id: string;
  tool: string;
  result: unknown;
}

function stepFailure(t: AgentTemplate, index: number, completed: StepResult[], err: unknown): GatewayError {
  const ge = toGatewayError(err);
  const step = t.steps[index];
  return new GatewayError(ge.code, `Step ${index + 1} "${step.id}" (${step.tool}) failed: ${ge.message}`, {
    headers: ge.headers,
    payment: ge.payment,
    detail: ge.detail?.map((d) => ({ ...d, loc: ['step', step.id, ...d.loc] })),
    extra: { template: t.slug, failed_step: { index: index + 1, id: step.id, tool: step.tool, error: ge.toBody().error }, completed },
  });
}

/**
 * An anonymous caller is stopped before the first step when a step acts as an agent, so a run never half-happens
 * (a public step done, then a 401); the error names the template's need and the step that has it.
 */
function refuseAnonymous(ctx: ToolContext, t: AgentTemplate): void {
  const need = requiredAuth(ctx, t);
  // A wrong secret is left to the step, which says so (403).
  if (!need || ctx.caller.agent || ctx.caller.badBearer) return;
  const first = need.steps[0];
  const message =
    `The template "${t.slug}" needs an agent's secret: send it as ${need.header} (register at POST /agents/register). ` +
    `Step ${first.index} "${first.id}" (${first.tool}) acts as the agent.`;
  const failedStep = { ...first, error: { code: 'unauthorized', message } };
  throw Object.assign(
    new GatewayError('unauthorized', message, {
      headers: { 'WWW-Authenticate': 'Bearer realm="agent-gateway"' },
      extra: { template: t.slug, requires_auth: need, failed_step: failedStep, completed: [] },
    }),
    { failedStep: first.id },
  );
}

async function execute(ctx: ToolContext, t: AgentTemplate, params: Record<string, unknown>) {
  const scope = { params, steps: {} as Record<string, unknown>, caller: { handle: ctx.caller.agent?.handle }, gateway: { base_url: ctx.config.baseUrl } };
  const completed: StepResult[] = [];
  for (let i = 0; i < t.steps.length; i++) {
    const step = t.steps[i];
    try {
      if (FORBIDDEN.has(step.tool)) throw new GatewayError('forbidden', `Templates may not call ${step.tool}.`);
      const result = await ctx.call(step.tool, interpolate(step.input ?? {}, scope));
      scope.steps[step.id] = result;
      completed.push({ index: i + 1, id: step.id, tool: step.tool, result });
    } catch (err) {
      throw Object.assign(stepFailure(t, i, completed, err), { failedStep: step.id });
    }
  }
  return completed;
}

export const agentTemplateRun = defineTool({
  name: 'agent_template_run',
  title: 'Run an agent template',
  toolset: 'catalog',
  description:
    'Executes an agent template live: each step calls a registry tool with your credentials and returns its result. The ' +
    'first failing step stops the run; the error names the step (failed_step) and includes the completed steps. A template ' +
    "whose requires_auth is set needs an agent's secret (Authorization: Bearer): without it the run stops before any step (401).",
  input: z.object({
    slug: z.string().trim().toLowerCase().min(1).max(80).describe('The template slug.'),
    params: z.record(z.string(), z.unknown()).default({}).describe('The template parameters (GET /agents/templates/{slug} lists them).'),
  }),
  auth: 'public',
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
  handler: async (input, ctx) => {
    const t = templateBySlug(ctx, input.slug);
    const parsed = paramsValidator(t).safeParse(input.params);
    if (!parsed.success) {
      throw new GatewayError('validation_error', 'The template parameters are not valid.', {
        detail: zodIssuesToDetail(parsed.error, input.params).map((d) => ({ ...d, loc: ['body', 'params', ...d.loc] })),
      });
    }
    // Refused before it starts, it is no run: nothing is recorded (an anonymous caller could fill the table).
    refuseAnonymous(ctx, t);
    const agentId = ctx.caller.agent?.id ?? null;
    const now = () => ctx.clock.now();
    try {
      const steps = await execute(ctx, t, parsed.data);
      await recordTemplateRun(ctx.db, { agentId, slug: t.slug, ok: true, failedStep: null, now: now() });
      if (agentId) await award(ctx, agentId, [{ rule: 'template_run', ref: t.slug }]).catch((err: unknown) => ctx.log.warn({ err }, 'template XP failed'));
      return { template: t.slug, ok: true, params: parsed.data, steps };
    } catch (err) {
      const failed = (err as { failedStep?: string }).failedStep ?? null;
      await recordTemplateRun(ctx.db, { agentId, slug: t.slug, ok: false, failedStep: failed, now: now() }).catch(() => undefined);
      throw err;
    }
  },
});
