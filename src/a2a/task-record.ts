// A task as stored (one row, JSON columns) and as served: conversion both ways, history trimming, and the
// redaction applied before anything a client sent is stored (card numbers keep first 6 and last 4 digits), and
// secrets a tool answered with kept out of the row (kept-secrets.ts).
import { randomUUID } from 'node:crypto';
import { isoTime } from '../clock.js';
import { maskCardNumbers, maskCardNumbersDeep } from '../llm/redact.js';
import type { TaskRow, TaskWrite } from '../store/a2a-tasks.js';
import { keptArtifacts, withholds } from './kept-secrets.js';
import type { Message, Part, Task, TaskState } from './types.js';

export function rowToTask(row: TaskRow): Task {
  return {
    kind: 'task',
    id: row.id,
    contextId: row.context_id,
    status: JSON.parse(row.status) as Task['status'],
    history: JSON.parse(row.history) as Message[],
    artifacts: JSON.parse(row.artifacts) as Task['artifacts'],
  };
}

/**
 * The status and history columns. The agent's reply is both the status message and the last message of the history
 * (withOutcome): it is serialized once, and both texts are exactly what JSON.stringify writes.
 */
function statusAndHistory(t: Task): { status: string; history: string } {
  const { status, history } = t;
  const last = history.length - 1;
  const keys = Object.keys(status);
  if (last < 0 || status.message !== history[last] || keys.length !== 3 || keys[0] !== 'state' || keys[1] !== 'message' || keys[2] !== 'timestamp') {
    return { status: JSON.stringify(status), history: JSON.stringify(history) };
  }
  const reply = JSON.stringify(history[last]);
  const earlier = last === 0 ? '[' : `${JSON.stringify(history.slice(0, last)).slice(0, -1)},`;
  return {
    status: `{"state":${JSON.stringify(status.state)},"message":${reply},"timestamp":${JSON.stringify(status.timestamp)}}`,
    history: `${earlier}${reply}]`,
  };
}

export function taskToWrite(t: Task, agentId: string | null, waiting: { kind: 'job' | 'handoff'; ref: string } | null, now: number): TaskWrite {
  return {
    id: t.id,
    context_id: t.contextId,
    agent_id: agentId,
    state: t.status.state,
    ...statusAndHistory(t),
    artifacts: keptArtifacts(t.artifacts),
    waiting_kind: waiting?.kind ?? null,
    waiting_ref: waiting?.ref ?? null,
    updated_at: now,
  };
}

/** The keys of a task in the order JSON.stringify writes them (the order every task here is built in). */
const TASK_KEYS = ['kind', 'id', 'contextId', 'status', 'history', 'artifacts'];
/**
 * A task's JSON put together from the parts its write serialized, kept on the task object itself (an object is never
 * changed once kept). A non-enumerable symbol: spreads, JSON.stringify and Object.keys do not see it. Not a WeakMap:
 * one entry per request made every collection slower.
 */
const SERVED = Symbol('servedJson');

/**
 * Keeps the JSON of a task just written, made of the write's serialized parts, so the answer serves it instead of
 * serializing the same task again; exactly JSON.stringify(t) (test/a2a/served-json.test.ts). The task must not change
 * afterwards: only a task built for this write (TaskService's finished task) is kept.
 */
export function keepServedJson(t: Task, w: Pick<TaskWrite, 'status' | 'history' | 'artifacts'>): void {
  const keys = Object.keys(t);
  if (keys.length !== TASK_KEYS.length || keys.some((k, i) => k !== TASK_KEYS[i])) return;
  // A secret the row does not keep is in the answer alone: serialized from the task, not from the row.
  if (withholds(t.artifacts)) return;
  const json = `{"kind":"task","id":${JSON.stringify(t.id)},"contextId":${JSON.stringify(t.contextId)},"status":${w.status},"history":${w.history},"artifacts":${w.artifacts}}`;
  Object.defineProperty(t, SERVED, { value: json, enumerable: false, configurable: true });
}

/** The kept JSON of this very task object, if any (a trimmed or converted copy has none). */
export const servedJson = (v: unknown): string | undefined => (typeof v === 'object' && v !== null ? (v as { [SERVED]?: string })[SERVED] : undefined);

/** historyLength: absent = all, 0 = none, n = the latest n messages. */
export function withHistory(t: Task, historyLength: number | undefined): Task {
  if (historyLength === undefined || historyLength >= t.history.length) return t;
  return { ...t, history: historyLength === 0 ? [] : t.history.slice(-historyLength) };
}

export const agentMessage = (taskId: string, contextId: string, parts: Part[]): Message => ({
  kind: 'message',
  messageId: randomUUID(),
  role: 'agent',
  parts,
  taskId,
  contextId,
});

export const statusOf = (state: TaskState, message: Message | undefined, now: number): Task['status'] => ({
  state,
  ...(message ? { message } : {}),
  timestamp: isoTime(now),
});

/** The message as it may be stored: text and data values with card numbers masked. */
export function redactMessage(m: Message): Message {
  return { ...m, parts: m.parts.map((p) => (p.kind === 'text' ? { ...p, text: maskCardNumbers(p.text) } : p.kind === 'data' ? { ...p, data: maskCardNumbersDeep(p.data) as Record<string, unknown> } : p)) };
}
