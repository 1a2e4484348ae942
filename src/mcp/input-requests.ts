// A tool's questions (registry InputRound) as MCP puts them to the client: the embedded requests of a 2026-07-28
// input_required result (and of a task waiting for input), the same requests a 2025-era server sends on the call's
// own stream: elicitation/create for a form, sampling/createMessage for a completion, roots/list for the roots.
// Which kinds a client can answer is what it declared (its capabilities).
import type { FormQuestion, InputKind, InputQuestion, InputRound } from '../registry/types.js';

/** A form as MCP form elicitation sends it: its fields are already the restricted schema. */
export const formElicitation = (q: FormQuestion) => ({
  message: q.message,
  requestedSchema: { type: 'object' as const, properties: q.fields, required: q.required ?? [] },
});

/** sampling/createMessage params of a completion question. */
export const samplingParams = (q: Extract<InputQuestion, { kind: 'sample' }>['sample']) => ({
  messages: q.messages.map((m) => ({ role: m.role, content: { type: 'text' as const, text: m.text } })),
  maxTokens: q.maxTokens,
  ...(q.systemPrompt !== undefined ? { systemPrompt: q.systemPrompt } : {}),
});

export type WireInputRequest =
  | { method: 'elicitation/create'; params: ReturnType<typeof formElicitation> }
  | { method: 'sampling/createMessage'; params: ReturnType<typeof samplingParams> }
  | { method: 'roots/list'; params: Record<string, never> };

export function wireInputRequest(q: InputQuestion): WireInputRequest {
  switch (q.kind) {
    case 'form':
      return { method: 'elicitation/create', params: formElicitation(q.form) };
    case 'sample':
      return { method: 'sampling/createMessage', params: samplingParams(q.sample) };
    case 'roots':
      return { method: 'roots/list', params: {} };
  }
}

export const wireInputRequests = (round: InputRound): Record<string, WireInputRequest> =>
  Object.fromEntries(Object.entries(round).map(([key, q]) => [key, wireInputRequest(q)]));

/** The capability a client declares to answer each kind of question. */
const CAPABILITY: Record<InputKind, string> = { form: 'elicitation', sample: 'sampling', roots: 'roots' };

type Declared = Record<string, unknown> | undefined;

/**
 * Whether a client with these capabilities can answer a kind of question. Form elicitation: a bare
 * `elicitation: {}` (the 2025 meaning) or one that names form mode; a client that declares only URL mode cannot.
 */
export function answersKind(declared: Declared, kind: InputKind): boolean {
  const cap = declared?.[CAPABILITY[kind]];
  if (typeof cap !== 'object' || cap === null) return false;
  if (kind !== 'form') return true;
  const modes = cap as Record<string, unknown>;
  return modes.form !== undefined || modes.url === undefined;
}

/** Does the client declare any capability a question needs? (Requests that declare none are never asked.) */
export const answersAny = (declared: Declared): boolean => (['form', 'sample', 'roots'] as const).some((k) => answersKind(declared, k));

/**
 * Whether a call of a tool may put something to this client, so that it must go where questions are asked (the
 * SDK's exchange) rather than a direct path: any call may ask a client that declared elicitation to confirm; only a
 * tool with questions of its own (`inputs`) may ask a client that declared only sampling or roots (most hosts
 * declare roots; their other calls keep the direct path).
 */
export const mayAsk = (declared: Declared, toolAsks: boolean): boolean => declared?.elicitation !== undefined || (toolAsks && answersAny(declared));

/** `requiredCapabilities` of a MissingRequiredClientCapability error: a ClientCapabilities object per kind. */
export const requiredCapabilities = (kinds: readonly InputKind[]): Record<string, object> =>
  Object.fromEntries(kinds.map((k) => [CAPABILITY[k], k === 'form' ? { form: {} } : {}]));
