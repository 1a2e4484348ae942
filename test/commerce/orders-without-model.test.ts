// The commercial group on a gateway without a language model: a dev task goes to the operator as a handoff, whose
// result is delivered (or whose rejection releases the hold), and a model-made order is refused with 503 before any
// hold, after its input is checked.
import { describe, expect, it } from 'vitest';
import { api, startGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { revenueKey as key } from '../helpers/commerce.js';
import { DEV_REPLY } from './content-fixtures.js';

const OPERATOR = 'operator-token-for-orders-test';
const operator = { 'x-operator-token': OPERATOR };

describe('without a model', () => {
  it('hands a dev task to the operator, whose handoff result is delivered and then accepted', async () => {
    const bare = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR } });
    try {
      const k = (await api(bare.apiUrl, 'POST', '/signup', { body: { email: 'human@example.com', name: 'H' } })).body.key;
      await api(bare.url, 'POST', '/operator/credits', { body: { email: 'human@example.com', amount: 25_000_000, reason: 'x' }, headers: operator });
      const placed = await api(bare.apiUrl, 'POST', '/dev/tasks', { body: { description: 'Add two numbers.', language: 'python' }, headers: key(k) });
      expect(placed.status).toBe(202);
      const parked = await eventually(async () => {
        const hs = (await api(bare.url, 'GET', '/operator/handoffs', { headers: operator })).body.handoffs;
        if (!hs.length) throw new Error('no handoff yet');
        return hs[0];
      });
      expect(parked.task).toContain(placed.body.order_id);
      expect(parked.context).toMatchObject({ order_id: placed.body.order_id, language: 'python' });
      const done = await api(bare.url, 'POST', `/operator/handoffs/${parked.handoff_id}/complete`, { body: { result: DEV_REPLY }, headers: operator });
      expect(done.status).toBe(200);
      bare.clock.advance(61_000);
      await bare.gateway.registry.services.scheduler.runDue();
      const delivered = await eventually(async () => {
        const o = (await api(bare.apiUrl, 'GET', `/orders/${placed.body.order_id}`, { headers: key(k) })).body;
        if (o.status !== 'delivered') throw new Error(o.status);
        return o;
      });
      expect(delivered.result.code_blocks[0].code).toContain('def add');
      expect(delivered.payment.state).toBe('held');
      const accepted = await api(bare.apiUrl, 'POST', `/orders/${placed.body.order_id}/accept`, { headers: key(k) });
      expect(accepted.body.payment).toMatchObject({ state: 'captured', charged_micro_usd: 25_000_000 });
    } finally {
      await bare.cleanup();
    }
  });

  it('releases a dev task the operator rejects', async () => {
    const bare = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR } });
    try {
      const k = (await api(bare.apiUrl, 'POST', '/signup', { body: { email: 'rejected@example.com', name: 'R' } })).body.key;
      await api(bare.url, 'POST', '/operator/credits', { body: { email: 'rejected@example.com', amount: 25_000_000, reason: 'x' }, headers: operator });
      const placed = await api(bare.apiUrl, 'POST', '/dev/tasks', { body: { description: 'Add two numbers.', language: 'python' }, headers: key(k) });
      const parked = await eventually(async () => {
        const hs = (await api(bare.url, 'GET', '/operator/handoffs', { headers: operator })).body.handoffs;
        if (!hs.length) throw new Error('no handoff yet');
        return hs[0];
      });
      await api(bare.url, 'POST', `/operator/handoffs/${parked.handoff_id}/reject`, { body: { reason: 'Out of scope' }, headers: operator });
      bare.clock.advance(61_000);
      await bare.gateway.registry.services.scheduler.runDue();
      const failed = await eventually(async () => {
        const o = (await api(bare.apiUrl, 'GET', `/orders/${placed.body.order_id}`, { headers: key(k) })).body;
        if (o.status !== 'failed') throw new Error(o.status);
        return o;
      });
      expect(failed.error).toMatch(/Out of scope/);
      expect((await api(bare.apiUrl, 'GET', '/usage', { headers: key(k) })).body.balance).toBe(25_000_000);
    } finally {
      await bare.cleanup();
    }
  });

  it('answers 503 model_not_configured before any hold', async () => {
    const bare = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR } });
    try {
      const k = (await api(bare.apiUrl, 'POST', '/signup', { body: { email: 'bare@example.com', name: 'B' } })).body.key;
      await api(bare.url, 'POST', '/operator/credits', { body: { email: 'bare@example.com', amount: 10_000_000, reason: 'x' }, headers: operator });
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
    } finally {
      await bare.cleanup();
    }
  });
});
