// An event stream answers for as long as it stays open, so its caller is checked again as each event is written:
// once the agent that opened it is suspended, or its credentials no longer act for it (a secret rotated, the agent
// deleted), the stream ends with that error instead of carrying the task's updates. A stream opened without an
// agent's credentials (anonymous, or an API key alone) has nothing that can lapse and is not checked.
import { GatewayError } from '../errors.js';
import type { Registry } from '../registry/registry.js';
import type { Caller } from '../registry/call-types.js';
import type { StreamCheck } from './sse.js';

export function lapseCheck(registry: Registry, caller: Caller): StreamCheck | undefined {
  const opener = caller.agent;
  if (!opener) return undefined;
  return async () => {
    // The credential cache is evicted at once by a suspension or rotation here, within its TTL from another instance.
    const now = await registry.resolve(caller.credentials);
    if (now.agent?.id !== opener.id) {
      return new GatewayError('unauthorized', 'The credentials this stream was opened with no longer act for its agent (the secret was rotated, or the agent deleted): resubscribe with the current ones.');
    }
    return now.agent.suspended_at != null ? new GatewayError('agent_suspended') : null;
  };
}
