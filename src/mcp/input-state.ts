// The requestState of a 2026-07-28 input_required result: the answers of the rounds asked so far (and whether the
// call was confirmed), which the client echoes on its retry so that a tool with several rounds of questions need
// not keep anything between requests (any gateway process answers any round). It comes back from the client, so it
// is signed with a key of the install (SDK v2's HMAC codec, verified before the handler runs) and bound to the
// request it was issued for: the method, the tool or prompt, its arguments and the credentials presented. State
// issued for another call, another caller, or tampered with, is refused (-32602), never acted on.
import { createHmac } from 'node:crypto';
import { createRequestStateCodec, ProtocolError, ProtocolErrorCode, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import type { Credentials, InputAnswers } from '../registry/types.js';

export interface InputState {
  /** The request it belongs to (stateBinding). */
  b: string;
  /** Checked answers of the earlier rounds. */
  a: InputAnswers;
  /** The call's confirmation was answered yes. */
  c?: true;
}

/** A retry may come after the person took their time: an hour, then the round is asked again from the start. */
const STATE_TTL_SECONDS = 3600;

const codecs = new WeakMap<Uint8Array, RequestStateCodec<InputState>>();

/** The codec signing with `key` (one per install key, made once). */
export function inputStateCodec(key: Uint8Array): RequestStateCodec<InputState> {
  let codec = codecs.get(key);
  if (!codec) codecs.set(key, (codec = createRequestStateCodec<InputState>({ key, ttlSeconds: STATE_TTL_SECONDS })));
  return codec;
}

/** JSON with object keys sorted, so a client that re-serialises the same arguments binds the same. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stable(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** What a state is bound to, as a keyed hash (the state is readable by the client; the credentials never are). */
export function stateBinding(key: Uint8Array, method: string, name: string, args: unknown, c: Credentials): string {
  const who = [c.bearer, c.apiKey, c.accessToken?.token, c.login, c.revenueKey].map((x) => x ?? '');
  return createHmac('sha256', key)
    .update(stable([method, name, args ?? {}, who]))
    .digest('base64url');
}

/**
 * The state this request carried back (verified by the SDK's hook), when it was issued for this very request;
 * undefined when it carried none. State of another request is -32602, as the SDK answers a bad signature.
 */
export function carriedState(ctx: ServerContext, binding: string): InputState | undefined {
  const state = ctx.mcpReq.requestState<InputState>();
  if (state === undefined) return undefined;
  if (typeof state !== 'object' || state === null || state.b !== binding) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', { reason: 'invalid_request_state' });
  }
  return state;
}
