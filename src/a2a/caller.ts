// The caller of an A2A request, with its credentials resolved as every transport resolves them. A suspended agent's
// credentials are refused here, before any method: tasks are read, listed and cancelled from the task store, not
// through registry.call, which is what refuses them on the other transports.
import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../errors.js';
import { credentialsOf } from '../http/credentials.js';
import type { Registry } from '../registry/registry.js';
import type { Caller } from '../registry/call-types.js';

export async function a2aCaller(registry: Registry, req: IncomingMessage, trustProxy: number): Promise<Caller> {
  const caller = await registry.resolve(credentialsOf(req, 'a2a', trustProxy));
  if (caller.agent?.suspended_at != null) throw new GatewayError('agent_suspended');
  return caller;
}
