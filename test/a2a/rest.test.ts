// A2A v1.0's HTTP+JSON binding (issue 41): the official 1.x client set to HTTP+JSON only, as a peer that prefers it
// would be, does what it does over JSON-RPC (anonymous discovery, send, stream, get, list, cancel, subscribe); the
// errors are google.rpc.Status bodies with the ErrorInfo the client maps back to its typed errors; another agent
// cannot reach an owner's task.
import { randomUUID } from 'node:crypto';
import { Role, TaskState } from 'a2a-sdk-v1';
import { ClientFactory, ClientFactoryOptions, RestTransportFactory } from 'a2a-sdk-v1/client';
import { TaskNotCancelableError, TaskNotFoundError } from 'a2a-sdk-v1/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { parseSse, sdkPart, sdkText } from './rpc.js';

let gw: TestGateway;
let owner: { handle: string; secret: string };
let other: { handle: string; secret: string };
beforeAll(async () => {
  gw = await startGateway();
  owner = await register(gw.url, 'rest-owner');
  other = await register(gw.url, 'rest-other');
});
afterAll(async () => gw.cleanup());

const restOnly = () => new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new RestTransportFactory()] })).createFromUrl(gw.url);
const message = (parts: unknown[], taskId?: string) => ({ message: { messageId: randomUUID(), role: Role.ROLE_USER, parts, ...(taskId ? { taskId } : {}) } }) as never;
const text = (t: string) => ({ message: sdkText(t) }) as never;
const toolCall = (tool: string, args: Record<string, unknown>) => message([sdkPart({ $case: 'data', value: { tool, arguments: args } })]);
const as = (secret: string) => ({ serviceParameters: { authorization: `Bearer ${secret}` } });
const listAll = { tenant: '', contextId: '', status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: '', statusTimestampAfter: undefined, includeArtifacts: false } as never;

