// The commercial group on a gateway without a language model: a dev task goes to the operator as a handoff, whose
// result is delivered (or whose rejection releases the hold), and a model-made order is refused with 503 before any
// hold, after its input is checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { openAccount, orderSettles, revenueKey as key } from '../helpers/commerce.js';
import { DEV_REPLY } from './content-fixtures.js';

const OPERATOR = 'operator-token-for-orders-test';
const operator = { 'x-operator-token': OPERATOR };
let bare: TestGateway;
beforeAll(async () => {
  bare = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR } });
});
afterAll(async () => bare.cleanup());

const account = (email: string, credit: number) => openAccount(bare, email, { operatorToken: OPERATOR, name: 'No Model Co', credit, reason: 'x' });

/** A dev task placed with key `k`, and the handoff it parked for the operator. */
async function parkedDevTask(k: string) {
  const placed = await api(bare.apiUrl, 'POST', '/dev/tasks', { body: { description: 'Add two numbers.', language: 'python' }, headers: key(k) });
  expect(placed.status).toBe(202);
  const orderId = placed.body.order_id as string;
  const parked = await eventually(async () => {
    const hs = (await api(bare.url, 'GET', '/operator/handoffs', { headers: operator })).body.handoffs as { task: string; handoff_id: string; context: unknown }[];
    const h = hs.find((x) => x.task.includes(orderId));
    if (!h) throw new Error('no handoff yet');
    return h;
  });
  return { orderId, parked };
}

/** The operator's answer, then the scheduler's next run. */
async function operatorSays(handoffId: string, verb: 'complete' | 'reject', body: unknown) {
  expect((await api(bare.url, 'POST', `/operator/handoffs/${handoffId}/${verb}`, { body, headers: operator })).status).toBe(200);
  bare.clock.advance(61_000);
  await bare.gateway.registry.services.scheduler.runDue();
}

describe('without a model', () => {
  it('hands a dev task to the operator, whose handoff result is delivered and then accepted', async () => {
    const k = await account('human@example.com', 25_000_000);
    const { orderId, parked } = await parkedDevTask(k);
    expect(parked.context).toMatchObject({ order_id: orderId, language: 'python' });
    await operatorSays(parked.handoff_id, 'complete', { result: DEV_REPLY });
    const delivered = await orderSettles(bare, k, orderId, 'delivered');
    expect(delivered.result.code_blocks[0].code).toContain('def add');
    expect(delivered.payment.state).toBe('held');
    const accepted = await api(bare.apiUrl, 'POST', `/orders/${orderId}/accept`, { headers: key(k) });
    expect(accepted.body.payment).toMatchObject({ state: 'captured', charged_micro_usd: 25_000_000 });
  });

  it('releases a dev task the operator rejects', async () => {
    const k = await account('rejected@example.com', 25_000_000);
    const { orderId, parked } = await parkedDevTask(k);
    await operatorSays(parked.handoff_id, 'reject', { reason: 'Out of scope' });
    const failed = await orderSettles(bare, k, orderId, 'failed');
    expect(failed.error).toMatch(/Out of scope/);
    expect((await api(bare.apiUrl, 'GET', '/usage', { headers: key(k) })).body.balance).toBe(25_000_000);
  });

  it('answers 503 model_not_configured before any hold', async () => {
    const k = await account('bare@example.com', 10_000_000);
    const r = await api(bare.apiUrl, 'POST', '/copy/orders', { body: { type: 'ad', brief: 'Tea', platform: 'Facebook' }, headers: key(k) });
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe('model_not_configured');
    expect((await api(bare.apiUrl, 'GET', '/usage', { headers: key(k) })).body.balance).toBe(10_000_000);
    // Bad input is still a 422 first, naming the field.
    for (const payment_method of ['abc', '', 'pm_card visa']) {
      const bad = await api(bare.apiUrl, 'POST', '/copy/orders', { body: { type: 'ad', brief: 'Tea', platform: 'Facebook', payment_method }, headers: key(k) });
      expect(bad.status, payment_method).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['body', 'payment_method']);
    }
  });
});
