// What a message asks for, done through the registry with the caller's credentials: text goes to the `ask`
// tool (the same router as /ask), with data parts that call no tool as its context; each data part {tool,
// arguments} calls that tool (same auth and payment rules as REST). A result naming a queued job or a parked handoff leaves the task waiting for it.
import { randomUUID } from 'node:crypto';
import { toGatewayError } from '../errors.js';
import type { Registry } from '../registry/registry.js';
import type { Caller } from '../registry/types.js';
import { RPC, RpcError } from './jsonrpc.js';
import { keepAs, withheld } from './kept-secrets.js';
import { resultParts } from './result-parts.js';
import type { Artifact, Message, Part, TaskState } from './types.js';
import { isPlainObject as isObject } from '../plain-object.js';

export interface ToolCall {
  tool: string;
  arguments: Record<string, unknown>;
}

export interface Waiting {
  kind: 'job' | 'handoff';
  ref: string;
}

export interface Outcome {
  state: TaskState;
  parts: Part[];
  artifacts: Artifact[];
  waiting: Waiting | null;
}

/** The question tool text parts are routed to. */
export const ASK_TOOL = 'ask';
/** Toolsets a data part may not name: the chat adapter's own tools and operator actions. */
const CLOSED_TOOLSETS = new Set(['chat', 'operator']);


/**
 * The tool calls of a message's data parts. A data part naming a `tool` must be {tool, arguments?} (-32602 otherwise);
 * a data part without one is context for the question (contextOf), and a message made only of such parts, with no
 * text to ask, is refused with -32602 saying what the agent accepts.
 */
export function toolCallsOf(m: Message): ToolCall[] {
  const calls: ToolCall[] = [];
  m.parts.forEach((p, i) => {
    if (p.kind !== 'data' || !('tool' in p.data)) return;
    const { tool, arguments: args } = p.data;
    if (typeof tool !== 'string' || tool === '' || (args !== undefined && !isObject(args))) {
      throw new RpcError(RPC.INVALID_PARAMS, `Invalid params: message.parts.${i}: a data part that names a tool must be {"tool": "<name>", "arguments": {…}}.`);
    }
    calls.push({ tool, arguments: (args as Record<string, unknown> | undefined) ?? {} });
  });
  if (calls.length === 0 && !textOf(m).trim() && m.parts.some((p) => p.kind === 'data')) {
    throw new RpcError(
      RPC.INVALID_PARAMS,
      'Invalid params: message.parts: this agent takes a text part (a question, with any data parts as its context) or data parts {"tool": "<name>", "arguments": {…}} that call a tool; these data parts name no tool and there is no text to ask.',
    );
  }
  return calls;
}

/** A message's data parts that call no tool, as lines of context for the question (the first five, 2,000 characters each). */
export const contextOf = (m: Message): string[] =>
  m.parts
    .filter((p): p is Extract<Part, { kind: 'data' }> => p.kind === 'data' && !('tool' in p.data))
    .slice(0, 5)
    .map((p) => JSON.stringify(p.data).slice(0, 2000));

export const textOf = (m: Message): string =>
  m.parts
    .filter((p): p is Extract<Part, { kind: 'text' }> => p.kind === 'text')
    .map((p) => p.text)
    .join('\n');

/** A queued job or parked handoff named by a result, when it has one. */
export function waitingOf(result: unknown): Waiting | null {
  if (!isObject(result)) return null;
  if (typeof result.job_id === 'string' && (result.status === 'queued' || result.status === 'running')) return { kind: 'job', ref: result.job_id };
  if (typeof result.handoff_id === 'string' && result.status === 'parked') return { kind: 'handoff', ref: result.handoff_id };
  return null;
}

export const WAITING_STATE: Record<Waiting['kind'], TaskState> = { job: 'working', handoff: 'input-required' };

export function waitingText(w: Waiting): string {
  return w.kind === 'job'
    ? `Job ${w.ref} is queued; this task completes when the job finishes (follow it with tasks/resubscribe or tasks/get).`
    : `Handoff ${w.ref} is parked for a human; this task completes when an operator resolves it (or it expires).`;
}

