// How MCP asks the person to confirm (registry/confirm-step.ts decides when): the 2026-07-28 era returns an
// input_required result and reads the answer from the retried request's inputResponses; a 2025-era client that
// declared elicitation gets an elicitation/create request on the same exchange. A client that can do neither gets
// no confirmer, and its explicit arguments are the consent, as on REST.
import { validationError } from '../errors.js';
import type { Confirmation, ConfirmationAnswer, Confirmer, FormAnswer, FormQuestion } from '../registry/types.js';

/** The key of the one input request a confirmation makes. */
export const CONFIRM_KEY = 'confirm';
/** The key of the input request of a tool's own form (its `ask`); a call may need both, asked in turn. */
export const ASK_KEY = 'ask';

const INVALID_PARAMS = -32602;

/** `_meta` key (any era) by which a client asks to confirm paid calls priced above this many US dollars. */
export const CONFIRM_ABOVE_META = 'io.github.agent-gateway/confirm-above-usd';

type ConfirmField = { type: 'string'; title: string } | { type: 'boolean'; title: string; default: boolean };

export interface ConfirmationForm {
  message: string;
  requestedSchema: { type: 'object'; properties: Record<string, ConfirmField>; required: string[] };
}

/** A form-mode elicitation: a confirmation's, or a tool's own form (whose fields are already the schema). */
export type ElicitForm = ConfirmationForm | ReturnType<typeof formElicitation>;

/** A tool's form as MCP form elicitation sends it. */
export const formElicitation = (q: FormQuestion) => ({
  message: q.message,
  requestedSchema: { type: 'object' as const, properties: q.fields, required: q.required ?? [] },
});

export interface ElicitAnswer {
  action: string;
  content?: Record<string, unknown>;
}

/** The form-mode elicitation for a question: type the text back, or tick yes. */
export function confirmationForm(q: Confirmation): ConfirmationForm {
  return {
    message: q.message,
    requestedSchema: q.typeToConfirm
      ? { type: 'object', properties: { typed: { type: 'string', title: `Type ${q.typeToConfirm} to confirm` } }, required: ['typed'] }
      : { type: 'object', properties: { confirm: { type: 'boolean', title: 'Yes, go on', default: false } }, required: ['confirm'] },
  };
}

const normalise = (v: unknown): string => (typeof v === 'string' ? v.trim().replace(/^@/, '').toLowerCase() : '');

/** Only an accepted form with the right answer confirms; a mismatch is a no, never a guess. */
export function answerOf(q: Confirmation, a: ElicitAnswer): Exclude<ConfirmationAnswer, 'pending'> {
  if (a.action !== 'accept' || !a.content) return 'declined';
  if (q.typeToConfirm !== undefined) return normalise(a.content.typed) === normalise(q.typeToConfirm) ? 'confirmed' : 'declined';
  return a.content.confirm === true ? 'confirmed' : 'declined';
}

/** The threshold a request's `_meta` sets, when it is a non-negative number. */
export function confirmAboveOf(meta: Record<string, unknown> | undefined): number | undefined {
  const v = meta?.[CONFIRM_ABOVE_META];
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
}

const isAnswer = (a: unknown): a is ElicitAnswer => typeof a === 'object' && a !== null && typeof (a as ElicitAnswer).action === 'string';

/**
 * 2026-07-28: the answer is in this request's inputResponses, or it is asked for with input_required. A form's
 * answer goes to the registry as sent; its ask step checks it against the form.
 */
export function roundTripConfirmer(inputResponses: Record<string, unknown> | undefined, aboveUsd: number | undefined): Confirmer {
  return {
    aboveUsd,
    ask: async (q) => {
      const a = inputResponses?.[CONFIRM_KEY];
      return isAnswer(a) ? answerOf(q, a) : 'pending';
    },
    fill: async () => {
      const a = inputResponses?.[ASK_KEY];
      return isAnswer(a) ? (a as FormAnswer) : 'pending';
    },
  };
}

/** 2025 era: an elicitation/create request to the client, answered on the spot. */
export function elicitingConfirmer(elicit: (form: ElicitForm) => Promise<ElicitAnswer>, aboveUsd: number | undefined): Confirmer {
  return {
    aboveUsd,
    ask: async (q) => answerOf(q, await elicit(confirmationForm(q))),
    fill: async (q) => {
      try {
        return (await elicit(formElicitation(q))) as FormAnswer;
      } catch (err) {
        // SDK v1 checks the answer against the schema itself: a mismatch is the client's, a 422, not our 500.
        if ((err as { code?: unknown }).code !== INVALID_PARAMS) throw err;
        throw validationError([{ loc: ['answer'], msg: (err as Error).message.replace(/^MCP error -?\d+: /, ''), type: 'value_error' }]);
      }
    },
  };
}
