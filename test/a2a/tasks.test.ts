// Tasks are rows in the database: they survive a restart with their history and context, card numbers are
// stored masked, and an agent's tasks go when the agent is deleted.
import { describe, expect, it } from 'vitest';
import { api, register, startGateway, tempDir } from '../helpers/gateway.js';
import { scanDatabase } from '../helpers/db-scan.js';
import { rpc, userData, userText } from './rpc.js';

describe('persisted tasks', () => {
  it('survive a restart: tasks/get, contextId continuity and a continued task', async () => {
    const dataDir = tempDir();
    const first = await startGateway({ dataDir });
    const t1 = (await rpc(first.url, 'message/send', userText('how do I store a secret in the vault?'))).body.result;
    // An agent without credits: its task waits in auth-required (an anonymous caller would get a Message, no task).
    const agent = { authorization: `Bearer ${(await register(first.url, 'restart-payer')).secret}` };
    const unpaid = (await rpc(first.url, 'message/send', userData('base_convert', { value: '255', from_base: 10, to_base: 16 }), agent)).body.result;
    expect(unpaid.status.state).toBe('auth-required');
    await first.stop();

    const second = await startGateway({ dataDir });
    try {
      const again = (await rpc(second.url, 'tasks/get', { id: t1.id })).body.result;
      expect(again).toEqual(t1);
      // The conversation goes on in the same context after the restart.
      const t2 = (await rpc(second.url, 'message/send', userText('and how do I list them?', { contextId: t1.contextId }))).body.result;
      expect(t2.contextId).toBe(t1.contextId);
      expect(t2.status.message.parts[0].text).toMatch(/^Use vault_list/);
      // The task that asked for payment is continued with a key.
      const key = (await api(second.url, 'POST', '/keys/issue', { body: { email: 'restart@example.com' } })).body.key;
      const paid = (await rpc(second.url, 'message/send', userData('base_convert', { value: '255', from_base: 10, to_base: 16 }, { taskId: unpaid.id }), { ...agent, 'x-api-key': key })).body.result;
      expect(paid).toMatchObject({ id: unpaid.id, status: { state: 'completed' } });
      expect(paid.artifacts.at(-1).parts[0].data.value).toBe('ff');
      expect(paid.history.map((m: { role: string }) => m.role)).toEqual(['user', 'agent', 'user', 'agent']);
    } finally {
      await second.cleanup();
    }
  });

  it('a contextId is per caller: another caller using it starts its own conversation', async () => {
    const gw = await startGateway();
    try {
      const a = await register(gw.url, 'ctx-a');
      const first = (await rpc(gw.url, 'message/send', userText('how do I store a secret in the vault?'), { authorization: `Bearer ${a.secret}` })).body.result;
      const stranger = (await rpc(gw.url, 'message/send', userText('and how do I list them?', { contextId: first.contextId }))).body.result;
      expect(stranger.status.message.parts[0].text).not.toMatch(/^Use vault_list/);
      const owner = (await rpc(gw.url, 'message/send', userText('and how do I list them?', { contextId: first.contextId }), { authorization: `Bearer ${a.secret}` })).body.result;
      expect(owner.status.message.parts[0].text).toMatch(/^Use vault_list/);
      // A task is continued in its own context only.
      const open = (await rpc(gw.url, 'message/send', userData('uuid', { version: 9 }), { authorization: `Bearer ${a.secret}` })).body.result;
      const unpaid = (await rpc(gw.url, 'message/send', userData('base_convert', { value: '1', from_base: 10, to_base: 2 }), { authorization: `Bearer ${a.secret}` })).body.result;
      expect(open.status.state).toBe('failed');
      expect(unpaid.status.state).toBe('auth-required');
      const mismatch = await rpc(gw.url, 'message/send', userText('x', { taskId: unpaid.id, contextId: first.contextId }), { authorization: `Bearer ${a.secret}` });
      expect(mismatch.body.error.code).toBe(-32602);
    } finally {
      await gw.cleanup();
    }
  });

  it('stores card numbers masked, in text and in data parts', async () => {
    const gw = await startGateway();
    try {
      const key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'pan@example.com' } })).body.key;
      const t = (await rpc(gw.url, 'message/send', userText('which card brand is 4111 1111 1111 1111'), { 'x-api-key': key })).body.result;
      expect(t.status.message.parts[0].text).toContain('Visa');
      const d = (await rpc(gw.url, 'message/send', userData('card_brand', { number: '5500-0000-0000-0004' }), { 'x-api-key': key })).body.result;
      expect(d.status.state).toBe('completed');
      expect(JSON.stringify(t)).not.toContain('4111 1111 1111 1111');
      expect(d.history[0].parts[0].data.arguments.number).toBe('550000••••••0004');
      const hits = await scanDatabase(gw.gateway.db, ['4111 1111 1111 1111', '4111111111111111', '5500-0000-0000-0004', '5500000000000004']);
      expect(hits).toEqual([]);
    } finally {
      await gw.cleanup();
    }
  });

  it('an agent’s tasks are deleted with the agent', async () => {
    const gw = await startGateway();
    try {
      const a = await register(gw.url, 'a2a-doomed');
      const auth = { authorization: `Bearer ${a.secret}` };
      const t = (await rpc(gw.url, 'message/send', userText('a2a-doomed asks: how do I store a secret?'), auth)).body.result;
      const anon = (await rpc(gw.url, 'message/send', userText('what can you do?'))).body.result;
      const id = (await gw.gateway.db.get<{ id: string }>('SELECT id FROM agents WHERE handle = ?', ['a2a-doomed']))!.id;
      expect((await scanDatabase(gw.gateway.db, [id])).some((h) => h.table === 'a2a_tasks')).toBe(true);
      expect((await api(gw.url, 'DELETE', '/agents/a2a-doomed', { secret: a.secret })).status).toBe(200);
      expect(await scanDatabase(gw.gateway.db, [id, 'a2a-doomed'])).toEqual([]);
      expect((await rpc(gw.url, 'tasks/get', { id: t.id })).body.error.code).toBe(-32001);
      expect((await rpc(gw.url, 'tasks/get', { id: anon.id })).body.result.status.state).toBe('completed');
    } finally {
      await gw.cleanup();
    }
  });
});
