// Gives an agent some data in every area that has landed, so delete and isolation tests cover it all.
// Each area adds its writes here.
import { api } from './gateway.js';

export async function populateAgentData(base: string, agent: { handle: string; secret: string }, other: { handle: string }): Promise<void> {
  // Identity: a referral recorded by this agent's /start visit and an invitee.
  await api(base, 'GET', `/start?via=${agent.handle}`);
  await api(base, 'POST', '/agents/register', { body: { handle: `${agent.handle}-invitee`, via: agent.handle } });
  await api(base, 'GET', `/start?via=${agent.handle}`);
  void other;
}
