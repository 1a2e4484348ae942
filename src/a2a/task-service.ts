// The life of an A2A task: minted per message (or continued by taskId), persisted in the database, its
// events published to listeners. A task sent with an agent's secret is that agent's; an anonymous task is
// reachable by its unguessable id. contextId ties the tasks of one conversation together (earlier questions
// inform the router); work waiting on a job or handoff is finished by durable.ts. A caller without credentials
// sends a limited number of messages a minute from one address, and a new message of theirs that can only be
// answered "pay or sign in first" gets that answer as a Message, with no task stored (issue 42,
// docs/decisions/a2a-abandoned-tasks.md).
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { Registry } from '../registry/registry.js';
import type { Caller } from '../registry/types.js';
import * as store from '../store/a2a-tasks.js';
import type { Db } from '../store/db.js';
import { sharedRateWindow, type SharedRateWindow } from '../shared-rate-window.js';
import { storageBudgetRefusal } from '../storage-budget.js';
import { TaskHub, type PolledTask } from './hub.js';
import { uuidv7 } from './ids.js';
import { RPC, RpcError } from './jsonrpc.js';
import type { MessageSend } from './params.js';
import { perform, textOf, toolCallsOf, type Outcome, type Waiting } from './perform.js';
import { withoutSecretArguments } from './kept-secrets.js';
import { agentMessage, keepServedJson, redactMessage, rowToTask, statusOf, taskToWrite, withHistory } from './task-record.js';
import { isTerminal, type Message, type Part, type Task, type TaskState } from './types.js';

export interface TaskServiceDeps {
  registry: Registry;
  db: Db;
  clock: Clock;
  log: Logger;
  /** Messages one client address may send a minute without credentials (GATEWAY_A2A_ANONYMOUS_SENDS_PER_MINUTE). */
  anonymousSendsPerMinute: number;
  /** The largest message (its JSON, in bytes) a caller without credentials may send (GATEWAY_A2A_ANONYMOUS_MAX_MESSAGE_BYTES). */
  anonymousMaxMessageBytes: number;
  /** Client addresses the in-process window tracks on SQLite (GATEWAY_RATE_WINDOW_KEYS). */
  rateWindowKeys?: number;
}

/** How message/send answers: after the work (blocking), at once (background), or as a stream. */
export type SendMode = 'blocking' | 'background' | 'stream';

/** Earlier questions of the conversation passed to the router. */
const PREV_QUESTIONS = 5;

/** Ends a stream: terminal states, and states where the next move is the client's (credentials, payment). */
export const isFinal = (state: TaskState, waiting: Waiting | null): boolean => isTerminal(state) || state === 'auth-required' || (state === 'input-required' && !waiting);

/** How often listened tasks' rows are read for changes made by another gateway instance (hub.ts). */
export const TASK_POLL_MS = 500;
/** The NOTIFY channel of a2a_tasks writes (pg-migrations/027_change_signals.sql). */
const A2A_TASKS_CHANNEL = 'gw_a2a_tasks';

/** The window of the anonymous limit. */
const MINUTE_MS = 60_000;

/** An answer that made no task: the agent's reply alone, in the conversation the client named or a new one. */
const replyMessage = (contextId: string, parts: Part[]): Message => ({ kind: 'message', messageId: randomUUID(), role: 'agent', parts, contextId });

export class TaskService {
  readonly hub: TaskHub;
  /** Sends without credentials, per client address: the same exact window as the gateway's other limits (one database). */
  private readonly anonymous: SharedRateWindow;
  constructor(private readonly d: TaskServiceDeps) {
    this.anonymous = sharedRateWindow(d.db, 'a2a-anonymous', d.anonymousSendsPerMinute, MINUTE_MS, d.clock, d.rateWindowKeys);
    this.hub = new TaskHub({
      intervalMs: TASK_POLL_MS,
      read: (ids) => store.polledTasks<PolledTask>(d.db, ids),
      final: (row) => isFinal(row.state as TaskState, row.waiting_ref ? { kind: 'job', ref: row.waiting_ref } : null),
      onError: (err) => d.log.warn({ err }, 'a2a: reading listened tasks failed'),
      ...(d.db.listen ? { signal: (wake: () => void) => d.db.listen!(A2A_TASKS_CHANNEL, wake) } : {}),
    });
  }

