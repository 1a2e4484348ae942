// A2A v1.0 ListTasks with the official 1.x client (issue 41): a caller's own tasks, newest first, filtered by
// context and state, paged with an opaque token, history trimmed, artifacts only on request; another agent and an
// anonymous caller see none of them.
import { randomUUID } from 'node:crypto';
import { Role, TaskState } from 'a2a-sdk-v1';
import { ClientFactory } from 'a2a-sdk-v1/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { sdkText } from './rpc.js';

let gw: TestGateway;
let owner: { handle: string; secret: string };
let other: { handle: string; secret: string };
beforeAll(async () => {
  gw = await startGateway();
  owner = await register(gw.url, 'lister');
  other = await register(gw.url, 'lister-other');
});
afterAll(async () => gw.cleanup());

const text = (t: string, contextId?: string) => sdkText(t, contextId ? { contextId } : {});
const as = (secret?: string) => (secret ? { serviceParameters: { authorization: `Bearer ${secret}` } } : {});
const list = (o: Record<string, unknown>) => ({ tenant: '', contextId: '', status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: '', statusTimestampAfter: undefined, includeArtifacts: false, ...o }) as never;

describe('ListTasks (A2A v1.0)', () => {
  it("lists the caller's tasks newest first, with filters, pages, history and artifacts as asked", async () => {
    const client = await new ClientFactory().createFromUrl(gw.url);
    const context = randomUUID();
    const sent: string[] = [];
    for (let i = 0; i < 3; i++) {
      gw.clock.advance(1000);
      sent.push(((await client.sendMessage({ message: text('what can you do?', context) } as never, as(owner.secret))) as { id: string }).id);
    }
    gw.clock.advance(1000);
    const elsewhere = ((await client.sendMessage({ message: text('what can you do?') } as never, as(owner.secret))) as { id: string }).id;
    await client.sendMessage({ message: text('what can you do?') } as never, as(other.secret));

    const all = (await client.listTasks(list({}), as(owner.secret))) as any;
    expect(all.tasks.map((t: { id: string }) => t.id)).toEqual([elsewhere, ...[...sent].reverse()]);
    expect(all.totalSize).toBe(4);
    expect(all.nextPageToken).toBe('');
    expect(all.tasks[0].artifacts).toEqual([]);
    expect(all.tasks[0].status.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const inContext = (await client.listTasks(list({ contextId: context, pageSize: 2, historyLength: 1, includeArtifacts: true }), as(owner.secret))) as any;
    expect(inContext.tasks.map((t: { id: string }) => t.id)).toEqual([sent[2], sent[1]]);
    expect(inContext.totalSize).toBe(3);
    expect(inContext.tasks[0].history).toHaveLength(1);
    expect(inContext.tasks[0].artifacts.length).toBeGreaterThan(0);
    expect(inContext.nextPageToken).not.toBe('');
    const next = (await client.listTasks(list({ contextId: context, pageSize: 2, pageToken: inContext.nextPageToken }), as(owner.secret))) as any;
    expect(next.tasks.map((t: { id: string }) => t.id)).toEqual([sent[0]]);
    expect(next.nextPageToken).toBe('');

    const working = (await client.listTasks(list({ status: TaskState.TASK_STATE_WORKING }), as(owner.secret))) as any;
    expect(working.tasks).toEqual([]);
    const recent = (await client.listTasks(list({ statusTimestampAfter: new Date(gw.clock.now() - 500).toISOString() }), as(owner.secret))) as any;
    expect(recent.tasks.map((t: { id: string }) => t.id)).toEqual([elsewhere]);
  });

  it('shows another agent and an anonymous caller none of them, and refuses bad parameters', async () => {
    const client = await new ClientFactory().createFromUrl(gw.url);
    const theirs = (await client.listTasks(list({}), as(other.secret))) as any;
    expect(theirs.tasks).toHaveLength(1);
    expect(theirs.totalSize).toBe(1);
    const anonymous = (await client.listTasks(list({}))) as any;
    expect(anonymous).toMatchObject({ tasks: [], totalSize: 0, nextPageToken: '' });
    await expect(client.listTasks(list({ pageSize: 101 }), as(owner.secret))).rejects.toThrow(/pageSize/);
    await expect(client.listTasks(list({ pageToken: 'not-a-token' }), as(owner.secret))).rejects.toThrow(/pageToken/);
  });
});
