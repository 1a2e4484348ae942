// Long-running work over A2A: a data part starting a delay job keeps the task `working`, a handoff keeps it
// `input-required`, until the bus says the work ended; streams (message/stream, tasks/resubscribe) follow
// it; a restart in between loses nothing; canceling the task cancels the job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { api, register, startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { openStream, rpc, userData, userText } from './rpc.js';

const OPERATOR = 'a2a-durable-operator-token-0123';
let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OPERATOR } });
});
afterAll(async () => gw.cleanup());

const runDue = (g: TestGateway = gw) => g.gateway.registry.services.scheduler.runDue();
const stateOf = async (id: string, headers: Record<string, string> = {}, g: TestGateway = gw) => (await rpc(g.url, 'tasks/get', { id }, headers)).body.result.status.state;

describe('a delay job', () => {
  it('keeps the task working; the open stream follows it to completion', async () => {
    const s = await openStream(gw.url, 'message/stream', userData('job_create', { type: 'delay', seconds: 60 }));
    await eventually(async () => expect(s.events.length).toBeGreaterThanOrEqual(4));
    const [task, working, created, waiting] = s.events.map((e) => e.result);
    expect(task).toMatchObject({ kind: 'task', status: { state: 'submitted' } });
    expect(working).toMatchObject({ kind: 'status-update', status: { state: 'working' }, final: false });
    expect(created).toMatchObject({ kind: 'artifact-update', artifact: { name: 'job_create', parts: [{ data: { status: 'queued' } }] } });
    expect(waiting).toMatchObject({ kind: 'status-update', status: { state: 'working' }, final: false });
    const jobId = created.artifact.parts[0].data.job_id as string;
    expect(waiting.status.message.parts[0].text).toContain(jobId);
    expect(s.ended()).toBe(false);
    expect(await stateOf(task.id)).toBe('working');

    // A message to a task that waits is refused; the job is not due yet.
    expect((await rpc(gw.url, 'message/send', userText('hurry', { taskId: task.id }))).body.error.code).toBe(-32004);
    await runDue();
    expect(await stateOf(task.id)).toBe('working');

    gw.clock.advance(60_000);
    await runDue();
    await s.done;
    const tail = s.events.slice(4).map((e) => e.result);
    expect(tail.map((e) => e.kind)).toContain('artifact-update');
    const last = tail[tail.length - 1];
    expect(last).toMatchObject({ kind: 'status-update', status: { state: 'completed' }, final: true });
    const done = (await rpc(gw.url, 'tasks/get', { id: task.id })).body.result;
    expect(done.status.state).toBe('completed');
    expect(done.artifacts.at(-1)).toMatchObject({ name: 'job_result', parts: [{ data: { job_id: jobId, status: 'succeeded', result: { waited_seconds: 60 } } }] });
  });

  it('message/send answers working at once; tasks/resubscribe follows the rest', async () => {
    const sent = (await rpc(gw.url, 'message/send', userData('job_create', { type: 'delay', seconds: 30 }))).body.result;
    expect(sent.status.state).toBe('working');
    const s = await openStream(gw.url, 'tasks/resubscribe', { id: sent.id });
    await eventually(async () => expect(s.events.length).toBe(1));
    expect(s.events[0].result).toMatchObject({ kind: 'task', id: sent.id, status: { state: 'working' } });
    gw.clock.advance(30_000);
    await runDue();
    await s.done;
    expect(s.events.at(-1).result).toMatchObject({ kind: 'status-update', status: { state: 'completed' }, final: true });
  });

  it('canceling the task cancels the caller’s job', async () => {
    const a = await register(gw.url, 'a2a-job-owner');
    const auth = { authorization: `Bearer ${a.secret}` };
    const sent = (await rpc(gw.url, 'message/send', userData('job_create', { type: 'delay', seconds: 600 }), auth)).body.result;
    const jobId = sent.artifacts[0].parts[0].data.job_id;
    const s = await openStream(gw.url, 'tasks/resubscribe', { id: sent.id }, auth);
    await eventually(async () => expect(s.events.length).toBe(1));
    const canceled = (await rpc(gw.url, 'tasks/cancel', { id: sent.id }, auth)).body.result;
    expect(canceled.status.state).toBe('canceled');
    await s.done;
    expect(s.events.at(-1).result).toMatchObject({ status: { state: 'canceled' }, final: true });
    expect((await api(gw.url, 'GET', `/jobs/${jobId}`)).body.status).toBe('canceled');
    expect((await rpc(gw.url, 'tasks/cancel', { id: sent.id }, auth)).body.error.code).toBe(-32002);
    // The job's own cancel event does not touch the canceled task again.
    expect((await rpc(gw.url, 'tasks/get', { id: sent.id }, auth)).body.result.history).toHaveLength(canceled.history.length);
  });
});

