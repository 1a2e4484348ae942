// The Tasks adapter follows whatever durable work a tool declares, not jobs only: a fixture tool (registered by
// this test through the gateway's additions seam) declares work whose state the test sets. A failed work is a
// completed task with an error result; work that vanished reads as an unknown task; a reader that breaks is -32603
// without internals; work already ended when the call returns seeds a completed task; a durable tool whose answer
// names no work keeps its synchronous answer; a suspended agent's task is refused as its tool calls are.
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { WorkState } from '../../src/registry/types.js';
import { register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { modernPost } from '../helpers/modern-mcp.js';

const TASKS = 'io.modelcontextprotocol/tasks';

interface Work {
  state: WorkState | 'broken';
  note: string;
}
const works = new Map<string, Work>();

const start = defineTool({
  name: 'fixture_work_start',
  toolset: 'fixture',
  description: 'Starts fixture work (test only).',
  input: z.object({ id: z.string(), state: z.enum(['running', 'succeeded', 'failed', 'canceled']).default('running'), none: z.boolean().default(false) }),
  auth: 'public',
  durable: {
    read: 'fixture_work_read',
    field: 'work_id',
    idOf: (r: { work_id: string | null }) => r.work_id ?? undefined,
    statusOf: (d) => ({ state: d.state as WorkState, message: `Work is ${String(d.state)}.`, createdAt: 0, updatedAt: 0 }),
  },
  handler: (input) => {
    if (input.none) return { work_id: null };
    works.set(input.id, { state: input.state, note: 'started' });
    return { work_id: input.id };
  },
});

const read = defineTool({
  name: 'fixture_work_read',
  toolset: 'fixture',
  description: 'Reads fixture work (test only).',
  input: z.object({ work_id: z.string() }),
  auth: 'public',
  handler: (input) => {
    const w = works.get(input.work_id);
    if (!w) throw new GatewayError('not_found', 'No such work.');
    if (w.state === 'broken') throw new Error('secret internals: disk on fire');
    return { work_id: input.work_id, ...w };
  },
});

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ additions: { tools: [start, read] } });
});
afterAll(async () => gw.cleanup());

async function rpc(method: string, params: Record<string, unknown>, name: string, secret?: string): Promise<any> {
  const r = await modernPost(gw.url, method, params, { name, capabilities: { extensions: { [TASKS]: {} } }, headers: secret ? { authorization: `Bearer ${secret}` } : {} });
  return r.json();
}
const startWork = (args: Record<string, unknown>) => rpc('tools/call', { name: 'fixture_work_start', arguments: args }, 'fixture_work_start');
const getTask = (taskId: string) => rpc('tasks/get', { taskId }, taskId);

describe('durable work a tool declares', () => {
  it('failed work is a completed task whose result is a tool error carrying the work’s own account', async () => {
    const handle = (await startWork({ id: 'w-fail' })).result;
    expect(handle).toMatchObject({ resultType: 'task', status: 'working', statusMessage: 'Work is running.' });
    works.set('w-fail', { state: 'failed', note: 'upstream said no' });
    const task = (await getTask(handle.taskId)).result;
    expect(task.status).toBe('completed');
    expect(task.result).toMatchObject({ resultType: 'complete', isError: true, structuredContent: { work_id: 'w-fail', state: 'failed', note: 'upstream said no' } });
    expect(task.statusMessage).toBe('Work is failed.');
  });

  it('canceled work is a cancelled task', async () => {
    const handle = (await startWork({ id: 'w-cancel' })).result;
    works.set('w-cancel', { state: 'canceled', note: 'stopped' });
    expect((await getTask(handle.taskId)).result.status).toBe('cancelled');
    // This work declares no cancel tool: tasks/cancel is still acknowledged.
    expect((await rpc('tasks/cancel', { taskId: handle.taskId }, handle.taskId)).result.resultType).toBe('complete');
  });

  it('work that has vanished reads as an unknown task; a broken reader is -32603 without its internals', async () => {
    const gone = (await startWork({ id: 'w-gone' })).result;
    works.delete('w-gone');
    expect((await getTask(gone.taskId)).error).toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task not found' });
    const broken = (await startWork({ id: 'w-broken' })).result;
    works.set('w-broken', { state: 'broken', note: '' });
    const r = await getTask(broken.taskId);
    expect(r.error.code).toBe(-32603);
    expect(JSON.stringify(r)).not.toContain('disk on fire');
  });

  it('a suspended agent’s task is refused as its tool calls are (agent_suspended), and reads again once the suspension ends', async () => {
    const a = await register(gw.url, 'task-owner');
    const handle = (await rpc('tools/call', { name: 'fixture_work_start', arguments: { id: 'w-owned' } }, 'fixture_work_start', a.secret)).result;
    expect(handle.status).toBe('working');
    const { id } = (await gw.gateway.db.get<{ id: string }>('SELECT id FROM agents WHERE handle = ?', ['task-owner']))!;
    await gw.gateway.db.run('UPDATE agents SET suspended_at = ? WHERE id = ?', [gw.clock.now(), id]);
    gw.gateway.registry.services.forgetAgent(id);
    const refused = await rpc('tasks/get', { taskId: handle.taskId }, handle.taskId, a.secret);
    expect(refused.error).toMatchObject({ code: -32003, data: { code: 'agent_suspended' } });
    await gw.gateway.db.run('UPDATE agents SET suspended_at = NULL WHERE id = ?', [id]);
    gw.gateway.registry.services.forgetAgent(id);
    expect((await rpc('tasks/get', { taskId: handle.taskId }, handle.taskId, a.secret)).result.status).toBe('working');
  });

  it('work already ended when the call returns seeds a completed task', async () => {
    const handle = (await startWork({ id: 'w-quick', state: 'succeeded' })).result;
    expect(handle).toMatchObject({ resultType: 'task', status: 'completed' });
    expect(handle.pollIntervalMs).toBeUndefined();
    expect((await getTask(handle.taskId)).result.result.structuredContent).toMatchObject({ state: 'succeeded' });
  });

  it('a durable tool whose answer names no work keeps its synchronous answer', async () => {
    const r = (await startWork({ id: 'unused', none: true })).result;
    expect(r.resultType).toBe('complete');
    expect(r.structuredContent).toEqual({ work_id: null });
  });
});
