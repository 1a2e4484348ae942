// Fixtures of the conformance suite's 2026-07-28 scenarios that ask the client for input (SEP-2322 multi
// round-trip requests), probe the stateless rules (SEP-2575) and the custom headers (SEP-2243), and the 2025
// sampling scenario. Each is an ordinary tool (or prompt) of the product's kind: its questions are declared with
// `inputs` and put to the client by the MCP adapter (input_required with a signed requestState on 2026-07-28,
// requests on the call's own stream in a 2025 session); the handler reads the checked answers in ctx.answers. Only
// the test harness registers them (conformance-gateway.ts).
import { z } from 'zod';
import { contentResult } from '../../src/registry/content-result.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { PromptDef } from '../../src/registry/prompt-defs.js';
import type { FormAnswer, InputAnswer, InputAnswers, InputQuestion, InputRound, RootsAnswer, SampleAnswer, Tool } from '../../src/registry/types.js';

const toolset = 'conformance';
const noInput = z.object({});
const text = (t: string) => contentResult([{ type: 'text', text: t }]);

/** A one-field form. */
const ask = (message: string, field: string, type: 'string' | 'boolean' = 'string'): InputQuestion => ({
  kind: 'form',
  form: { message, fields: { [field]: type === 'string' ? { type: 'string' } : { type: 'boolean' } }, required: [field] },
});

const formValue = (a: InputAnswer | undefined, field: string): string => String((a as FormAnswer | undefined)?.content?.[field] ?? '');
const sampleText = (a: InputAnswer | undefined): string => (a as SampleAnswer | undefined)?.text ?? 'no response';
const rootCount = (a: InputAnswer | undefined): number => (a as RootsAnswer | undefined)?.roots.length ?? 0;
const answersOf = (ctx: { answers?: InputAnswers }): InputAnswers => ctx.answers ?? {};

/** One question under `key`, asked until it is answered. */
const once =
  (key: string, question: InputQuestion) =>
  (_input: unknown, got: InputAnswers): InputRound | null =>
    key in got ? null : { [key]: question };

const capitalQuestion: InputQuestion = { kind: 'sample', sample: { messages: [{ role: 'user', text: 'What is the capital of France?' }], maxTokens: 100 } };

