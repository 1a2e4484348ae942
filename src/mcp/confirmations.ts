// How MCP asks the person to confirm (registry/confirm-step.ts decides when): the 2026-07-28 era returns an
// input_required result and reads the answer from the retried request's inputResponses; a 2025-era client that
// declared elicitation gets an elicitation/create request on the same exchange. A client that can do neither gets
// no confirmer, and its explicit arguments are the consent, as on REST.
import type { Confirmation, ConfirmationAnswer, Confirmer } from '../registry/types.js';

/** The key of the one input request a confirmation makes. */
export const CONFIRM_KEY = 'confirm';

/** `_meta` key (any era) by which a client asks to confirm paid calls priced above this many US dollars. */
export const CONFIRM_ABOVE_META = 'io.github.agent-gateway/confirm-above-usd';

type FormField = { type: 'string'; title: string } | { type: 'boolean'; title: string; default: boolean };

export interface ConfirmationForm {
  message: string;
  requestedSchema: { type: 'object'; properties: Record<string, FormField>; required: string[] };
}

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

/** 2026-07-28: the answer is in this request's inputResponses, or it is asked for with input_required. */
export function roundTripConfirmer(inputResponses: Record<string, unknown> | undefined, aboveUsd: number | undefined): Confirmer {
  return {
    aboveUsd,
    ask: async (q) => {
      const a = inputResponses?.[CONFIRM_KEY] as ElicitAnswer | undefined;
      return a && typeof a === 'object' && typeof a.action === 'string' ? answerOf(q, a) : 'pending';
    },
  };
}

/** 2025 era: an elicitation/create request to the client, answered on the spot. */
export function elicitingConfirmer(elicit: (form: ConfirmationForm) => Promise<ElicitAnswer>, aboveUsd: number | undefined): Confirmer {
  return { aboveUsd, ask: async (q) => answerOf(q, await elicit(confirmationForm(q))) };
}