/** A raw HTTP+JSON call, for what the client does not show: statuses, headers, error bodies. */
async function rest(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${gw.url}/a2a${path}`, { method, headers: { 'content-type': 'application/a2a+json', ...init.headers }, body: init.body });
  const textBody = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), headers: res.headers, text: textBody, json: () => JSON.parse(textBody) };
}

describe('A2A v1.0 over HTTP+JSON, official 1.x client', () => {
  it('is announced in the card beside JSON-RPC', async () => {
    const card = (await api(gw.url, 'GET', '/.well-known/agent-card.json', { headers: { 'A2A-Version': '1.0' } })).body;
    expect(card.supportedInterfaces).toEqual(
      expect.arrayContaining([
        { url: `${gw.url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${gw.url}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ]),
    );
  });

  it('discovers anonymously, sends, streams, gets and lists', async () => {
    const client = await restOnly();
    const task = (await client.sendMessage(toolCall('uuid', { count: 2 }))) as any;
    expect(task.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(JSON.stringify(task.artifacts)).toContain('uuids');
    // A paid calculator without payment or credentials: a Message says how to pay, as over JSON-RPC (no task).
    const unpaid = (await client.sendMessage(text('convert 255 to base 2'))) as any;
    expect(unpaid.role).toBe(Role.ROLE_AGENT);
    expect(unpaid.taskId).toBeFalsy();
    expect(JSON.stringify(unpaid.parts)).toContain('X-API-Key');
    // An agent without credits gets the task in auth-required.
    const broke = (await client.sendMessage(text('convert 255 to base 2'), as(other.secret))) as any;
    expect(broke.status.state).toBe(TaskState.TASK_STATE_AUTH_REQUIRED);
    const again = (await client.getTask({ id: task.id, historyLength: 1 } as never)) as any;
    expect(again.id).toBe(task.id);
    expect(again.history).toHaveLength(1);

    const events: any[] = [];
    for await (const e of client.sendMessageStream(text('what can you do?'))) events.push(e);
    expect(events.map((e) => e.payload.$case)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(events.at(-1).payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const mine = (await client.sendMessage(text('what can you do?'), as(owner.secret))) as any;
    const listed = (await client.listTasks({ ...(listAll as object), pageSize: 10, historyLength: 0 } as never, as(owner.secret))) as any;
    expect(listed.tasks.map((t: { id: string }) => t.id)).toEqual([mine.id]);
    expect(listed.tasks[0].history).toEqual([]);
    // The anonymous tasks above belong to no one: an anonymous list is empty.
    expect(((await client.listTasks(listAll)) as any).tasks).toEqual([]);
  });

  it('cancels a running task and follows one to its end; an owner task is not found for another agent', async () => {
    const client = await restOnly();
    const waiting = (await client.sendMessage(toolCall('job_create', { type: 'delay', seconds: 600 }), as(owner.secret))) as any;
    expect(waiting.status.state).toBe(TaskState.TASK_STATE_WORKING);
    await expect(client.getTask({ id: waiting.id } as never, as(other.secret))).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(client.cancelTask({ id: waiting.id } as never, as(other.secret))).rejects.toBeInstanceOf(TaskNotFoundError);
    const canceled = (await client.cancelTask({ id: waiting.id } as never, as(owner.secret))) as any;
    expect(canceled.status.state).toBe(TaskState.TASK_STATE_CANCELED);
    await expect(client.cancelTask({ id: waiting.id } as never, as(owner.secret))).rejects.toBeInstanceOf(TaskNotCancelableError);

    const short = (await client.sendMessage(toolCall('job_create', { type: 'delay', seconds: 5 }), as(owner.secret))) as any;
    const seen: any[] = [];
    const following = (async () => {
      for await (const e of client.resubscribeTask({ id: short.id } as never, as(owner.secret))) seen.push(e);
    })();
    await expect.poll(() => seen.length).toBeGreaterThan(0);
    expect(seen[0].payload.value.status.state).toBe(TaskState.TASK_STATE_WORKING);
    gw.clock.advance(5_000);
    await gw.gateway.registry.services.scheduler.runDue();
    await following;
    expect(seen.at(-1).payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('answers errors as google.rpc.Status with the A2A ErrorInfo', async () => {
    const missing = await rest('GET', '/tasks/no-such-task');
    expect(missing.status).toBe(404);
    expect(missing.type).toContain('application/a2a+json');
    expect(missing.json().error).toMatchObject({
      code: 404,
      status: 'NOT_FOUND',
      details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }],
    });

    const invalid = await rest('GET', '/tasks?pageSize=500');
    expect(invalid.status).toBe(400);
    expect(invalid.json().error).toMatchObject({ status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'pageSize' }] }] });
    const notJson = await rest('POST', '/message:send', { body: '{"message":' });
    expect(notJson.status).toBe(400);
    expect(notJson.json().error.message).toMatch(/not valid JSON/);
    const noParts = await rest('POST', '/message:send', { body: JSON.stringify({ message: { messageId: 'm', role: 'ROLE_USER', parts: [] } }) });
    expect(noParts.status).toBe(400);
    expect(noParts.json().error.message).toMatch(/parts/);
    const wrongType = await rest('POST', '/message:send', { body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json().error.details[0].reason).toBe('CONTENT_TYPE_NOT_SUPPORTED');
    // A body over GATEWAY_MAX_BODY_BYTES is 413, as on every other route (no A2A error names it).
    const big = await rest('POST', '/message:send', { body: JSON.stringify({ pad: 'x'.repeat(8 * 1024 * 1024) }) });
    expect(big.status).toBe(413);
    expect(big.json().error.details[0]).toMatchObject({ reason: 'BODY_TOO_LARGE', metadata: { limit: String(8 * 1024 * 1024) } });

    const oldVersion = await rest('POST', '/message:send', { body: '{}', headers: { 'A2A-Version': '0.3' } });
    expect(oldVersion.status).toBe(400);
    expect(oldVersion.json().error.details[0].reason).toBe('VERSION_NOT_SUPPORTED');
    const push = await rest('POST', '/tasks/any/pushNotificationConfigs', { body: '{}' });
    expect(push.json().error.details[0].reason).toBe('PUSH_NOTIFICATION_NOT_SUPPORTED');
    expect((await rest('POST', '/tasks/any:archive')).status).toBe(404);

    // No extended card for an anonymous caller (its card does not offer one); with a wrong secret it is refused.
    const anonymousCard = await rest('GET', '/extendedAgentCard');
    expect(anonymousCard.json().error.details[0].reason).toBe('UNSUPPORTED_OPERATION');
    const wrongSecret = await rest('GET', '/extendedAgentCard', { headers: { authorization: 'Bearer not-a-secret' } });
    expect(wrongSecret.status).toBe(403);
    expect(wrongSecret.text).not.toContain('not-a-secret');
    const card = await rest('GET', '/extendedAgentCard', { headers: { authorization: `Bearer ${owner.secret}` } });
    expect(card.status).toBe(200);
    expect(card.json().description).toContain('@rest-owner');
  });

  it('streams with the StreamResponse itself on each data line, and refuses a terminal task before streaming', async () => {
    const res = await rest('POST', '/message:stream', { body: JSON.stringify({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'what can you do?' }] } }) });
    expect(res.type).toContain('text/event-stream');
    const events = parseSse(res.text);
    expect(events.map((e) => Object.keys(e)[0])).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
    const done = events[0].task.id;
    const refused = await rest('POST', `/tasks/${done}:subscribe`);
    expect(refused.status).toBe(400);
    expect(refused.json().error.details[0].reason).toBe('UNSUPPORTED_OPERATION');
  });
});