  /** The task store (ListTasks reads it directly). */
  get db(): Db {
    return this.d.db;
  }

  private now(): number {
    return this.d.clock.now();
  }

  /** The stored task, when the caller may see it: its own, or an anonymous one. Else -32001. */
  async visibleRow(id: string, caller: Caller): Promise<store.TaskRow> {
    const row = await store.taskById(this.d.db, id);
    if (!row || (row.agent_id !== null && row.agent_id !== caller.agent?.id)) throw new RpcError(RPC.TASK_NOT_FOUND, `Task ${id} not found.`, { taskId: id });
    return row;
  }

  async get(id: string, caller: Caller, historyLength?: number): Promise<Task> {
    return withHistory(rowToTask(await this.visibleRow(id, caller)), historyLength);
  }

  /** The texts of the conversation's earlier user messages, oldest first. */
  private async earlierQuestions(contextId: string, caller: Caller, current: Message[]): Promise<string[]> {
    const rows = await store.contextTasks(this.d.db, contextId, caller.agent?.id ?? null, PREV_QUESTIONS);
    const messages = rows.reverse().flatMap((r) => JSON.parse(r.history) as Message[]);
    const texts = [...messages, ...current].filter((m) => m.role === 'user').map(textOf).filter(Boolean);
    return [...new Set(texts)].slice(-PREV_QUESTIONS);
  }

  /** Checks a message before any task exists for it: tool calls well-formed, no files, no push config. */
  private check(p: MessageSend) {
    if (p.configuration?.pushNotificationConfig !== undefined) throw new RpcError(RPC.PUSH_NOTIFICATION_NOT_SUPPORTED, 'Push notifications are not supported; use message/stream or tasks/resubscribe.');
    if (p.message.parts.some((x) => x.kind === 'file')) throw new RpcError(RPC.CONTENT_TYPE_NOT_SUPPORTED, 'File parts are not supported: send text, or a data part {"tool", "arguments"}.');
    return toolCallsOf(p.message as Message);
  }

  /** A new task for a message that names none: submitted, the message (redacted) its history. */
  private newTask(m: MessageSend['message']): Task {
    const id = uuidv7(this.now());
    const contextId = m.contextId ?? uuidv7(this.now());
    const user = redactMessage(withoutSecretArguments({ ...(m as Message), kind: 'message', taskId: id, contextId }, this.d.registry));
    return { kind: 'task', id, contextId, status: statusOf('submitted', undefined, this.now()), history: [user], artifacts: [] };
  }

  /** The task a message continues (its taskId), submitted again with the message added to its history. */
  private async continuedTask(taskId: string, m: MessageSend['message'], caller: Caller): Promise<Task> {
    const row = await this.visibleRow(taskId, caller);
    if (isTerminal(row.state as TaskState)) {
      throw new RpcError(RPC.UNSUPPORTED_OPERATION, `Task ${row.id} is ${row.state} and takes no more messages; send a new message with contextId ${row.context_id} to continue the conversation.`, { taskId: row.id, state: row.state });
    }
    if (row.waiting_ref) {
      throw new RpcError(RPC.UNSUPPORTED_OPERATION, `Task ${row.id} is waiting for ${row.waiting_kind} ${row.waiting_ref}; follow it with tasks/resubscribe or tasks/get, or cancel it.`, { taskId: row.id });
    }
    if (m.contextId && m.contextId !== row.context_id) throw new RpcError(RPC.INVALID_PARAMS, `Invalid params: message.contextId does not match task ${row.id}.`);
    const task = rowToTask(row);
    task.history.push(redactMessage(withoutSecretArguments({ ...(m as Message), kind: 'message', taskId: row.id, contextId: row.context_id }, this.d.registry)));
    task.status = statusOf('submitted', undefined, this.now());
    return task;
  }

