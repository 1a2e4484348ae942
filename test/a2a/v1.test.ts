// Beyond the spec: with `A2A-Version: 1.0` the same endpoint speaks A2A v1.0 (PascalCase methods,
// protobuf-JSON shapes) over the same task store. Raw JSON-RPC here; see docs/decisions/conversational.md for the v1.0 SDK.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { openStream, rpc, rpcStream, userText, v1Text } from './rpc.js';

const V1 = { 'a2a-version': '1.0' };
let gw: TestGateway;
let key: string;
beforeAll(async () => {
  gw = await startGateway();
  key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'v1@example.com' } })).body.key;
});
afterAll(async () => gw.cleanup());

const v1Data = (tool: string, args: Record<string, unknown>) => ({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ data: { tool, arguments: args } }] } });

describe('A2A v1.0 method names and shapes', () => {
  it('SendMessage returns {task} with TASK_STATE_* states, ROLE_* roles and parts without kind', async () => {
    const r = await rpc(gw.url, 'SendMessage', v1Text('convert 255 to base 2'), { ...V1, 'x-api-key': key });
    expect(r.status).toBe(200);
    const task = r.body.result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.status.message.role).toBe('ROLE_AGENT');
    expect(task.status.message.parts[0]).toEqual({ text: '255 in base 10 is 11111111 in base 2.' });
    expect(task.status.message.parts).toHaveLength(1);
    expect(task.artifacts[0].parts[1].data.answer.tool).toBe('base_convert');
    expect(task.history.map((m: { role: string }) => m.role)).toEqual(['ROLE_USER', 'ROLE_AGENT']);
    expect(task.kind).toBeUndefined();
    expect(task.artifacts[0].parts[0].kind).toBeUndefined();
  });

  it('a data part calls a tool; without payment an anonymous caller gets {message} saying so, an agent a TASK_STATE_AUTH_REQUIRED task', async () => {
    const free = (await rpc(gw.url, 'SendMessage', v1Data('uuid', {}), V1)).body.result.task;
    expect(free.status.state).toBe('TASK_STATE_COMPLETED');
    const unpaid = (await rpc(gw.url, 'SendMessage', v1Data('bitwise', { op: 'xor', a: 12, b: 10 }), V1)).body.result;
    expect(unpaid.task).toBeUndefined();
    expect(unpaid.message).toMatchObject({ role: 'ROLE_AGENT', contextId: expect.any(String) });
    expect(unpaid.message.taskId).toBeUndefined();
    expect(unpaid.message.parts[1].data.error).toMatchObject({ code: 'payment_required', status: 402 });
    const a = await register(gw.url, 'v1-broke');
    const broke = (await rpc(gw.url, 'SendMessage', v1Data('bitwise', { op: 'xor', a: 12, b: 10 }), { ...V1, authorization: `Bearer ${a.secret}` })).body.result.task;
    expect(broke.status.state).toBe('TASK_STATE_AUTH_REQUIRED');
  });

  it('GetTask (historyLength) and CancelTask work on the same store as v0.3', async () => {
    const v03 = (await rpc(gw.url, 'message/send', userText('what can you do?'))).body.result;
    const got = (await rpc(gw.url, 'GetTask', { id: v03.id, historyLength: 1 }, V1)).body.result;
    expect(got).toMatchObject({ id: v03.id, contextId: v03.contextId, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(got.history).toHaveLength(1);
    const v1 = (await rpc(gw.url, 'SendMessage', v1Text('how do I host a file?'), V1)).body.result.task;
    expect((await rpc(gw.url, 'tasks/get', { id: v1.id })).body.result.status.state).toBe('completed');
    expect((await rpc(gw.url, 'CancelTask', { id: v1.id }, V1)).body.error.code).toBe(-32002);
    expect((await rpc(gw.url, 'GetTask', { id: 'nope' }, V1)).body.error.code).toBe(-32001);
    const waiting = (await rpc(gw.url, 'SendMessage', v1Data('job_create', { type: 'delay', seconds: 600 }), V1)).body.result.task;
    expect(waiting.status.state).toBe('TASK_STATE_WORKING');
    expect((await rpc(gw.url, 'CancelTask', { id: waiting.id }, V1)).body.result.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('SendStreamingMessage streams {task}, {statusUpdate}, {artifactUpdate} as JSON-RPC responses', async () => {
    const events = await rpcStream(gw.url, 'SendStreamingMessage', v1Text('how do I store a secret?'), V1);
    expect(events.every((e) => e.jsonrpc === '2.0' && e.id === 'stream-1')).toBe(true);
    const results = events.map((e) => e.result);
    expect(Object.keys(results[0])).toEqual(['task']);
    expect(results[0].task.status.state).toBe('TASK_STATE_SUBMITTED');
    expect(results.map((r) => Object.keys(r)[0])).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(results[3].statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('SubscribeToTask follows a running task; on a terminal task it is UnsupportedOperation (-32004)', async () => {
    const done = (await rpc(gw.url, 'SendMessage', v1Text('what can you do?'), V1)).body.result.task;
    const refused = await rpcStream(gw.url, 'SubscribeToTask', { id: done.id }, V1);
    expect(refused).toEqual([{ jsonrpc: '2.0', id: 'stream-1', error: expect.objectContaining({ code: -32004 }) }]);

    const waiting = (await rpc(gw.url, 'SendMessage', v1Data('job_create', { type: 'delay', seconds: 5 }), V1)).body.result.task;
    const s = await openStream(gw.url, 'SubscribeToTask', { id: waiting.id }, V1);
    await eventually(async () => expect(s.events[0]?.result.task.status.state).toBe('TASK_STATE_WORKING'));
    gw.clock.advance(5_000);
    await gw.gateway.registry.services.scheduler.runDue();
    await s.done;
    expect(s.events.at(-1).result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('returnImmediately answers before the work is done', async () => {
    const r = (await rpc(gw.url, 'SendMessage', { ...v1Text('how do I register a handle?'), configuration: { returnImmediately: true } }, V1)).body.result.task;
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(r.status.state);
  });

  it('GetExtendedAgentCard returns the v1.0 card with the caller’s owner-only skills', async () => {
    const a = await register(gw.url, 'v1-card');
    const card = (await rpc(gw.url, 'GetExtendedAgentCard', undefined, { ...V1, authorization: `Bearer ${a.secret}` })).body.result;
    expect(card.supportedInterfaces).toContainEqual({ url: `${gw.url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
    expect(card.capabilities).toMatchObject({ streaming: true, extendedAgentCard: true });
    expect(card.securitySchemes.bearer).toEqual({ httpAuthSecurityScheme: expect.objectContaining({ scheme: 'bearer' }) });
    expect(card.skills.map((s: { id: string }) => s.id)).toContain('vault');
    expect(card.skills.find((s: { id: string }) => s.id === 'vault').securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
  });

  it('ListTasks answers an anonymous caller with no tasks (issue 41); push notification methods -32003', async () => {
    expect((await rpc(gw.url, 'ListTasks', {}, V1)).body.result).toEqual({ tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 });
    expect((await rpc(gw.url, 'CreateTaskPushNotificationConfig', {}, V1)).body.error.code).toBe(-32003);
  });

  it('takes A2A-Version as a query parameter too (issue 41), the header winning', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'no-such-task' } };
    const post = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<any>);
    expect((await post('/a2a?A2A-Version=1.0')).error.code).toBe(-32001);
    expect((await post('/a2a')).error.code).toBe(-32601);
    expect((await post('/a2a?A2A-Version=1.0', { 'a2a-version': '0.3' })).error.code).toBe(-32601);
    expect((await post('/a2a?A2A-Version=2.0')).error).toMatchObject({ code: -32009, message: expect.stringContaining('2.0') });
  });

  it("serves each version's card shape: the v1.0 form to a client asking for 1.0", async () => {
    const v03 = await fetch(`${gw.url}/.well-known/agent-card.json`);
    expect(v03.headers.get('vary')).toContain('A2A-Version');
    const old = (await v03.json()) as any;
    expect(old.protocolVersion).toBe('0.3.0');
    expect(old.securitySchemes.bearer.type).toBe('http');
    for (const card of [
      (await (await fetch(`${gw.url}/.well-known/agent-card.json`, { headers: V1 })).json()) as any,
      (await (await fetch(`${gw.url}/.well-known/agent-card.json?A2A-Version=1.0`)).json()) as any,
    ]) {
      expect(card.securitySchemes.bearer).toEqual({ httpAuthSecurityScheme: { scheme: 'bearer', description: expect.any(String) } });
      expect(card.securitySchemes.apiKey.apiKeySecurityScheme).toMatchObject({ location: 'header', name: 'X-API-Key' });
      expect(card.protocolVersion).toBeUndefined();
      expect(card.supportedInterfaces.length).toBeGreaterThan(0);
      // Offered to a caller with a credential only (docs/decisions/conversational.md).
      expect(card.capabilities.extendedAgentCard).toBe(false);
    }
    const signedIn = (await (await fetch(`${gw.url}/.well-known/agent-card.json`, { headers: { ...V1, authorization: 'Bearer any' } })).json()) as any;
    expect(signedIn.capabilities.extendedAgentCard).toBe(true);
  });
});
