// The Tasks extension for durable work beyond jobs (DurableWork's other states, src/mcp/tasks.ts): work that waits
// for the person mid-way shows its questions on tasks/get (input_required) and takes the answers from tasks/update,
// checked against them, one at a time if the client likes; work that breaks is `failed` with an error, unlike work
// that ends in a tool error (`completed`, isError); work only a task can follow is refused (-32021) to a request
// that does not declare the extension. The work is the conformance harness's in-memory fixtures (conformance-tasks.ts).
import { GetTaskResultV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskTools } from '../helpers/conformance-tasks.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { modernPost } from '../helpers/modern-mcp.js';

const TASKS = 'io.modelcontextprotocol/tasks';
let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ additions: { tools: taskTools } });
});
afterAll(async () => gw.cleanup());

async function rpc(method: string, params: Record<string, unknown>, tasks = true) {
  const res = await modernPost(gw.url, method, params, { capabilities: tasks ? { extensions: { [TASKS]: {} } } : {} });
  return { status: res.status, body: (await res.json()) as { result?: any; error?: { code: number; message: string; data?: any } } };
}
const get = async (taskId: string) => GetTaskResultV2Schema.parse((await rpc('tasks/get', { taskId })).body.result) as any;
const start = async (name: string, args: Record<string, unknown> = {}) => {
  const created = (await rpc('tools/call', { name, arguments: args })).body.result;
  expect(created.resultType).toBe('task');
  return created.taskId as string;
};

describe('work that waits for the person', () => {
  it('shows its question on tasks/get and resumes with the answer of tasks/update', async () => {
    const taskId = await start('confirm_delete', { filename: 'notes.txt' });
    const waiting = await get(taskId);
    expect(waiting.status).toBe('input_required');
    expect(waiting.inputRequests.confirm_delete).toMatchObject({ method: 'elicitation/create', params: { message: 'Delete notes.txt?' } });
    const ack = await rpc('tasks/update', { taskId, inputResponses: { confirm_delete: { action: 'accept', content: { confirm: true } } } });
    expect(ack.body.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    const done = await get(taskId);
    expect(done.status).toBe('completed');
    expect(JSON.parse(done.result.content[0].text)).toMatchObject({ filename: 'notes.txt', deleted: true });
  });

  it('takes answers one at a time, ignores keys it did not ask, and refuses an answer outside the form', async () => {
    const taskId = await start('multi_input');
    expect(Object.keys((await get(taskId)).inputRequests).sort()).toEqual(['first', 'second']);
    await rpc('tasks/update', { taskId, inputResponses: { first: { action: 'accept', content: { name: 'A', confirm: true } }, stray: { action: 'accept' } } });
    const half = await get(taskId);
    expect(half.status).toBe('input_required');
    expect(Object.keys(half.inputRequests)).toEqual(['second']);
    const bad = await rpc('tasks/update', { taskId, inputResponses: { second: { action: 'accept', content: { confirm: 'yes' } } } });
    expect(bad.body.error?.code).toBe(-32602);
    await rpc('tasks/update', { taskId, inputResponses: { second: { action: 'accept', content: { name: 'B', confirm: true } } } });
    const done = await get(taskId);
    expect(done.status).toBe('completed');
    expect(JSON.parse(done.result.content[0].text)).toMatchObject({ first: 'A', second: 'B' });
  });
});

describe('how work ends', () => {
  it('a tool error is completed with isError; work that breaks is failed with an error and no result', async () => {
    const failing = await start('failing_job');
    const broken = await start('protocol_error_job');
    const ended = async (id: string) => eventually(async () => {
      const t = await get(id);
      expect(t.status).not.toBe('working');
      return t;
    }, 5000);
    const f = await ended(failing);
    expect(f.status).toBe('completed');
    expect(f.result.isError).toBe(true);
    const b = await ended(broken);
    expect(b.status).toBe('failed');
    expect(b.error).toEqual({ code: -32603, message: 'The work stopped unexpectedly.' });
    expect(b.result).toBeUndefined();
  });
});

describe('work only a task can follow', () => {
  it('is refused with MissingRequiredClientCapability naming the extension when the request does not declare it', async () => {
    const refused = await rpc('tools/call', { name: 'failing_job', arguments: {} }, false);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
  });

  it('other durable work answers without a task when the request does not declare the extension', async () => {
    const sync = await rpc('tools/call', { name: 'slow_compute', arguments: { seconds: 0, label: 'now' } }, false);
    expect(sync.body.result.structuredContent).toEqual({ label: 'now', seconds: 0, computed: true });
  });
});
