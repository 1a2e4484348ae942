// An A2A event stream outlives the request that opened it, so its caller is checked as each event is written: a
// stream opened by an agent that is then suspended, or whose secret is then rotated, ends with that error instead of
// carrying its task's updates. The control: the same stream of an agent in good standing gets the update.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { openStream, parseSse, rpc, userData } from './rpc.js';

const OPERATOR = 'a2a-lapse-operator-token-0123';
const op = { 'x-operator-token': OPERATOR };
let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR } });
});
afterAll(async () => gw.cleanup());

/** A task waiting for a human (input-required), its handoff's id, and a stream following it. */
async function waitingTask(secret: string) {
  const auth = { authorization: `Bearer ${secret}` };
  const sent = (await rpc(gw.url, 'message/send', userData('handoff_create', { task: 'Sign the paper form' }), auth)).body.result;
  expect(sent.status.state).toBe('input-required');
  const s = await openStream(gw.url, 'tasks/resubscribe', { id: sent.id }, auth);
  await eventually(async () => expect(s.events.length).toBe(1));
  return { task: sent, handoffId: sent.artifacts[0].parts[0].data.handoff_id as string, s };
}

const complete = async (handoffId: string) =>
  expect((await api(gw.url, 'POST', `/operator/handoffs/${handoffId}/complete`, { body: { result: { signed: 'by hand' } }, headers: op })).status).toBe(200);

describe('an open A2A stream whose caller lapses', () => {
  it('control: an agent in good standing hears its task complete', async () => {
    const a = await register(gw.url, 'lapse-good');
    const { handoffId, s } = await waitingTask(a.secret);
    await complete(handoffId);
    await s.done;
    expect(s.events.at(-1).result).toMatchObject({ status: { state: 'completed' }, final: true });
  });

  it('ends with agent_suspended once the agent is suspended, and carries nothing of the task after', async () => {
    const a = await register(gw.url, 'lapse-suspended');
    const { handoffId, s } = await waitingTask(a.secret);
    expect((await api(gw.url, 'POST', `/operator/agents/${a.handle}/suspend`, { headers: op })).status).toBe(200);
    await complete(handoffId);
    await s.done;
    const last = s.events.at(-1);
    expect(last.error).toMatchObject({ code: -32000, data: { code: 'agent_suspended', status: 403 } });
    expect(JSON.stringify(s.events)).not.toContain('by hand');
    expect(s.events.some((e) => e.result?.status?.state === 'completed')).toBe(false);
  });

  it('ends with 401 once the secret it was opened with is rotated; the new secret follows the task', async () => {
    const a = await register(gw.url, 'lapse-rotated');
    const { task, handoffId, s } = await waitingTask(a.secret);
    const rotated = await api(gw.url, 'POST', `/agents/${a.handle}/secret`, { secret: a.secret });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.secret as string;
    const again = await openStream(gw.url, 'tasks/resubscribe', { id: task.id }, { authorization: `Bearer ${fresh}` });
    await eventually(async () => expect(again.events.length).toBe(1));
    await complete(handoffId);
    await s.done;
    expect(s.events.at(-1).error).toMatchObject({ code: -32000, data: { code: 'unauthorized', status: 401 } });
    expect(JSON.stringify(s.events)).not.toContain('by hand');
    await again.done;
    expect(again.events.at(-1).result).toMatchObject({ status: { state: 'completed' }, final: true });
  });

  it('over HTTP+JSON too: the error is the stream’s last event', async () => {
    const a = await register(gw.url, 'lapse-rest');
    const auth = { authorization: `Bearer ${a.secret}` };
    const sent = (await rpc(gw.url, 'message/send', userData('handoff_create', { task: 'Stamp it' }), auth)).body.result;
    const handoffId = sent.artifacts[0].parts[0].data.handoff_id as string;
    const res = await fetch(`${gw.url}/a2a/tasks/${sent.id}:subscribe`, { method: 'POST', headers: { ...auth, accept: 'text/event-stream', 'a2a-version': '1.0' } });
    expect(res.status).toBe(200);
    const reading = res.text();
    await new Promise((r) => setTimeout(r, 100));
    expect((await api(gw.url, 'POST', `/operator/agents/${a.handle}/suspend`, { headers: op })).status).toBe(200);
    await complete(handoffId);
    const text = await reading;
    expect(text).toContain('event: error');
    const error = JSON.parse(text.slice(text.indexOf('event: error')).split('\n')[1].slice('data: '.length));
    expect(error.error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED', details: [{ reason: 'AGENT_SUSPENDED', domain: 'agent-gateway' }] });
    expect(parseSse(text).some((e) => JSON.stringify(e).includes('TASK_STATE_COMPLETED'))).toBe(false);
  });
});