describe('a handoff', () => {
  it('keeps the task input-required until an operator completes it', async () => {
    const sent = (await rpc(gw.url, 'message/send', userData('handoff_create', { task: 'Sign the paper form' }))).body.result;
    expect(sent.status.state).toBe('input-required');
    const handoffId = sent.artifacts[0].parts[0].data.handoff_id;
    const s = await openStream(gw.url, 'tasks/resubscribe', { id: sent.id });
    await eventually(async () => expect(s.events.length).toBe(1));
    const done = await api(gw.url, 'POST', `/operator/handoffs/${handoffId}/complete`, { body: { result: { signed: true } }, headers: { 'x-operator-token': OPERATOR } });
    expect(done.status).toBe(200);
    await s.done;
    expect(s.events.at(-1).result).toMatchObject({ status: { state: 'completed' }, final: true });
    const task = (await rpc(gw.url, 'tasks/get', { id: sent.id })).body.result;
    expect(task.artifacts.at(-1).parts[0].data).toMatchObject({ handoff_id: handoffId, status: 'completed', result: { signed: true } });
  });

  it('a rejected handoff rejects the task; an expired one fails it', async () => {
    const a = (await rpc(gw.url, 'message/send', userData('handoff_create', { task: 'Call the bank' }))).body.result;
    await api(gw.url, 'POST', `/operator/handoffs/${a.artifacts[0].parts[0].data.handoff_id}/reject`, { body: { reason: 'no phone' }, headers: { 'x-operator-token': OPERATOR } });
    await eventually(async () => expect(await stateOf(a.id)).toBe('rejected'));
    const b = (await rpc(gw.url, 'message/send', userData('handoff_create', { task: 'Wait forever', ttl_seconds: 60 }))).body.result;
    gw.clock.advance(61_000);
    await runDue();
    await eventually(async () => expect(await stateOf(b.id)).toBe('failed'));
  });
});

describe('restart', () => {
  it('stopping the gateway ends open streams at once (no wait for the shutdown grace)', async () => {
    const g = await startGateway();
    const sent = (await rpc(g.url, 'message/send', userData('job_create', { type: 'delay', seconds: 3600 }))).body.result;
    const s = await openStream(g.url, 'tasks/resubscribe', { id: sent.id });
    await eventually(async () => expect(s.events.length).toBe(1));
    const t0 = Date.now();
    await g.cleanup();
    await s.done;
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('a task waiting for a job finishes after a restart, when the job does', async () => {
    const dataDir = tempDir();
    const clock = new ManualClock();
    const first = await startGateway({ dataDir, clock });
    const sent = (await rpc(first.url, 'message/send', userData('job_create', { type: 'delay', seconds: 120 }))).body.result;
    const asked = (await rpc(first.url, 'message/send', userText('how do I store a secret?'))).body.result;
    await first.stop();

    clock.advance(121_000);
    const second = await startGateway({ dataDir, clock });
    try {
      expect((await rpc(second.url, 'tasks/get', { id: asked.id })).body.result).toMatchObject({ status: { state: 'completed' }, history: asked.history });
      await runDue(second);
      await eventually(async () => expect(await stateOf(sent.id, {}, second)).toBe('completed'));
      const task = (await rpc(second.url, 'tasks/get', { id: sent.id })).body.result;
      expect(task.artifacts.at(-1)).toMatchObject({ name: 'job_result' });
    } finally {
      await second.cleanup();
    }
  });
});
