// The `coach` verb (spec: MCP-only verbs): reads the caller's own state and answers the next few actions that
// matter most for an optional goal, each as the exact tool call to make. The ranking is the rules of
// coach-rules.ts; a configured language model only rephrases it (it never adds or reorders actions).
import { z } from 'zod';
import { chat } from '../../src/llm/openai-client.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import { plainText, rankActions, type CoachAction } from './coach-rules.js';
import { readState } from './coach-state.js';

const Action = z.object({ tool: z.string(), arguments: z.record(z.string(), z.unknown()), why: z.string() });

const CoachOutput = z.object({
  handle: z.string(),
  goal: z.string().nullable(),
  actions: z.array(Action),
  text: z.string(),
  engine: z.string().describe('"rules", or "llm:<model>" when a language model phrased the text.'),
  state: z.record(z.string(), z.unknown()),
});

/** The text: phrased by the configured model when there is one, else (or when it fails) the rules' own lines. */
async function phrase(ctx: ToolContext, actions: CoachAction[], goal: string | undefined): Promise<{ text: string; engine: string }> {
  const plain = plainText(actions);
  const llm = ctx.config.llm;
  if (!llm?.model || !actions.length) return { text: plain, engine: 'rules' };
  try {
    const text = await chat({ ...llm, model: llm.model }, [
      { role: 'system', content: 'Rewrite this numbered plan as brief, friendly advice to an AI agent. Keep every step, its order and the tool names; add nothing.' },
      { role: 'user', content: `${goal ? `Goal: ${goal}\n\n` : ''}${plain}` },
    ], ctx.signal);
    return text.trim() ? { text: text.trim(), engine: `llm:${llm.model}` } : { text: plain, engine: 'rules' };
  } catch {
    // Advice without a phrasing beats no advice: the rules' text stands.
    return { text: plain, engine: 'rules' };
  }
}

export const coach = defineTool({
  name: 'coach',
  title: 'What to do next',
  toolset: 'verbs',
  description:
    'Reads your own state (profile, memory, streak, unread notifications, watches, open jobs, API key quota, credits) and ' +
    'answers the next few actions that matter most for your goal, each as {tool, arguments, why} ready to call.',
  input: z.object({ goal: z.string().trim().max(300).optional().describe('What you are trying to do (shifts the ranking toward it).') }),
  output: CoachOutput,
  auth: 'owner',
  acceptsLogin: true,
  expose: { mcpOnly: true },
  // It lists watches, which counts as the owner's sign of life (resets their idle timer): not strictly read-only.
  annotations: { readOnlyHint: false, idempotentHint: true },
  handler: async (input, ctx) => {
    const goal = input.goal || undefined;
    const state = await readState(ctx);
    const actions = rankActions(state, goal);
    const { text, engine } = await phrase(ctx, actions, goal);
    return { handle: state.handle, goal: goal ?? null, actions, text, engine, state: { ...state } };
  },
});
