// Gives an agent some data in every area that has landed, so delete and isolation tests cover it all.
// Each area adds its writes here.
import { BUNDLE_ID, makePki, sign, transaction, type Pki } from '../entitlements/pki.js';
import { api } from './gateway.js';

export async function populateAgentData(base: string, agent: { handle: string; secret: string }, other: { handle: string; secret?: string }): Promise<void> {
  // Identity: a referral recorded by this agent's /start visit and an invitee.
  await api(base, 'GET', `/start?via=${agent.handle}`);
  await api(base, 'POST', '/agents/register', { body: { handle: `${agent.handle}-invitee`, via: agent.handle } });
  await api(base, 'GET', `/start?via=${agent.handle}`);
  await populateCredits(base, agent);
  await populateMemory(base, agent, other);
  await populateWork(base, agent);
  await populateSocial(base, agent, other);
}

/**
 * Social layer: posts (one mentioning the other, a template-run question), reactions both ways, a reply and a
 * quote by the other, follows both ways, mail sent and received, XP and a badge. The other agent's reply
 * mentions this agent's handle in its text: that text is the other agent's data and stays (documented).
 */
export async function populateSocial(base: string, agent: { handle: string; secret: string }, other: { handle: string; secret?: string }): Promise<void> {
  const as = (secret: string) => ({ secret });
  const mine = await api(base, 'POST', '/wall', { body: { text: `Result for @${other.handle} #owned-data`, kind: 'result' }, ...as(agent.secret) });
  const writes = [
    mine,
    await api(base, 'POST', `/follow/${other.handle}`, as(agent.secret)),
    await api(base, 'POST', '/mail', { body: { to: other.handle, subject: 'from the agent', body: 'sent by the agent' }, ...as(agent.secret) }),
    await api(base, 'POST', '/agents/templates/ask-the-wall/run', { body: { params: { question: 'Who reads this?', topic: 'owned-data' } }, ...as(agent.secret) }),
  ];
  if (other.secret) {
    const reply = await api(base, 'POST', '/wall', { body: { text: `Thanks @${agent.handle}!`, reply_to: mine.body.post_id }, ...as(other.secret) });
    writes.push(
      reply,
      await api(base, 'POST', `/wall/${mine.body.post_id}/react`, { body: { reaction: 'verified' }, ...as(other.secret) }),
      await api(base, 'POST', `/wall/${mine.body.post_id}/quote`, { body: { text: 'Worth reading.' }, ...as(other.secret) }),
      await api(base, 'POST', `/wall/${reply.body.post_id}/react`, { body: { reaction: '👍' }, ...as(agent.secret) }),
      await api(base, 'POST', `/follow/${agent.handle}`, as(other.secret)),
      await api(base, 'POST', '/mail', { body: { to: agent.handle, body: 'received by the agent' }, ...as(other.secret) }),
    );
  }
  if (writes.some((w) => w.status >= 300)) throw new Error(`populateSocial: ${writes.map((w) => w.status).join(' ')}`);
}

/** Durable work: a job, a handoff, a watch, a webhook secret, a heartbeat, an artifact, a vault entry. */
export async function populateWork(base: string, agent: { handle: string; secret: string }): Promise<void> {
  const s = { secret: agent.secret };
  const writes = [
    await api(base, 'POST', '/jobs', { body: { type: 'delay', seconds: 3600, callback_url: 'https://hooks.example.com/job' }, ...s }),
    await api(base, 'POST', '/handoff', { body: { task: `task of ${agent.handle}`, callback_url: 'https://hooks.example.com/handoff' }, ...s }),
    await api(base, 'POST', '/watches', { body: { url: 'https://watched.example.com/', interval_hours: 24 }, ...s }),
    await api(base, 'GET', `/agents/${agent.handle}/webhook-secret`, s),
    await api(base, 'GET', `/beat/${agent.handle}`, s),
    await api(base, 'POST', '/artifacts', { body: { text: `artifact of ${agent.handle}` }, ...s }),
    await api(base, 'POST', '/vault', { body: { name: 'k', value: `vault of ${agent.handle}` }, ...s }),
  ];
  if (writes.some((w) => w.status >= 300)) throw new Error(`populateWork: ${writes.map((w) => w.status).join(' ')}`);
}