async function runCalls(registry: Registry, caller: Caller, calls: ToolCall[], signal?: AbortSignal): Promise<Outcome> {
  const artifacts: Artifact[] = [];
  const results: { tool: string; result: unknown }[] = [];
  let waiting: Waiting | null = null;
  for (const call of calls) {
    const tool = registry.get(call.tool);
    const callable = tool && (tool.expose.mcp || tool.expose.catalog) && !tool.expose.mcpOnly && !CLOSED_TOOLSETS.has(tool.toolset);
    try {
      if (!callable) throw Object.assign(new Error(), { notCallable: true });
      const out = await registry.invoke(call.tool, call.arguments, caller, { signal });
      // A secret the tool answered with goes to the caller in the artifact; the task row keeps a placeholder.
      const kept = withheld(out.result, tool.secretFields?.output);
      results.push({ tool: call.tool, result: kept });
      // Receipts (x402 settlement, credits charged) ride with the result they paid for.
      const receipts = Object.keys(out.meta.meta).length ? { metadata: out.meta.meta } : {};
      const artifact: Artifact = { artifactId: randomUUID(), name: call.tool, parts: resultParts(out.result), ...receipts };
      artifacts.push(kept === out.result ? artifact : keepAs(artifact, { ...artifact, parts: resultParts(kept) }));
      waiting = waitingOf(out.result) ?? waiting;
    } catch (err) {
      const ge = (err as { notCallable?: boolean }).notCallable ? null : toGatewayError(err);
      const error = ge ? { code: ge.code, message: ge.message, status: ge.status, ...(ge.detail ? { detail: ge.detail } : {}) } : { code: 'not_found', message: `No tool named "${call.tool}" can be called over A2A.`, status: 404 };
      // Credentials or payment missing: the client can send the message again to this task with them.
      const state: TaskState = ge && (ge.status === 401 || ge.status === 402) ? 'auth-required' : 'failed';
      const parts: Part[] = [
        { kind: 'text', text: `${call.tool} failed: ${error.message}` },
        { kind: 'data', data: { tool: call.tool, error, ...(ge?.payment ? { payment: ge.payment } : {}), completed: results } },
      ];
      return { state, parts, artifacts, waiting: null };
    }
  }
  const done = results.map((r) => r.tool).join(', ');
  const text = waiting ? `Called ${done}. ${waitingText(waiting)}` : `Called ${done}.`;
  // The results are in the artifacts (one per call); the reply only says what happened.
  return { state: waiting ? WAITING_STATE[waiting.kind] : 'completed', parts: [{ kind: 'text', text }], artifacts, waiting };
}

async function runQuestion(registry: Registry, caller: Caller, question: string, prev: string[], signal?: AbortSignal): Promise<Outcome> {
  const out = await registry.invoke(ASK_TOOL, { query: question, prev, limit: 3 }, caller, { signal });
  const res = out.result as { answer: { kind: string; text: string }; results: Record<string, unknown>[] };
  const results = res.results.map(({ name, url, score, description, call }) => ({ name, url, score, description, call }));
  const text: Part = { kind: 'text', text: res.answer.text };
  const data: Part = { kind: 'data', data: { answer: res.answer, results } };
  if (res.answer.kind === 'payment_required') return { state: 'auth-required', parts: [text, data], artifacts: [], waiting: null };
  // The answer's details travel once, in the artifact; the reply is the sentence.
  return { state: 'completed', parts: [text], artifacts: [{ artifactId: randomUUID(), name: 'answer', parts: [text, data] }], waiting: null };
}

/** Does what the message asks; never throws (a failure is a failed outcome). */
export async function perform(registry: Registry, caller: Caller, m: Message, calls: ToolCall[], prev: string[], signal?: AbortSignal): Promise<Outcome> {
  try {
    // Data parts that call no tool are context: beside the earlier questions, which the router weighs less.
    return calls.length ? await runCalls(registry, caller, calls, signal) : await runQuestion(registry, caller, textOf(m), [...prev, ...contextOf(m)], signal);
  } catch (err) {
    const ge = toGatewayError(err);
    return { state: 'failed', parts: [{ kind: 'text', text: `The request failed: ${ge.message}` }], artifacts: [], waiting: null };
  }
}
