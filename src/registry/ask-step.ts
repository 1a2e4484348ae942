// The form step of the call pipeline: a tool that declares `ask` gets the person's answer to its form before it
// acts. Like the confirm step it runs after validation and before any charge or side effect, so a retried request
// (an MCP input_required round trip) repeats nothing. The answer is checked against the form: a value the form
// does not allow is a 422 naming the field, never passed on to the handler.
import { GatewayError, validationError, type ValidationIssue } from '../errors.js';
import type { Confirmer, FormAnswer, FormField, FormQuestion, FormValue } from './call-types.js';
import type { Tool } from './types.js';

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

export async function askBeforeActing(tool: Tool, args: unknown, confirmer: Confirmer | undefined): Promise<FormAnswer | undefined> {
  if (!tool.ask || !confirmer?.fill) return undefined;
  const q = tool.ask(args);
  if (!q) return undefined;
  const answer = await confirmer.fill(q);
  if (answer === 'pending') throw new GatewayError('confirmation_required', q.message, { extra: { form: q } });
  // The answer comes off the wire: checked here, once, for every adapter.
  return checkAnswer(q, answer);
}
