// The input step of the call pipeline: a tool that declares questions (`inputs`, or its `ask` form) gets the
// client's answers before it acts: the person's answer to a form, a completion by the client's model, the client's
// roots. Like the confirm step it runs after validation and before any charge or side effect, so a retried request
// (an MCP input_required round trip) repeats nothing. Questions come in rounds (a later one may depend on earlier
// answers); each answer is checked against its question here, once for every adapter: a form's answer the form
// does not allow is a 422 naming the field, never passed on to the handler.
import { GatewayError, validationError, type ValidationIssue } from '../errors.js';
import type { Tool } from './types.js';
import type { Confirmer, FormAnswer, FormField, FormQuestion, FormValue, InputAnswer, InputAnswers, InputKind, InputQuestion, InputRound, RootsAnswer, SampleAnswer } from './call-types.js';

const ACTIONS = new Set(['accept', 'decline', 'cancel']);

/** The values a choice field allows, or undefined when it is free text. */
function choices(f: FormField): string[] | undefined {
  if ('enum' in f) return f.enum;
  if ('oneOf' in f) return f.oneOf.map((c) => c.const);
  return undefined;
}

function fieldIssue(name: string, f: FormField, v: unknown): string | null {
  switch (f.type) {
    case 'string': {
      if (typeof v !== 'string') return 'must be a string';
      const allowed = choices(f);
      if (allowed && !allowed.includes(v)) return `must be one of ${allowed.join(', ')}`;
      if ('minLength' in f && f.minLength !== undefined && v.length < f.minLength) return `must be at least ${f.minLength} characters`;
      if ('maxLength' in f && f.maxLength !== undefined && v.length > f.maxLength) return `must be at most ${f.maxLength} characters`;
      return null;
    }
    case 'number':
    case 'integer':
      if (typeof v !== 'number' || !Number.isFinite(v)) return 'must be a number';
      if (f.type === 'integer' && !Number.isInteger(v)) return 'must be an integer';
      if (f.minimum !== undefined && v < f.minimum) return `must be at least ${f.minimum}`;
      if (f.maximum !== undefined && v > f.maximum) return `must be at most ${f.maximum}`;
      return null;
    case 'boolean':
      return typeof v === 'boolean' ? null : 'must be true or false';
    case 'array': {
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return 'must be a list of strings';
      const allowed = 'enum' in f.items ? f.items.enum : f.items.anyOf.map((c) => c.const);
      const bad = v.find((x) => !allowed.includes(x));
      if (bad !== undefined) return `may hold only ${allowed.join(', ')} (not ${bad})`;
      if (f.minItems !== undefined && v.length < f.minItems) return `must hold at least ${f.minItems}`;
      if (f.maxItems !== undefined && v.length > f.maxItems) return `must hold at most ${f.maxItems}`;
      return null;
    }
  }
  return `is not a field of this form (${name})`;
}

/** The answer as the handler may trust it: a known action, and for `accept` only the form's fields, each valid. */
export function checkAnswer(q: FormQuestion, raw: { action?: unknown; content?: unknown }): FormAnswer {
  const action = typeof raw.action === 'string' && ACTIONS.has(raw.action) ? (raw.action as FormAnswer['action']) : null;
  if (!action) throw validationError([{ loc: ['answer', 'action'], msg: 'must be accept, decline or cancel', type: 'enum' }]);
  if (action !== 'accept') return { action };
  const content = raw.content ?? {};
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    throw validationError([{ loc: ['answer', 'content'], msg: 'must be an object of the form\'s fields', type: 'type' }]);
  }
  const given = content as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  for (const name of Object.keys(given)) {
    const f = q.fields[name];
    const msg = f ? fieldIssue(name, f, given[name]) : 'is not a field of this form';
    if (msg) issues.push({ loc: ['answer', 'content', name], msg, type: 'value_error' });
  }
  for (const name of q.required ?? []) {
    if (given[name] === undefined) issues.push({ loc: ['answer', 'content', name], msg: 'is required', type: 'missing' });
  }
  if (issues.length) throw validationError(issues);
  return { action, content: given as Record<string, FormValue> };
}

