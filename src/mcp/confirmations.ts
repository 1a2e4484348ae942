// How MCP asks the person to confirm (registry/confirm-step.ts decides when), and puts a tool's questions to the
// client (registry/ask-step.ts): the 2026-07-28 era returns an input_required result and reads the answers from the
// retried request's inputResponses; a 2025-era client gets elicitation/create (sampling/createMessage, roots/list)
// requests on the same exchange, for what it declared. A client that can do neither gets no confirmer, and its
// explicit arguments are the consent, as on REST.
import { validationError } from '../errors.js';
import type { Confirmation, ConfirmationAnswer, Confirmer, InputAnswers, InputKind, InputRound } from '../registry/types.js';
import { answersKind, formElicitation, samplingParams } from './input-requests.js';

/** The key of the one input request a confirmation makes. */
export const CONFIRM_KEY = 'confirm';

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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The client capabilities a request (2026-07-28) or a connection (2025 era) declared. */
type Declared = Record<string, unknown> | undefined;

/**
 * 2026-07-28: the answers are in this request's inputResponses, or they are asked for with input_required. A
 * round is answered when every one of its keys has a response object; anything else (a missing key, an entry that
 * is not an object) asks the round again. The answers go to the registry as sent; it checks them against their
 * questions. `earlier` is what the client carried back in the request's (verified) requestState: the answers of
 * earlier rounds, and whether this call was already confirmed.
 */
export class RoundTripConfirmer implements Confirmer {
  /** Set when this request's confirmation was answered yes, so the state of a later round carries it. */
  confirmed = false;
  readonly earlier?: InputAnswers;

  constructor(
    private readonly inputResponses: Record<string, unknown> | undefined,
    readonly aboveUsd: number | undefined,
    private readonly declared: Declared,
    carried?: { answers: InputAnswers; confirmed?: boolean },
  ) {
    this.earlier = carried?.answers;
    this.confirmed = carried?.confirmed === true;
  }

  async ask(q: Confirmation): Promise<ConfirmationAnswer> {
    const a = this.inputResponses?.[CONFIRM_KEY];
    if (isAnswer(a)) return (this.confirmed = answerOf(q, a) === 'confirmed') ? 'confirmed' : 'declined';
    return this.confirmed ? 'confirmed' : 'pending';
  }

  canAnswer(kind: InputKind): boolean {
    return answersKind(this.declared, kind);
  }

  async put(round: InputRound): Promise<Record<string, unknown> | 'pending'> {
    const keys = Object.keys(round);
    const given = this.inputResponses ?? {};
    return keys.every((k) => isObject(given[k])) ? Object.fromEntries(keys.map((k) => [k, given[k]])) : 'pending';
  }
}

/** How a 2025-era connection reaches its client on the call's own exchange. */
export interface ClientChannel {
  elicit(form: ElicitForm): Promise<ElicitAnswer>;
  sample(params: ReturnType<typeof samplingParams>): Promise<unknown>;
  listRoots(): Promise<unknown>;
}

/** 2025 era: requests to the client on the call's own exchange, answered on the spot, for what it declared. */
export function elicitingConfirmer(channel: ClientChannel, aboveUsd: number | undefined, declared: Declared): Confirmer {
  const ask = async (key: string, q: InputRound[string]): Promise<unknown> => {
    switch (q.kind) {
      case 'form':
        try {
          return await channel.elicit(formElicitation(q.form));
        } catch (err) {
          // The SDK checks the answer against the schema itself: a mismatch is the client's, a 422, not our 500.
          if ((err as { code?: unknown }).code !== INVALID_PARAMS) throw err;
          throw validationError([{ loc: ['answers', key], msg: (err as Error).message.replace(/^MCP error -?\d+: /, ''), type: 'value_error' }]);
        }
      case 'sample':
        return channel.sample(samplingParams(q.sample));
      case 'roots':
        return channel.listRoots();
    }
  };
  return {
    aboveUsd,
    ask: async (q) => answerOf(q, await channel.elicit(confirmationForm(q))),
    canAnswer: (kind) => answersKind(declared, kind),
    put: async (round) => Object.fromEntries(await Promise.all(Object.entries(round).map(async ([key, q]) => [key, await ask(key, q)] as const))),
  };
}
