// Paid tools over A2A follow the REST rules: an API key spends quota, an agent's secret spends its credits,
// nothing pays nothing (the x402 challenge: a Message to a caller without credentials, an auth-required task to an
// agent); the charge is reported with the result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { rpc, userData, userText } from './rpc.js';

const OPERATOR = 'a2a-payment-operator-token-0123';
let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR } });
});
afterAll(async () => gw.cleanup());

describe('paying for calculators over A2A', () => {
  it('an API key pays from its quota, one unit per calculator call (text or data part)', async () => {
    const key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'a2a-pay@example.com' } })).body.key;
    const k = { 'x-api-key': key };
    expect((await rpc(gw.url, 'message/send', userText('12 xor 10'), k)).body.result.status.state).toBe('completed');
    expect((await rpc(gw.url, 'message/send', userData('bitwise', { op: 'and', a: 12, b: 10 }), k)).body.result.status.state).toBe('completed');
    expect((await rpc(gw.url, 'message/send', userText('what can you do?'), k)).body.result.status.state).toBe('completed');
    expect((await api(gw.url, 'GET', '/keys/usage', { headers: k })).body.used).toBe(2);
    // A key that is not valid is no credential: the answer is the refusal alone, as a Message (no task is stored).
    const bad = await rpc(gw.url, 'message/send', userData('bitwise', { op: 'and', a: 1, b: 1 }), { 'x-api-key': 'agk_live_not_a_key' });
    expect(bad.body.result).toMatchObject({ kind: 'message', role: 'agent' });
    expect(bad.body.result.parts[1].data.error.message).toContain('not valid');
  });

  it('an agent’s secret pays with its credits; without enough it is auth-required', async () => {
    const a = await register(gw.url, 'a2a-payer');
    const auth = { authorization: `Bearer ${a.secret}` };
    const broke = (await rpc(gw.url, 'message/send', userData('base_convert', { value: '255', from_base: 10, to_base: 16 }), auth)).body.result;
    expect(broke.status.state).toBe('auth-required');
    expect(broke.status.message.parts[1].data.error.message).toContain('Not enough credits');
    const granted = await api(gw.url, 'POST', '/operator/credits', { body: { handle: 'a2a-payer', amount: 5000, reason: 'test' }, headers: { 'x-operator-token': OPERATOR } });
    expect(granted.status).toBe(201);
    const paid = (await rpc(gw.url, 'message/send', userData('base_convert', { value: '255', from_base: 10, to_base: 16 }), auth)).body.result;
    expect(paid.status.state).toBe('completed');
    expect(paid.artifacts[0].parts[0].data.value).toBe('ff');
    const viaText = (await rpc(gw.url, 'message/send', userText('convert 255 to base 8'), auth)).body.result;
    expect(viaText.artifacts[0].parts[1].data.answer.result.value).toBe('377');
    expect((await api(gw.url, 'GET', '/agents/a2a-payer/credits', { secret: a.secret })).body.balance).toBe(3000);
  });
});