/** The key of a tool's own form (`ask`), asked as one optional question of the first round. */
export const ASK_KEY = 'ask';
/** The confirmation's key (the confirm step's question), which no input may take. */
const CONFIRM_KEY = 'confirm';
/** Rounds one call may take: a tool whose questions never end is a bug, not a conversation. */
export const MAX_INPUT_ROUNDS = 8;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A completion as the handler may trust it: its text when the model answered with text, and the model's name. */
function checkSample(key: string, raw: unknown): SampleAnswer {
  const content = isObject(raw) ? raw.content : undefined;
  const blocks = Array.isArray(content) ? content : [content];
  if (!blocks.every(isObject)) throw validationError([{ loc: ['answers', key, 'content'], msg: 'must be a content block', type: 'type' }]);
  const text = blocks.find((b) => b.type === 'text' && typeof b.text === 'string')?.text as string | undefined;
  const model = isObject(raw) && typeof raw.model === 'string' ? raw.model : undefined;
  return { text, ...(model !== undefined ? { model } : {}) };
}

function checkRoots(key: string, raw: unknown): RootsAnswer {
  const roots = isObject(raw) ? raw.roots : undefined;
  const ok = Array.isArray(roots) && roots.every((r) => isObject(r) && typeof r.uri === 'string' && (r.name === undefined || typeof r.name === 'string'));
  if (!ok) throw validationError([{ loc: ['answers', key, 'roots'], msg: 'must be a list of {uri, name?}', type: 'type' }]);
  return { roots: (roots as { uri: string; name?: string }[]).map((r) => ({ uri: r.uri, ...(r.name !== undefined ? { name: r.name } : {}) })) };
}

/** An answer off the wire, checked against its question. */
export function checkInput(key: string, q: InputQuestion, raw: unknown): InputAnswer {
  switch (q.kind) {
    case 'form':
      return checkAnswer(q.form, isObject(raw) ? raw : {});
    case 'sample':
      return checkSample(key, raw);
    case 'roots':
      return checkRoots(key, raw);
  }
}

/** What a required question the client cannot answer needs: the caller must use a client that can. */
function capabilityRequired(kinds: Set<InputKind>): GatewayError {
  const names = { form: 'fill forms (elicitation)', sample: 'complete text with its model (sampling)', roots: 'list its roots' };
  return new GatewayError('capability_required', `This call needs a client that can ${[...kinds].map((k) => names[k]).join(' and ')}.`, { extra: { needs: [...kinds] } });
}

/**
 * Asks the questions of `needs` round by round (from the earlier answers the client carried back, if any) and
 * returns every answer. A question already answered or already passed over is not asked again; an optional one the
 * client cannot answer is passed over; a required one is refused (capability_required). A round with nothing left
 * to ask ends the asking. When the answers come on a later round trip, `confirmation_required` carries the round
 * and the answers so far, for the adapter to ask and to carry (signed) to the retry.
 */
export async function gatherInputs(needs: (answers: InputAnswers) => InputRound | null, asker: Confirmer | undefined, message: string): Promise<InputAnswers> {
  const got: InputAnswers = { ...asker?.earlier };
  const passed = new Set<string>();
  for (let round = 0; ; round++) {
    const asked = needs(got);
    if (!asked) return got;
    if (round >= MAX_INPUT_ROUNDS) throw new Error(`more than ${MAX_INPUT_ROUNDS} rounds of questions`);
    const put: InputRound = {};
    const lacking = new Set<InputKind>();
    for (const [key, q] of Object.entries(asked)) {
      if (key === CONFIRM_KEY) throw new Error(`the input key "${CONFIRM_KEY}" is the confirmation's`);
      if (key in got || passed.has(key)) continue;
      if (asker?.canAnswer?.(q.kind) && asker.put) put[key] = q;
      else if (q.optional) passed.add(key);
      else lacking.add(q.kind);
    }
    if (lacking.size > 0) throw capabilityRequired(lacking);
    const keys = Object.keys(put);
    if (keys.length === 0) return got;
    const raw = await asker!.put!(put);
    if (raw === 'pending') throw new GatewayError('confirmation_required', message, { extra: { round: put, answers: { ...got } } });
    for (const key of keys) got[key] = checkInput(key, put[key], raw[key]);
  }
}

/** The input step of a tool call: the answers to its questions, or undefined when it asks none. */
export async function askBeforeActing(tool: Tool, args: unknown, asker: Confirmer | undefined): Promise<InputAnswers | undefined> {
  if (!tool.inputs) return undefined;
  return gatherInputs((answers) => tool.inputs!(args, answers), asker, `${tool.title ?? tool.name} needs your answers before it acts.`);
}
