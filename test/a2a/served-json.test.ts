// A finished task is answered with the JSON its row was written from (not serialized a second time): the answer
// must be byte for byte what serializing the task gives, and a trimmed or converted answer is serialized afresh.
import { describe, expect, it } from 'vitest';
import { rpcResultText } from '../../src/a2a/jsonrpc.js';
import { keepServedJson, servedJson, taskToWrite } from '../../src/a2a/task-record.js';
import { isoTime } from '../../src/clock.js';
import type { Task } from '../../src/a2a/types.js';
import { startGateway } from '../helpers/gateway.js';
import { userData } from './rpc.js';

const task = (): Task => ({
  kind: 'task',
  id: 't-1',
  contextId: 'c-"1"',
  status: { state: 'completed', message: { kind: 'message', messageId: 'r', role: 'agent', parts: [{ kind: 'text', text: 'Called base64 ✓' }], taskId: 't-1', contextId: 'c-"1"' }, timestamp: '2026-11-26T00:00:00.000Z' },
  history: [{ kind: 'message', messageId: 'u', role: 'user', parts: [{ kind: 'data', data: { tool: 'base64', arguments: { text: 'héllo' } } }], taskId: 't-1', contextId: 'c-"1"' }],
  artifacts: [{ artifactId: 'a', name: 'base64', parts: [{ kind: 'data', data: { result: 'aMOpbGxv' } }] }],
});

describe('a task answered from its written JSON', () => {
  it('is what JSON.stringify writes, inside the JSON-RPC response', () => {
    const t = task();
    keepServedJson(t, taskToWrite(t, null, null, 1));
    expect(servedJson(t)).toBe(JSON.stringify(t));
    for (const id of [7, 'x', 'a "quoted" id', null]) expect(rpcResultText(id, t)).toBe(JSON.stringify({ jsonrpc: '2.0', id, result: t }));
    // Without kept JSON (a trimmed copy), the response is serialized as a whole.
    const copy = { ...t, history: [] };
    expect(rpcResultText(5, copy)).toBe(JSON.stringify({ jsonrpc: '2.0', id: 5, result: copy }));
    // A copy (a trimmed history, a converted shape) has no kept JSON.
    expect(servedJson({ ...t, history: [] })).toBeUndefined();
    // A task built with its keys in another order is not kept: its JSON would differ.
    const { kind, ...rest } = task();
    const reordered = { ...rest, kind } as Task;
    keepServedJson(reordered, taskToWrite(reordered, null, null, 1));
    expect(servedJson(reordered)).toBeUndefined();
  });

  it('the reply that is both the status message and the last history message is written as JSON.stringify writes it', () => {
    const t = task();
    const reply = t.status.message!;
    const cases: Task[] = [
      { ...t, history: [...t.history, reply] },
      { ...t, history: [reply] },
      { ...t, history: [...t.history, { ...reply }] },
      { ...t, status: { state: 'completed', timestamp: '2026-11-26T00:00:00.000Z' } },
      { ...t, history: [...t.history, reply], status: { timestamp: '2026-11-26T00:00:00.000Z', message: reply, state: 'completed' } },
    ];
    for (const c of cases) {
      const w = taskToWrite(c, null, null, 1);
      expect(w.status).toBe(JSON.stringify(c.status));
      expect(w.history).toBe(JSON.stringify(c.history));
    }
  });

  it('over HTTP: the answer is the stored task, and historyLength still trims it', async () => {
    const gw = await startGateway();
    try {
      const send = async (params: unknown) => {
        const res = await fetch(`${gw.url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'message/send', params }) });
        return res.text();
      };
      const text = await send(userData('base64', { action: 'encode', text: 'héllo' }));
      const body = JSON.parse(text);
      expect(text).toBe(JSON.stringify(body));
      expect(Object.keys(body)).toEqual(['jsonrpc', 'id', 'result']);
      expect(body.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
      expect(body.result.artifacts[0].parts[0].data.result).toBe('aMOpbGxv');
      const got = await fetch(`${gw.url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tasks/get', params: { id: body.result.id } }) });
      expect(((await got.json()) as { result: unknown }).result).toEqual(body.result);

      const trimmed = JSON.parse(await send({ ...userData('base64', { action: 'encode', text: 'x' }), configuration: { historyLength: 1 } }));
      expect(trimmed.result.history).toHaveLength(1);
      expect(trimmed.result.history[0].role).toBe('agent');
    } finally {
      await gw.cleanup();
    }
  });
});

describe('status timestamps', () => {
  it('are what Date#toISOString writes, whatever the time', () => {
    const times = [0, 1, 999, 1000, -1, -999, -1000, -1001, 1.9, -1.5, Date.UTC(2026, 10, 26, 14, 53, 23, 7), 253402300799999, 253402300800000, -62198755200001, 8.64e15];
    for (let i = 0; i < 2000; i++) times.push(Math.floor(Math.random() * 4e12) - 1e12, 1_764_000_000_000 + i * 37);
    for (const t of times) expect(isoTime(t), String(t)).toBe(new Date(t).toISOString());
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
  });
});
