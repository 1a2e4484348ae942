// Agent templates: declarative recipes of registry tool calls with parameters, curated in
// resources/content/agent-templates.json. This file lists them, shows one and turns its parameter spec
// into a validator; run.ts executes them.
import { z } from 'zod';
import { numberInput } from '../../src/registry/number-input.js';
import { loadContent } from '../../src/content.js';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { AuthRule, ToolContext } from '../../src/registry/types.js';
import { SCRATCHPAD } from '../memory/limits.js';
import { withBase } from './content.js';

export interface ParamSpec {
  type: 'string' | 'integer' | 'number' | 'boolean';
  description: string;
  required?: boolean;
  default?: string | number | boolean;
  min?: number;
  max?: number;
}

export interface TemplateStep {
  id: string;
  tool: string;
  input?: Record<string, unknown>;
  why?: string;
}

export interface AgentTemplate {
  slug: string;
  title: string;
  summary: string;
  description: string;
  needs: string;
  params: Record<string, ParamSpec>;
  steps: TemplateStep[];
}

export const agentTemplates = (ctx: Pick<ToolContext, 'config'>): AgentTemplate[] =>
  loadContent<{ templates: AgentTemplate[] }>('agent-templates', ctx.config.dataDir).templates;

export function templateBySlug(ctx: Pick<ToolContext, 'config'>, slug: string): AgentTemplate {
  const t = agentTemplates(ctx).find((x) => x.slug === slug);
  if (!t) throw new GatewayError('not_found', `No agent template "${slug}"; GET /agents/templates lists them.`);
  return t;
}

function paramSchema(p: ParamSpec): z.ZodType {
  let s: z.ZodType;
  if (p.type === 'string') {
    let str = z.string().max(p.max ?? 2000);
    if (p.required) str = str.min(p.min ?? 1);
    s = str;
  } else if (p.type === 'boolean') {
    s = z.boolean();
  } else {
    let n = p.type === 'integer' ? z.number().int() : z.number();
    if (p.min !== undefined) n = n.min(p.min);
    if (p.max !== undefined) n = n.max(p.max);
    s = numberInput(n);
  }
  if (p.default !== undefined) return s.default(p.default as never);
  return p.required ? s : s.optional();
}

/** What running a template asks of the caller: an agent's secret when any step calls an owner-only tool. */
export interface RequiredAuth {
  credential: 'agent_secret';
  header: 'Authorization: Bearer <AGENT_SECRET>';
  /** The steps that act as the agent (the first one stops an anonymous run). */
  steps: { index: number; id: string; tool: string }[];
}

/**
 * Whether a step acts as the agent: its tool is owner-only, or it reaches the caller's own memory namespace
 * (without a secret, memory takes only the public scratchpad).
 */
function actsAsAgent(auth: AuthRule | undefined, step: TemplateStep): boolean {
  if (auth === 'owner') return true;
  const input = step.input ?? {};
  return auth === 'optional_owner' && typeof input.namespace === 'string' && input.namespace !== SCRATCHPAD && input.handle === undefined;
}

/** Derived from the tools' own auth rules, so it cannot drift from what the steps will demand. */
export function requiredAuth(ctx: Pick<ToolContext, 'services'>, t: AgentTemplate): RequiredAuth | null {
  const auth = new Map(ctx.services.listTools().map((tool) => [tool.name, tool.auth]));
  const steps = t.steps.flatMap((s, i) => (actsAsAgent(auth.get(s.tool), s) ? [{ index: i + 1, id: s.id, tool: s.tool }] : []));
  return steps.length ? { credential: 'agent_secret', header: 'Authorization: Bearer <AGENT_SECRET>', steps } : null;
}

/** The validator of a template's params (unknown params are refused). */
export const paramsValidator = (t: AgentTemplate) => z.strictObject(Object.fromEntries(Object.entries(t.params).map(([k, p]) => [k, paramSchema(p)])));

function describe(ctx: ToolContext, t: AgentTemplate) {
  const base = ctx.config.baseUrl;
  return withBase(
    {
      slug: t.slug,
      title: t.title,
      summary: t.summary,
      description: t.description,
      needs: t.needs,
      requires_auth: requiredAuth(ctx, t),
      params: t.params,
      steps: t.steps.map((s, i) => ({ index: i + 1, id: s.id, tool: s.tool, input: s.input ?? {}, why: s.why ?? null })),
      run: { rest: `POST ${base}/agents/templates/${t.slug}/run`, body: { params: Object.fromEntries(Object.keys(t.params).map((k) => [k, `<${t.params[k].type}>`])) }, mcp: 'agent_template_run' },
      url: `${base}/agents/templates/${t.slug}`,
    },
    base,
  );
}

export const agentTemplateList = defineTool({
  name: 'agent_templates',
  title: 'Agent templates',
  toolset: 'catalog',
  description:
    'Executing agent templates: recipes of tool calls (e.g. a topic digest, resuming a session) you can run in one call. ' +
    "requires_auth names the credential a template needs (an agent's Bearer secret) and the steps that need it; null when none.",
  input: z.object({}),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: (_input, ctx) => {
    const all = agentTemplates(ctx);
    return {
      templates: all.map((t) => ({
        slug: t.slug,
        title: t.title,
        summary: t.summary,
        needs: t.needs,
        requires_auth: requiredAuth(ctx, t),
        steps: t.steps.length,
        url: `${ctx.config.baseUrl}/agents/templates/${t.slug}`,
      })),
      count: all.length,
    };
  },
});

export const agentTemplateGet = defineTool({
  name: 'agent_template_get',
  title: 'One agent template',
  toolset: 'catalog',
  description: 'One agent template: its parameters and every step (tool and input, with {{params.x}} and {{steps.id.field}} references).',
  input: z.object({ slug: z.string().trim().toLowerCase().min(1).max(80).describe('The template slug.') }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: (input, ctx) => describe(ctx, templateBySlug(ctx, input.slug)),
});