export const roundTools: Tool[] = [
  defineTool({
    name: 'test_input_required_result_elicitation',
    toolset,
    description: 'Multi round-trip: asks the person their name, then greets them.',
    input: noInput,
    auth: 'public',
    inputs: once('user_name', ask('What is your name?', 'name')),
    handler: (_input, ctx) => text(`Hello, ${formValue(answersOf(ctx).user_name, 'name')}!`),
  }),
  defineTool({
    name: 'test_input_required_result_sampling',
    toolset,
    description: "Multi round-trip: asks the client's model a question (sampling), then reports its answer.",
    input: noInput,
    auth: 'public',
    inputs: once('capital_question', capitalQuestion),
    handler: (_input, ctx) => text(`Sampling result: ${sampleText(answersOf(ctx).capital_question)}`),
  }),
  defineTool({
    name: 'test_input_required_result_list_roots',
    toolset,
    description: "Multi round-trip: asks for the client's roots, then counts them.",
    input: noInput,
    auth: 'public',
    inputs: once('client_roots', { kind: 'roots' }),
    handler: (_input, ctx) => text(`Found ${rootCount(answersOf(ctx).client_roots)} root(s)`),
  }),
  // Every round of questions carries a requestState (the answers so far, signed and bound to the call), so this
  // is the elicitation tool again: the retry's echoed state is verified before the handler runs.
  defineTool({
    name: 'test_input_required_result_request_state',
    toolset,
    description: 'Multi round-trip with requestState: asks for approval, then confirms the echoed state was accepted.',
    input: noInput,
    auth: 'public',
    inputs: once('approval', ask('Please confirm', 'ok', 'boolean')),
    handler: (_input, ctx) => text(`state-ok: requestState verified, ok=${formValue(answersOf(ctx).approval, 'ok')}`),
  }),
  defineTool({
    name: 'test_input_required_result_multiple_inputs',
    toolset,
    description: 'Multi round-trip: asks for a name (form), a greeting (sampling) and the roots in one round.',
    input: noInput,
    auth: 'public',
    inputs: (_input, got) =>
      'user_name' in got
        ? null
        : {
            user_name: ask('What is your name?', 'name'),
            greeting: { kind: 'sample', sample: { messages: [{ role: 'user', text: 'Generate a greeting' }], maxTokens: 50 } },
            client_roots: { kind: 'roots' },
          },
    handler: (_input, ctx) => {
      const a = answersOf(ctx);
      return text(`Name: ${formValue(a.user_name, 'name')}; Greeting: ${sampleText(a.greeting)}; Roots: ${rootCount(a.client_roots)}`);
    },
  }),
  // Two rounds: the second is asked only once the first is answered (carried to the retry in the requestState).
  defineTool({
    name: 'test_input_required_result_multi_round',
    toolset,
    description: 'Multi round-trip over two rounds: a name, then a favourite colour.',
    input: noInput,
    auth: 'public',
    inputs: (_input, got): InputRound | null => {
      if (!('step1' in got)) return { step1: ask('Step 1: What is your name?', 'name') };
      if (!('step2' in got)) return { step2: ask('Step 2: What is your favorite color?', 'color') };
      return null;
    },
    handler: (_input, ctx) => {
      const a = answersOf(ctx);
      return text(`Multi-round complete for ${formValue(a.step1, 'name')} who likes ${formValue(a.step2, 'color')}`);
    },
  }),
  defineTool({
    name: 'test_input_required_result_tampered_state',
    toolset,
    description: 'Multi round-trip whose requestState is integrity-protected: a tampered one is refused.',
    input: noInput,
    auth: 'public',
    inputs: once('approval', ask('Please confirm', 'ok', 'boolean')),
    handler: () => text('integrity-ok: state verified'),
  }),
  // Both questions optional: the client is asked only what it declared it can answer, and nothing when it can
  // answer neither.
  defineTool({
    name: 'test_input_required_result_capabilities',
    toolset,
    description: 'Multi round-trip that asks only for what the client declared: a form, a completion, or nothing.',
    input: noInput,
    auth: 'public',
    inputs: (_input, got) =>
      Object.keys(got).length > 0
        ? null
        : {
            elicit_input: { ...ask('Elicitation input', 'value'), optional: true },
            sample_input: { kind: 'sample', sample: { messages: [{ role: 'user', text: 'Sample request' }], maxTokens: 50 }, optional: true },
          },
    handler: (_input, ctx) => {
      const keys = Object.keys(answersOf(ctx));
      return text(keys.length > 0 ? `capabilities-ok: received ${keys.join(',')}` : 'No supported capabilities declared');
    },
  }),
  // SEP-2575 diagnostics. A completion it cannot do without: a request that does not declare sampling is refused
  // with MissingRequiredClientCapability (-32021, HTTP 400) before anything runs.
  defineTool({
    name: 'test_missing_capability',
    toolset,
    description: "Needs the client's model (sampling): refused to a request that does not declare it.",
    input: noInput,
    auth: 'public',
    inputs: once('completion', capitalQuestion),
    handler: () => text('Success'),
  }),
  // Asks the person on the response stream of its own request: the stream carries the input_required result
  // (never a request of the server's own).
  defineTool({
    name: 'test_streaming_elicitation',
    toolset,
    description: "Asks the person a question; its request's response stream carries only the answer to it.",
    input: noInput,
    auth: 'public',
    inputs: once('answer', ask('Anything to add?', 'note')),
    handler: (_input, ctx) => text(`Streaming complete: ${formValue(answersOf(ctx).answer, 'note')}`),
  }),
  // The gateway sends no log messages to clients (Logging is deprecated in 2026-07-28); this tool writes to the
  // gateway's own log, which must not reach the client.
  defineTool({
    name: 'test_logging_tool',
    toolset,
    description: "Writes to the gateway's own log; nothing of it reaches the client.",
    input: noInput,
    auth: 'public',
    handler: (_input, ctx) => {
      ctx.log.debug({ tool: 'test_logging_tool' }, 'diagnostic trace');
      return text('Logging evaluated');
    },
  }),
  // SEP-2243: `region` is also sent as the Mcp-Param-Region header, which must agree with the body.
  defineTool({
    name: 'test_custom_header',
    toolset,
    description: 'Echoes a region that clients also send as the Mcp-Param-Region header (SEP-2243).',
    input: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }).describe('Where to route the call.') }),
    auth: 'public',
    handler: (input) => text(`Routed to ${input.region}`),
  }),
  // 2025-11-25 sampling (deprecated by 2026-07-28, still served): the session's client is asked on the call's stream.
  defineTool({
    name: 'test_sampling',
    toolset,
    description: "Asks the client's model to complete the given prompt (sampling).",
    input: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
    auth: 'public',
    inputs: (input, got) => ('completion' in got ? null : { completion: { kind: 'sample', sample: { messages: [{ role: 'user', text: input.prompt }], maxTokens: 100 } } }),
    handler: (_input, ctx) => text(`LLM response: ${sampleText(answersOf(ctx).completion)}`),
  }),
];

export const roundPrompts: PromptDef[] = [
  {
    name: 'test_input_required_result_prompt',
    title: 'Prompt That Asks First',
    description: 'Multi round-trip on prompts/get: asks what context the prompt should use.',
    arguments: [],
    inputs: once('user_context', ask('What context should the prompt use?', 'context')),
    render: (_args, answers) => `Prompt with context: ${formValue(answers?.user_context, 'context')}`,
  },
];
