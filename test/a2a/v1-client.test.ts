// The official A2A v1.0 client (@a2a-js/sdk 1.x, installed as a2a-sdk-v1) against the same /a2a endpoint.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, TaskState } from 'a2a-sdk-v1';
import { ClientFactory } from 'a2a-sdk-v1/client';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { sdkPart, sdkText } from './rpc.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

const text = (t: string, taskId?: string) => sdkText(t, taskId ? { taskId } : {});

describe('A2A v1.0 with the official 1.x client', () => {
  it('sends a message, reads the task back, and streams', async () => {
    const client = await new ClientFactory().createFromUrl(gw.url);
    const task = (await client.sendMessage({ message: text('what can you do?') } as never)) as any;
    expect(task.id).toBeTruthy();
    expect(task.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.status.message.parts[0].content.value).toMatch(/persistent home for stateless agents/);
    expect(task.artifacts[0].parts[0].content.$case).toBe('text');
    const again = (await client.getTask({ id: task.id } as never)) as any;
    expect(again.id).toBe(task.id);
    expect(again.status.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const events: any[] = [];
    for await (const e of client.sendMessageStream({ message: text('what can you do?') } as never)) events.push(e);
    expect(events.map((e) => e.payload.$case)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(events.at(-1).payload.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('refuses a part with no content with a typed error that names the part', async () => {
    const client = await new ClientFactory().createFromUrl(gw.url);
    const empty = { messageId: randomUUID(), role: Role.ROLE_USER, parts: [sdkPart(undefined)] } as never;
    await expect(client.sendMessage({ message: empty } as never)).rejects.toThrow(/message\.parts\.0 carries none of text, data, url or raw/);
  });

  it('surfaces the typed error for an unknown task', async () => {
    const client = await new ClientFactory().createFromUrl(gw.url);
    await expect(client.getTask({ id: 'no-such-task' } as never)).rejects.toThrow(/not found/i);
    expect((await api(gw.url, 'GET', '/.well-known/agent-card.json')).status).toBe(200);
  });
});