/** Memory: entries with history, a share given, a share received, a write into the other's namespace. */
export async function populateMemory(base: string, agent: { handle: string; secret: string }, other: { handle: string; secret?: string }): Promise<void> {
  const as = (secret: string) => ({ secret });
  const writes = [
    await api(base, 'PUT', '/memory/notes/plan', { body: { value: { text: 'Met Alice in Lisbon', city: 'Lisbon' }, tags: ['todo'] }, ...as(agent.secret) }),
    await api(base, 'PUT', '/memory/notes/plan', { body: { value: 'second version' }, ...as(agent.secret) }),
    await api(base, 'POST', '/memory/notes/share', { body: { grantee: other.handle, permission: 'write' }, ...as(agent.secret) }),
  ];
  if (other.secret) {
    writes.push(await api(base, 'POST', '/memory/shared/share', { body: { grantee: agent.handle, permission: 'write' }, ...as(other.secret) }));
    writes.push(await api(base, 'PUT', '/memory/shared/from-agent', { body: { value: 'written by the agent', handle: other.handle }, ...as(agent.secret) }));
  }
  if (writes.some((w) => w.status !== 200)) throw new Error(`populateMemory: ${writes.map((w) => w.status).join(' ')}`);
}

// Credits and entitlements: a gateway started with ownedDataEnv() lets populateCredits give the agent an
// operator grant, a store entitlement (credits) and a spend, so the delete test covers those tables.
let ownedPki: Pki | undefined;
const OWNED_OPERATOR_TOKEN = 'owned-data-operator-token-0123456789';
const OWNED_PRODUCT = 'com.example.credits.owned';

/** Settings a test gateway needs for populateAgentData to reach every area (operator token, App Store trust). */
export function ownedDataEnv(): Record<string, string> {
  ownedPki ??= makePki('Owned');
  ownedPki.cleanup(); // everything needed is in memory now
  return {
    GATEWAY_OPERATOR_TOKEN: OWNED_OPERATOR_TOKEN,
    GATEWAY_APPSTORE_ROOT_CERT: ownedPki.rootPem,
    GATEWAY_APPSTORE_BUNDLE_ID: BUNDLE_ID,
    GATEWAY_APPSTORE_ENVIRONMENT: 'Sandbox',
    GATEWAY_ENTITLEMENT_PRODUCTS: JSON.stringify({ [OWNED_PRODUCT]: { credits: 5000 } }),
  };
}

export async function populateCredits(base: string, agent: { handle: string; secret: string }): Promise<void> {
  if (!ownedPki) throw new Error('start the gateway with ownedDataEnv() so credits and entitlements can be populated');
  const granted = await api(base, 'POST', '/operator/credits', {
    body: { handle: agent.handle, amount: 3000, reason: 'owned data' },
    headers: { 'x-operator-token': OWNED_OPERATOR_TOKEN },
  });
  const jws = await sign(ownedPki, transaction(Date.now(), { productId: OWNED_PRODUCT }));
  const redeemed = await api(base, 'POST', '/v1/entitlements/appstore', { body: { handle: agent.handle, signed_transaction: jws }, secret: agent.secret });
  const spent = await api(base, 'POST', '/tools/base_convert', { body: { value: '7', from_base: 10, to_base: 2 }, secret: agent.secret });
  if (granted.status !== 201 || redeemed.status !== 200 || spent.status !== 200) {
    throw new Error(`populateCredits: ${granted.status} ${redeemed.status} ${spent.status} (start the gateway with ownedDataEnv())`);
  }
}
