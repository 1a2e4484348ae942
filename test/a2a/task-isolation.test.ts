// Owner data never leaks to another agent, over A2A JSON-RPC (POST /a2a) on the v0.3 wire and the v1.0 wire: agent
// A's tasks (three open ones, working on a job, input-required on a handoff and auth-required for payment, and a
// completed one) are "not found" for agent B, an API-key holder and an anonymous caller on every task method: get
// (with and without historyLength), cancel, resubscribe / SubscribeToTask, a message continuing the task (taskId, with
// and without A's contextId), and ListTasks filtered by A's contextId. Each answers exactly as for an id that does not
// exist (-32001, the same message and data but for the id), so not even a task's existence or state is revealed
// (-32002 / -32004 would). A's tasks are unchanged afterwards, and A still reaches, follows and cancels them. The
// HTTP+JSON binding (/a2a/tasks/{id}) is rest.test.ts's; ListTasks itself list-tasks.test.ts's.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { openStream, rpc, userData, userText, v1Text, type RpcReply } from './rpc.js';

const V1 = { 'a2a-version': '1.0' };
type Headers = Record<string, string>;

let gw: TestGateway;
let ownerSecret: string;
let owner: Headers;
/** Who tries A's tasks: another agent with its own secret, a caller with an API key (it owns no task), nobody. */
let strangers: [string, Headers][];
beforeAll(async () => {
  gw = await startGateway();
  ownerSecret = (await register(gw.url, 'iso-owner')).secret;
  owner = { authorization: `Bearer ${ownerSecret}` };
  const other = await register(gw.url, 'iso-other');
  const key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'iso-key@example.com' } })).body.key;
  strangers = [
    ['agent B', { authorization: `Bearer ${other.secret}` }],
    ['an API-key holder', { 'x-api-key': key }],
    ['an anonymous caller', {}],
  ];
});
afterAll(async () => gw.cleanup());

const v1Data = (tool: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ data: { tool, arguments: args } }], ...extra },
});

/** One wire's method names and shapes. */
interface Wire {
  headers: Headers;
  get: string;
  cancel: string;
  subscribe: string;
  send: string;
  text: (text: string, extra?: Record<string, unknown>) => unknown;
  data: (tool: string, args: Record<string, unknown>, extra?: Record<string, unknown>) => unknown;
  /** The task in a send's result. */
  sent: (result: any) => any;
  /** A v0.3 state name as this wire spells it. */
  state: (s: string) => string;
  /** The task in a subscription's first event. */
  streamed: (event: any) => any;
}

const WIRES: [string, Wire][] = [
  [
    '0.3',
    {
      headers: {},
      get: 'tasks/get',
      cancel: 'tasks/cancel',
      subscribe: 'tasks/resubscribe',
      send: 'message/send',
      text: userText,
      data: userData,
      sent: (r) => r,
      state: (s) => s,
      streamed: (e) => e.result,
    },
  ],
  [
    '1.0',
    {
      headers: V1,
      get: 'GetTask',
      cancel: 'CancelTask',
      subscribe: 'SubscribeToTask',
      send: 'SendMessage',
      text: v1Text,
      data: v1Data,
      sent: (r) => r?.task,
      state: (s) => `TASK_STATE_${s.replace('-', '_').toUpperCase()}`,
      streamed: (e) => e.result?.task,
    },
  ],
];

/** An error (or a stream's events) with the task id it names masked: what must be alike for a foreign id and an unknown one. */
const masked = (value: unknown, id: string) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value).split(id).join('<id>')));

/**
 * A foreign task's answer is the unknown id's, -32001, but for the id: no result, the same code, message and data.
 * Soft, so that one leak reports every task and caller it reaches, and the checks of A's tasks after it still run.
 */
function expectLikeUnknown(foreign: RpcReply, foreignId: string, unknown: RpcReply, unknownId: string, what: string) {
  expect(unknown.body.error?.code, `${what} (unknown id)`).toBe(-32001);
  expect.soft(
    { status: foreign.status, result: foreign.body.result, error: masked(foreign.body.error, foreignId) },
    `${what}: ${JSON.stringify(foreign.body).slice(0, 400)}`,
  ).toEqual({ status: unknown.status, result: undefined, error: masked(unknown.body.error, unknownId) });
}

/** Opens a subscription and reads it until the server ends it (a few seconds at most): its events, and whether it ended. */
async function subscribeOnce(method: string, id: string, headers: Headers) {
  const s = await openStream(gw.url, method, { id }, headers);
  const ended = await eventually(async () => expect(s.ended()).toBe(true), 3000).then(
    () => true,
    () => false,
  );
  s.close();
  await s.done;
  return { ended, events: s.events };
}