  /** Writes the task; null when it became terminal meanwhile (a cancel won), else what was written. */
  private async save(task: Task, caller: Caller, waiting: Waiting | null, insert: boolean): Promise<store.TaskWrite | null> {
    const w = taskToWrite(task, caller.agent?.id ?? null, waiting, this.now());
    if (insert) {
      try {
        await store.insertTask(this.d.db, { ...w, created_at: this.now() });
      } catch (err) {
        // The caller's storage budget is full (migration 044): nothing was stored, and the message says how to make room.
        const budget = storageBudgetRefusal(err);
        if (budget) throw new RpcError(RPC.INVALID_PARAMS, budget.message, { code: 'payload_too_large', status: 413, ...budget.extra });
        throw err;
      }
      return w;
    }
    return (await store.updateOpenTask(this.d.db, w)) ? w : null;
  }

  /** Applies an outcome to a task and tells listeners: artifacts first, then the status. */
  publishOutcome(task: Task, o: Outcome): void {
    // Most tasks have no stream open on them: no events to build.
    if (!this.hub.listening(task.id)) return;
    for (const artifact of o.artifacts) {
      this.hub.publish(task.id, { kind: 'artifact-update', taskId: task.id, contextId: task.contextId, artifact, append: false, lastChunk: true });
    }
    this.hub.publish(task.id, { kind: 'status-update', taskId: task.id, contextId: task.contextId, status: task.status, final: isFinal(task.status.state, o.waiting) });
  }

  withOutcome(task: Task, o: Outcome): Task {
    const reply = agentMessage(task.id, task.contextId, o.parts);
    return { ...task, history: [...task.history, reply], artifacts: [...task.artifacts, ...o.artifacts], status: statusOf(o.state, reply, this.now()) };
  }

  /** Whether the caller sent a credential the gateway knows: an agent's secret, or a live API key (a cached lookup). */
  private async authenticated(caller: Caller): Promise<boolean> {
    if (caller.agent) return true;
    const key = caller.credentials.apiKey;
    return !!key && (await this.d.registry.services.keys.resolve(key)) !== null;
  }

  /**
   * A message without credentials is a question, kept an hour as its task: past a few kilobytes (a document to work
   * on) it needs credentials, so that nobody can store megabytes for nothing. Refused before the rate window counts it.
   */
  private checkAnonymousSize(message: MessageSend['message']): void {
    const limit = this.d.anonymousMaxMessageBytes;
    const size = Buffer.byteLength(JSON.stringify(message));
    if (size <= limit) return;
    throw new RpcError(
      RPC.INVALID_PARAMS,
      `Invalid params: message: ${size} bytes; without credentials a message may be at most ${limit} bytes. Send X-API-Key (a free key: POST /keys/issue) or Authorization: Bearer <agent secret> to send larger ones.`,
      { code: 'payload_too_large', status: 413, limit, size },
    );
  }

  /** Counts a send without credentials against its client address's minute; refuses it (-32000, 429) past the limit. */
  private async takeAnonymous(caller: Caller): Promise<void> {
    const wait = await this.anonymous.take(this.d.registry.services.clientKey(caller.credentials.ip));
    if (wait === 0) return;
    const limit = this.d.anonymousSendsPerMinute;
    throw new RpcError(
      RPC.RATE_LIMITED,
      `Too many messages without credentials from this address: ${limit} a minute. Retry in ${wait} s, or send X-API-Key (a free key: POST /keys/issue) or Authorization: Bearer <agent secret>, which this limit does not count.`,
      { code: 'rate_limited', status: 429, retryAfter: wait, limit, windowSeconds: MINUTE_MS / 1000 },
    );
  }

