// The A2A endpoint driven by the real client, @a2a-js/sdk 0.3.14: discovery from the agent card, message/send
// (text and data parts), message/stream, tasks/get with historyLength, tasks/cancel, tasks/resubscribe, the
// extended card and the SDK's typed errors.
import { AgentCardResolver, ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, TaskNotCancelableError, TaskNotFoundError, type Client } from '@a2a-js/sdk/client';
import type { Message, Task } from '@a2a-js/sdk';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let client: Client;
let key: string;

beforeAll(async () => {
  gw = await startGateway();
  client = await new ClientFactory().createFromUrl(gw.url);
  key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'a2a-client@example.com' } })).body.key;
});
afterAll(async () => gw.cleanup());

const text = (t: string, extra: Partial<Message> = {}): { message: Message } => ({
  message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: t }], ...extra },
});
const data = (tool: string, args: Record<string, unknown>, extra: Partial<Message> = {}): { message: Message } => ({
  message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'data', data: { tool, arguments: args } }], ...extra },
});
const keyed = () => ({ serviceParameters: { 'x-api-key': key } });
const replyText = (t: Task) => (t.status.message?.parts.find((p) => p.kind === 'text') as { text: string } | undefined)?.text ?? '';

describe('@a2a-js/sdk 0.3.14 against the gateway', () => {
  it('discovers the endpoint from /.well-known/agent-card.json', async () => {
    const card = await AgentCardResolver.default.resolve(gw.url);
    expect(card).toMatchObject({ protocolVersion: '0.3.0', url: `${gw.url}/a2a`, preferredTransport: 'JSONRPC', capabilities: { streaming: true } });
  });

  it('message/send: a calculator question with the caller’s key completes with the result', async () => {
    const t = (await client.sendMessage(text('convert 255 to base 2'), keyed())) as Task;
    expect(t.kind).toBe('task');
    expect(t.status.state).toBe('completed');
    expect(replyText(t)).toBe('255 in base 10 is 11111111 in base 2.');
    expect(t.history?.map((m) => m.role)).toEqual(['user', 'agent']);
    expect(t.artifacts?.[0]).toMatchObject({ name: 'answer' });
    const answer = (t.artifacts![0].parts.find((p) => p.kind === 'data') as { data: any }).data.answer;
    expect(answer).toMatchObject({ kind: 'calculator', tool: 'base_convert', result: { value: '11111111' } });
  });

  it('message/send without payment or credentials: a Message says how to pay, and no task is made', async () => {
    const m = (await client.sendMessage(text('convert 255 to base 2'))) as Message;
    expect(m).toMatchObject({ kind: 'message', role: 'agent', contextId: expect.any(String) });
    expect(m.taskId).toBeUndefined();
    expect((m.parts[0] as { text: string }).text).toContain('X-API-Key');
    // The same through message/stream: the stream is that one Message.
    const events = [];
    for await (const e of client.sendMessageStream(text('convert 255 to base 2'))) events.push(e);
    expect(events.map((e) => e.kind)).toEqual(['message']);
  });

  it('a data part {tool, arguments} calls the tool with the same auth and payment rules as REST', async () => {
    const free = (await client.sendMessage(data('uuid', { count: 2 }))) as Task;
    expect(free.status.state).toBe('completed');
    expect((free.artifacts![0].parts[0] as { data: any }).data.uuids).toHaveLength(2);

    // Without credentials the answer is a Message carrying the 402 and its x402 challenge; no task is made.
    const unpaid = (await client.sendMessage(data('checksum_validate', { value: 'DE89 3704 0044 0532 0130 00' }))) as Message;
    expect(unpaid.kind).toBe('message');
    const info = (unpaid.parts.find((p) => p.kind === 'data') as { data: any }).data;
    expect(info.error).toMatchObject({ code: 'payment_required', status: 402 });
    expect(info.payment).toMatchObject({ x402Version: 2 });
    // The client sends the message again with a key: a task, completed.
    const paid = (await client.sendMessage(data('checksum_validate', { value: 'DE89 3704 0044 0532 0130 00' }), keyed())) as Task;
    expect(paid.status.state).toBe('completed');
    expect(paid.artifacts?.at(-1)).toMatchObject({ name: 'checksum_validate', parts: [{ kind: 'data', data: { valid: true } }] });

    // An agent's task in auth-required (no credits) is continued by taskId, now with a key as well: it completes.
    const broke = await register(gw.url, 'a2a-broke');
    const asBroke = { authorization: `Bearer ${broke.secret}` };
    const waiting = (await client.sendMessage(data('checksum_validate', { value: 'DE89 3704 0044 0532 0130 00' }), { serviceParameters: asBroke })) as Task;
    expect(waiting.status.state).toBe('auth-required');
    const done = (await client.sendMessage(data('checksum_validate', { value: 'DE89 3704 0044 0532 0130 00' }, { taskId: waiting.id }), { serviceParameters: { ...asBroke, 'x-api-key': key } })) as Task;
    expect(done.id).toBe(waiting.id);
    expect(done.status.state).toBe('completed');
    expect(done.history).toHaveLength(4);

    const owner = (await client.sendMessage(data('whoami', {}))) as Message;
    expect(owner.kind).toBe('message');
    expect(JSON.stringify(owner.parts)).toContain('"status":401');
    const bad = (await client.sendMessage(data('base_convert', { value: '12', from_base: 99, to_base: 2 }), keyed())) as Task;
    expect(bad.status.state).toBe('failed');
    const missing = (await client.sendMessage(data('gen_image', {}))) as Task;
    expect(missing.status.state).toBe('failed');
    expect(replyText(missing)).toContain('No tool named');
  });

  it('an agent’s secret acts as that agent (owner tools), and its tasks are its own', async () => {
    const a = await register(gw.url, 'a2a-owner');
    const asA = { serviceParameters: { authorization: `Bearer ${a.secret}` } };
    const t = (await client.sendMessage(data('whoami', {}), asA)) as Task;
    expect(t.status.state).toBe('completed');
    expect((t.artifacts![0].parts[0] as { data: any }).data.handle).toBe('a2a-owner');
    expect((await client.getTask({ id: t.id }, asA)).id).toBe(t.id);
    // Another caller (anonymous, or another agent) cannot see it.
    await expect(client.getTask({ id: t.id })).rejects.toBeInstanceOf(TaskNotFoundError);
    const b = await register(gw.url, 'a2a-other');
    await expect(client.getTask({ id: t.id }, { serviceParameters: { authorization: `Bearer ${b.secret}` } })).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it('message/stream: the task, working, the artifact, then a final completed status', async () => {
    const events = [];
    for await (const e of client.sendMessageStream(text('how do I store a secret?'))) events.push(e);
    expect(events.map((e) => e.kind)).toEqual(['task', 'status-update', 'artifact-update', 'status-update']);
    expect(events[0]).toMatchObject({ kind: 'task', status: { state: 'submitted' } });
    expect(events[1]).toMatchObject({ status: { state: 'working' }, final: false });
    expect(events[3]).toMatchObject({ status: { state: 'completed' }, final: true });
    const id = (events[0] as Task).id;
    expect(replyText(await client.getTask({ id }))).toContain('vault_put');
  });

  it('tasks/get trims history to historyLength; contextId carries the conversation', async () => {
    const first = (await client.sendMessage(text('how do I store a secret in the vault?'))) as Task;
    const second = (await client.sendMessage(text('and how do I list them?', { contextId: first.contextId }))) as Task;
    expect(second.contextId).toBe(first.contextId);
    expect(second.id).not.toBe(first.id);
    expect(replyText(second)).toMatch(/^Use vault_list/);
    const fresh = (await client.sendMessage(text('and how do I list them?'))) as Task;
    expect(fresh.contextId).not.toBe(first.contextId);
    expect(replyText(fresh)).not.toMatch(/^Use vault_list/);

    expect((await client.getTask({ id: second.id })).history).toHaveLength(2);
    expect((await client.getTask({ id: second.id, historyLength: 1 })).history?.map((m) => m.role)).toEqual(['agent']);
    expect((await client.getTask({ id: second.id, historyLength: 0 })).history).toEqual([]);
    const trimmed = (await client.sendMessage({ ...text('what can you do?'), configuration: { historyLength: 1, blocking: true } })) as Task;
    expect(trimmed.history).toHaveLength(1);
  });

  it('non-blocking message/send answers at once; the task completes in the background', async () => {
    const t = (await client.sendMessage({ ...text('how do I host a file?'), configuration: { blocking: false } })) as Task;
    expect(['submitted', 'working', 'completed']).toContain(t.status.state);
    let now = await client.getTask({ id: t.id });
    for (let i = 0; i < 50 && now.status.state !== 'completed'; i++) now = await client.getTask({ id: t.id });
    expect(now.status.state).toBe('completed');
  });

  it('typed errors: TaskNotFoundError, TaskNotCancelableError', async () => {
    await expect(client.getTask({ id: 'nope' })).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(client.cancelTask({ id: 'nope' })).rejects.toBeInstanceOf(TaskNotFoundError);
    const done = (await client.sendMessage(text('what can you do?'))) as Task;
    await expect(client.cancelTask({ id: done.id })).rejects.toBeInstanceOf(TaskNotCancelableError);
  });

  it('tasks/resubscribe of a finished task gives the task and a final status', async () => {
    const done = (await client.sendMessage(text('what can you do?'))) as Task;
    const events = [];
    for await (const e of client.resubscribeTask({ id: done.id })) events.push(e);
    expect(events.map((e) => e.kind)).toEqual(['task', 'status-update']);
    expect(events[1]).toMatchObject({ final: true, status: { state: 'completed' } });
  });

  it('getAgentCard with an agent secret returns the extended card with owner-only skills', async () => {
    const a = await register(gw.url, 'a2a-card');
    // The card is fetched with the secret too, so it offers the extended card.
    const authorization = `Bearer ${a.secret}`;
    const fetchImpl: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization } });
    const c2 = await new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { cardResolver: new DefaultAgentCardResolver({ fetchImpl }) })).createFromUrl(gw.url);
    const pub = await c2.getAgentCard({ serviceParameters: { authorization } });
    expect(pub.description).toContain('@a2a-card');
    expect(pub.skills.map((s) => s.id)).toContain('vault');
    const vault = pub.skills.find((s) => s.id === 'vault')!;
    expect(vault.tags).toContain('vault_put');
  });
});