describe.each(WIRES)('A2A %s wire: agent A’s tasks tried by others', (_version, w) => {
  const ctx = randomUUID();
  const t = {} as Record<'done' | 'working' | 'waiting' | 'unpaid', any>;
  const open = ['working', 'waiting', 'unpaid'] as const;
  let jobId: string;
  /** A's view of each task before anyone else tried it. */
  const before: Record<string, any> = {};

  const call = (method: string, params: unknown, headers: Headers = {}) => rpc(gw.url, method, params, { ...w.headers, ...headers });
  const ownerGet = async (id: string, q: Record<string, unknown> = {}) => (await call(w.get, { id, ...q }, owner)).body.result;
  const jobStatus = async () => (await api(gw.url, 'GET', `/jobs/${jobId}`, { secret: ownerSecret })).body.status;
  const expectUnchanged = async () => {
    for (const [name, task] of Object.entries(t)) expect(await ownerGet(task.id), `A's ${name} task`).toEqual(before[name]);
    expect(await jobStatus()).toBe('queued');
  };

  beforeAll(async () => {
    const send = async (params: unknown) => w.sent((await call(w.send, params, owner)).body.result);
    t.done = await send(w.text('how do I store a secret in the vault?', { contextId: ctx }));
    t.working = await send(w.data('job_create', { type: 'delay', seconds: 600 }, { contextId: ctx }));
    t.waiting = await send(w.data('handoff_create', { task: 'Sign the paper form' }, { contextId: ctx }));
    // A has no credits: the paid call waits in auth-required, and would take a message continuing it.
    t.unpaid = await send(w.data('base_convert', { value: '255', from_base: 10, to_base: 16 }, { contextId: ctx }));
    jobId = t.working.artifacts[0].parts[0].data.job_id;
    for (const [name, task] of Object.entries(t)) before[name] = await ownerGet(task.id);
  });

  it('A has a completed task and three open ones in one context', () => {
    expect(t.done.status.state).toBe(w.state('completed'));
    expect(t.working.status.state).toBe(w.state('working'));
    expect(t.waiting.status.state).toBe(w.state('input-required'));
    expect(t.unpaid.status.state).toBe(w.state('auth-required'));
    for (const task of Object.values(t)) expect(task.contextId).toBe(ctx);
    expect(before.done.history.length).toBeGreaterThanOrEqual(2);
  });

  it('get, with and without historyLength: not found, as an unknown id', async () => {
    for (const [who, auth] of strangers) {
      for (const q of [{}, { historyLength: 0 }, { historyLength: 1 }, { historyLength: 100 }]) {
        const unknownId = randomUUID();
        const unknown = await call(w.get, { id: unknownId, ...q }, auth);
        for (const [name, task] of Object.entries(t)) {
          expectLikeUnknown(await call(w.get, { id: task.id, ...q }, auth), task.id, unknown, unknownId, `${who}: ${w.get} ${JSON.stringify(q)} of A's ${name} task`);
        }
      }
    }
  });

  it('cancel: not found (a completed task not "not cancelable"), and A’s open tasks stay open, its job queued', async () => {
    for (const [who, auth] of strangers) {
      const unknownId = randomUUID();
      const unknown = await call(w.cancel, { id: unknownId }, auth);
      for (const [name, task] of Object.entries(t)) {
        expectLikeUnknown(await call(w.cancel, { id: task.id }, auth), task.id, unknown, unknownId, `${who}: ${w.cancel} of A's ${name} task`);
      }
    }
    await expectUnchanged();
  });

  it('resubscribe: one not-found error event and the end of the stream, nothing of A’s task', async () => {
    for (const [who, auth] of strangers) {
      const unknownId = randomUUID();
      const unknown = await subscribeOnce(w.subscribe, unknownId, { ...w.headers, ...auth });
      expect(unknown).toEqual({ ended: true, events: [{ jsonrpc: '2.0', id: 'open-1', error: expect.objectContaining({ code: -32001 }) }] });
      for (const [name, task] of Object.entries(t)) {
        const foreign = await subscribeOnce(w.subscribe, task.id, { ...w.headers, ...auth });
        const what = `${who}: ${w.subscribe} to A's ${name} task: ${JSON.stringify(foreign).slice(0, 400)}`;
        expect.soft(foreign.ended, what).toBe(true);
        expect.soft(masked(foreign.events, task.id), what).toEqual(masked(unknown.events, unknownId));
        expect.soft(JSON.stringify(foreign.events), what).not.toContain(ctx);
      }
    }
    await expectUnchanged();
  });

  it('a message continuing the task (taskId, with and without A’s contextId): not found, nothing appended or read', async () => {
    const refs = [(id: string) => ({ taskId: id }), (id: string) => ({ taskId: id, contextId: ctx })];
    for (const [who, auth] of strangers) {
      for (const ref of refs) {
        // A paid call: an API key holder's would pay for, and finish, A's auth-required task if it reached it.
        const message = (id: string) => w.data('base_convert', { value: '7', from_base: 10, to_base: 2 }, ref(id));
        const unknownId = randomUUID();
        const unknown = await call(w.send, message(unknownId), auth);
        for (const [name, task] of Object.entries(t)) {
          const what = `${who}: ${w.send} ${JSON.stringify(ref('<id>'))} to A's ${name} task`;
          expectLikeUnknown(await call(w.send, message(task.id), auth), task.id, unknown, unknownId, what);
        }
      }
    }
    await expectUnchanged();
    for (const [name, task] of Object.entries(t)) expect((await ownerGet(task.id)).history, `A's ${name} task`).toHaveLength(before[name].history.length);
  });

  it('ListTasks filtered by A’s contextId lists none of A’s tasks', async () => {
    const mine = Object.values(t).map((task) => task.id);
    for (const [who, auth] of strangers) {
      for (const q of [{ contextId: ctx }, { contextId: ctx, status: 'TASK_STATE_WORKING' }, { contextId: ctx, historyLength: 10, includeArtifacts: true }]) {
        const listed = await rpc(gw.url, 'ListTasks', q, { ...V1, ...auth });
        expect.soft(listed.body.result, `${who}: ListTasks ${JSON.stringify(q)}`).toMatchObject({ tasks: [], totalSize: 0, nextPageToken: '' });
      }
      const all = (await rpc(gw.url, 'ListTasks', { pageSize: 100 }, { ...V1, ...auth })).body.result;
      expect(all.tasks.map((x: { id: string }) => x.id).filter((id: string) => mine.includes(id)), `${who}: ListTasks {}`).toEqual([]);
    }
    const own = (await rpc(gw.url, 'ListTasks', { contextId: ctx }, { ...V1, ...owner })).body.result;
    expect(own.tasks.map((x: { id: string }) => x.id).sort()).toEqual([...mine].sort());
  });

  it('a new message in A’s contextId starts the caller’s own conversation, without A’s history', async () => {
    const mine = Object.values(t).map((task) => task.id);
    for (const [who, auth] of strangers) {
      const theirs = w.sent((await call(w.send, w.text('and how do I list them?', { contextId: ctx }), auth)).body.result);
      expect(theirs, who).toMatchObject({ contextId: ctx, status: { state: w.state('completed') } });
      expect(mine).not.toContain(theirs.id);
      expect(theirs.history, who).toHaveLength(2);
      // A asked about the vault in this context: the follow-up is not read as a vault question for anyone else.
      expect(theirs.status.message.parts[0].text, who).not.toMatch(/vault_list/);
    }
    const own = (await rpc(gw.url, 'ListTasks', { contextId: ctx }, { ...V1, ...owner })).body.result;
    expect(own.tasks.map((x: { id: string }) => x.id).sort()).toEqual([...mine].sort());
    await expectUnchanged();
  });

  it('A still reaches its tasks, unchanged and open, follows one, and cancels them', async () => {
    await expectUnchanged();
    expect((await ownerGet(t.done.id, { historyLength: 1 })).history).toHaveLength(1);
    // What the others were not told: A's completed task exists, takes no messages and cannot be canceled.
    expect((await call(w.cancel, { id: t.done.id }, owner)).body.error.code).toBe(-32002);
    expect((await call(w.send, w.text('more', { taskId: t.done.id }), owner)).body.error.code).toBe(-32004);
    const s = await openStream(gw.url, w.subscribe, { id: t.working.id }, { ...w.headers, ...owner });
    await eventually(async () => expect(w.streamed(s.events[0])).toMatchObject({ id: t.working.id, status: { state: w.state('working') } }));
    s.close();
    await s.done;
    for (const name of open) {
      const canceled = (await call(w.cancel, { id: t[name].id }, owner)).body.result;
      expect(canceled, name).toMatchObject({ id: t[name].id, status: { state: w.state('canceled') } });
      expect((await ownerGet(t[name].id)).status.state, name).toBe(w.state('canceled'));
    }
    expect(await jobStatus()).toBe('canceled');
  });
});