  /**
   * message/send and message/stream. `listen` runs with the task id before any event is published, so a
   * stream misses nothing. Returns the task as it stands when the mode says to answer, or a Message when a new
   * message without credentials can only be told to pay or sign in first (nothing is stored for it).
   */
  async send(p: MessageSend, caller: Caller, mode: SendMode, listen?: (taskId: string) => void, signal?: AbortSignal): Promise<Task | Message> {
    const calls = this.check(p);
    const anonymous = !(await this.authenticated(caller));
    if (anonymous) {
      this.checkAnonymousSize(p.message);
      await this.takeAnonymous(caller);
    }
    // A new task needs nothing read: no await on the way (most messages start one).
    const { taskId } = p.message;
    const existing = !!taskId;
    const task = taskId ? await this.continuedTask(taskId, p.message, caller) : this.newTask(p.message);
    // A new message without credentials is shown nothing before its work is done: its answer may be a Message
    // rather than a task. A background send answers with the task at once, so it is stored first as always.
    const later = anonymous && !existing && mode !== 'background';
    listen?.(task.id);
    // A conversation the client did not name is new: nothing earlier to read.
    const prev = p.message.contextId || existing ? await this.earlierQuestions(task.contextId, caller, task.history.slice(0, -1)) : [];
    const message = task.history[task.history.length - 1];
    let stored = existing;
    /** Streams and background sends show the task before the work: submitted, then working. */
    const showStarted = () => {
      this.hub.publish(task.id, { ...task });
      task.status = statusOf('working', undefined, this.now());
      this.hub.publish(task.id, { kind: 'status-update', taskId: task.id, contextId: task.contextId, status: task.status, final: false });
    };
    if (mode !== 'blocking' && !later) {
      if (!(await this.save(task, caller, null, !existing))) return this.get(task.id, caller);
      stored = true;
      showStarted();
    }
    const finish = async (): Promise<Task | Message> => {
      const o = await perform(this.d.registry, caller, p.message as Message, calls, prev, mode === 'background' ? undefined : signal);
      // All there is to say is "pay or sign in first", to a caller who sent no credentials: a task would hold only
      // the question until it expired. The answer is the reply alone; the client sends again with credentials.
      if (later && o.state === 'auth-required' && !o.waiting) return replyMessage(task.contextId, o.parts);
      if (later && mode === 'stream') showStarted();
      const done = this.withOutcome(task, o);
      const written = await this.save(done, caller, o.waiting, !stored);
      if (!written) return this.get(task.id, caller);
      // The answer is this task as written: its JSON is served from the parts just serialized for the row.
      keepServedJson(done, written);
      this.publishOutcome(done, o);
      if (o.waiting) await this.onWaiting?.(done.id);
      return done;
    };
    if (mode === 'background') {
      finish().catch((err: unknown) => this.d.log.error({ err, task: task.id }, 'a2a background task failed'));
      return task;
    }
    return finish();
  }

  /** Set by durable.ts: checks right away whether the awaited work already ended (it may finish first). */
  onWaiting?: (taskId: string) => Promise<void>;

  /** tasks/cancel: -32002 for a terminal task. A job it waited for is canceled too when the caller owns it. */
  async cancel(id: string, caller: Caller): Promise<Task> {
    const row = await this.visibleRow(id, caller);
    const notCancelable = (state: string) => new RpcError(RPC.TASK_NOT_CANCELABLE, `Task ${id} is ${state} and cannot be canceled.`, { taskId: id, state });
    if (isTerminal(row.state as TaskState)) throw notCancelable(row.state);
    const o: Outcome = { state: 'canceled', parts: [{ kind: 'text', text: 'Canceled at the client’s request.' }], artifacts: [], waiting: null };
    const done = this.withOutcome(rowToTask(row), o);
    if (!(await store.updateOpenTask(this.d.db, taskToWrite(done, row.agent_id, null, this.now())))) {
      throw notCancelable((await store.taskById(this.d.db, id))?.state ?? 'gone');
    }
    this.publishOutcome(done, o);
    if (row.waiting_kind === 'job' && row.waiting_ref && caller.agent) {
      await this.d.registry.invoke('job_cancel', { job_id: row.waiting_ref }, caller).catch(() => undefined);
    }
    return done;
  }

  /** Finishes (or updates) a task that waited for durable work; used by durable.ts. */
  async settleWaiting(row: store.TaskRow, o: Outcome): Promise<void> {
    const task = rowToTask(row);
    // The same progress again (a restart re-reads it): nothing new to store or tell.
    const said = task.status.message ? textOf(task.status.message) : '';
    const says = o.parts.map((x) => (x.kind === 'text' ? x.text : '')).join('');
    if (!isTerminal(o.state) && task.status.state === o.state && said.includes(says)) return;
    const done = this.withOutcome(task, o);
    if (!(await store.updateOpenTask(this.d.db, taskToWrite(done, row.agent_id, o.waiting, this.now())))) return;
    this.publishOutcome(done, o);
  }
}
