// A secret a tool answers with over A2A (a new agent secret, an API key, a vault value) reaches the caller in the
// answer and the stream, and never the task row that tasks/get, ListTasks and a database backup read for days; a
// secret a message sends (vault_put's value) is not stored either, though the tool gets it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_KEPT } from '../../src/a2a/kept-secrets.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { openStream, rpc, userData } from './rpc.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

const rowOf = async (id: string) => (await gw.gateway.db.get<{ status: string; history: string; artifacts: string }>('SELECT status, history, artifacts FROM a2a_tasks WHERE id = ?', [id]))!;
const rowText = async (id: string) => Object.values(await rowOf(id)).join('\n');
const resultOf = (task: { artifacts: { parts: { data: Record<string, unknown> }[] }[] }) => task.artifacts.at(-1)!.parts[0].data;

describe('secrets over A2A', () => {
  it('a new agent secret is in the answer and works; the row and tasks/get hold a placeholder', async () => {
    const sent = (await rpc(gw.url, 'message/send', userData('agent_register', { handle: 'kept-register' }))).body.result;
    const secret = resultOf(sent).secret as string;
    expect(secret).toMatch(/^ags_/);
    expect((await api(gw.url, 'GET', '/agents/kept-register/vault', { secret })).status).not.toBe(401);
    expect(await rowText(sent.id)).not.toContain(secret);
    expect(await rowText(sent.id)).toContain(NOT_KEPT);
    const got = (await rpc(gw.url, 'tasks/get', { id: sent.id })).body.result;
    expect(resultOf(got)).toMatchObject({ handle: 'kept-register', secret: NOT_KEPT });
  });

  it('a vault value sent is stored by the vault, not in the task; one read is answered, not stored', async () => {
    const a = await register(gw.url, 'kept-vault');
    const auth = { authorization: `Bearer ${a.secret}` };
    const value = 'sk-live-kept-secrets-value-123456';
    const put = (await rpc(gw.url, 'message/send', userData('vault_put', { name: 'stripe', value }), auth)).body.result;
    expect(put.status.state).toBe('completed');
    expect(JSON.stringify(put)).not.toContain(value);
    expect(put.history[0].parts[0].data).toEqual({ tool: 'vault_put', arguments: { name: 'stripe', value: NOT_KEPT } });
    expect(await rowText(put.id)).not.toContain(value);
    expect((await api(gw.url, 'GET', '/vault/stripe', { secret: a.secret })).body.value).toBe(value);

    const read = (await rpc(gw.url, 'message/send', userData('vault_get', { name: 'stripe' }), auth)).body.result;
    expect(resultOf(read).value).toBe(value);
    expect(await rowText(read.id)).not.toContain(value);
    expect(resultOf((await rpc(gw.url, 'tasks/get', { id: read.id }, auth)).body.result)).toMatchObject({ name: 'stripe', value: NOT_KEPT });
    const listed = (await rpc(gw.url, 'ListTasks', { includeArtifacts: true }, { ...auth, 'a2a-version': '1.0' })).body.result;
    expect(JSON.stringify(listed)).not.toContain(value);
  });

  it('a rotated secret reaches the stream that asked for it (the new secret works); the row does not keep it', async () => {
    const a = await register(gw.url, 'kept-rotate');
    const s = await openStream(gw.url, 'message/stream', userData('agent_rotate_secret', { handle: a.handle }), { authorization: `Bearer ${a.secret}` });
    await s.done;
    const update = s.events.map((e) => e.result).find((e) => e.kind === 'artifact-update');
    const fresh = update.artifact.parts[0].data.secret as string;
    expect(fresh).toMatch(/^ags_/);
    expect((await api(gw.url, 'GET', `/agents/${a.handle}`, { secret: fresh })).status).toBe(200);
    const taskId = update.taskId as string;
    expect(await rowText(taskId)).not.toContain(fresh);
  });

  it('over HTTP+JSON (v1.0): the answer carries the key, the row does not', async () => {
    const a = await register(gw.url, 'kept-keys');
    const res = await fetch(`${gw.url}/a2a/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${a.secret}` },
      body: JSON.stringify({ message: { messageId: 'k1', role: 'ROLE_USER', parts: [{ data: { tool: 'keys_issue', arguments: { email: 'kept@example.com' } } }] } }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { task: { id: string; artifacts: { parts: { data: Record<string, unknown> }[] }[] } };
    const key = body.task.artifacts[0].parts[0].data.key as string;
    expect(key).toBeTruthy();
    expect(await rowText(body.task.id)).not.toContain(key);
  });
});
