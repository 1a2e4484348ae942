// The A2A methods, v0.3 names by default and v1.0 names (with `A2A-Version: 1.0`) over the same task store.
// Each handler returns the JSON-RPC result, or STREAMED when it answered with an event stream.
import type { ServerResponse } from 'node:http';
import type { Registry } from '../registry/registry.js';
import type { Caller, Credentials } from '../registry/types.js';
import { buildCard, sentCredential, withoutExtendedCard, type AgentCard, type CardInfo } from './card.js';
import { requireCardCredentials } from './extended-card.js';
import { RPC, RpcError, type RpcId } from './jsonrpc.js';
import { MessageSendParams, parseParams, TaskIdParams, TaskQueryParams, type MessageSend } from './params.js';
import { jsonRpcFraming, SseStream, type SseFraming } from './sse.js';
import { lapseCheck } from './stream-check.js';
import { withHistory } from './task-record.js';
import type { TaskService } from './task-service.js';
import { isTerminal, type Message, type SseEvent, type StreamEvent, type Task } from './types.js';
import { fromV1Send, v1Card, v1Event, v1Message, v1Task } from './v1.js';
import { listTasks } from './list-tasks.js';
import { clientBlock } from '../auth/client-key.js';
import type { ClientShares } from '../client-share.js';

export const STREAMED = Symbol('streamed');

export interface Call {
  id: RpcId;
  params: unknown;
  caller: Caller;
  res: ServerResponse;
  /** How a streamed answer is framed: JSON-RPC responses carrying `id` unless the binding says otherwise. */
  framing?: SseFraming;
}

export type Handler = (c: Call) => Promise<unknown>;

export interface MethodDeps {
  registry: Registry;
  service: TaskService;
  card: () => CardInfo;
  /** Open streams, so a stopping gateway can end them. */
  streams: Set<SseStream>;
  /** At most this many open at once (GATEWAY_A2A_MAX_STREAMS); a stream beyond it is refused before any work. */
  maxStreams: number;
  /** What one client address may hold of them (GATEWAY_SESSIONS_PER_CLIENT), refused alike beyond it. */
  shares: ClientShares<SseStream>;
}

const pushUnsupported: Handler = async () => {
  throw new RpcError(RPC.PUSH_NOTIFICATION_NOT_SUPPORTED, 'Push notifications are not supported; use message/stream or tasks/resubscribe.');
};

export interface MethodTables {
  v03: Record<string, Handler>;
  v1: Record<string, Handler>;
  publicCard: (credentials: Credentials) => AgentCard;
}

export function methodTables(d: MethodDeps): MethodTables {
  let cached: { info: CardInfo; card: AgentCard; anonymous: AgentCard } | undefined;
  /** The public card; the extended card is on offer to a caller that sent a credential (card.ts). */
  const publicCard = (credentials: Credentials): AgentCard => {
    const info = d.card();
    if (!cached || cached.info.baseUrl !== info.baseUrl) {
      const card = buildCard(d.registry, info);
      cached = { info, card, anonymous: withoutExtendedCard(card) };
    }
    return sentCredential(credentials) ? cached.card : cached.anonymous;
  };
  /** An agent's card adds its owner-only tools; an API key unlocks no tool of its own, so its card is the public one. */
  const extendedCard = async (caller: Caller): Promise<AgentCard> => {
    await requireCardCredentials(caller, d.registry.services.keys);
    return caller.agent ? buildCard(d.registry, d.card(), caller.agent) : publicCard(caller.credentials);
  };

  const open = (c: Call, shape: (e: SseEvent) => unknown, onClose: () => void): SseStream => {
    // Refused rather than closing another client's stream: the caller can send without streaming and poll the task.
    const client = clientBlock(c.caller.credentials.ip);
    const full = d.shares.refusal(client, d.streams.size, d.maxStreams);
    if (full) {
      throw new RpcError(RPC.UNSUPPORTED_OPERATION, `${full.whose} ${full.limit} event streams open, the most it may: send without streaming (and poll tasks/get), close a stream, or retry later.`, {
        reason: 'too_many_streams',
        limit: full.limit,
      });
    }
    const s = new SseStream(c.res, c.framing ?? jsonRpcFraming(c.id), shape, () => {
      d.streams.delete(s);
      d.shares.remove(s);
      onClose();
    });
    d.streams.add(s);
    d.shares.add(s, client);
    return s;
  };

  /** message/stream: the task, then its status and artifact updates until a final one. */
  const stream = async (c: Call, p: () => MessageSend, shape: (e: SseEvent) => unknown) => {
    let stop = () => {};
    const s = open(c, shape, () => stop());
    try {
      const t = await d.service.send(p(), c.caller, 'stream', (taskId) => {
        stop = d.service.hub.subscribe(taskId, (e) => s.event(e));
      });
      // An answer that made no task is the stream's one event.
      if (t.kind === 'message') s.event(t);
      // A task that ended otherwise (canceled meanwhile) published no final event here: close with its state.
      else if (s.open && isTerminal(t.status.state)) s.event({ kind: 'status-update', taskId: t.id, contextId: t.contextId, status: t.status, final: true });
      // The send is answered; what its task does later reaches the caller only while the caller is still let in.
      s.arm(lapseCheck(d.registry, c.caller));
    } catch (err) {
      s.error(err);
    }
    if (!s.open) stop();
    return STREAMED;
  };

  /** tasks/resubscribe: the task now, then what happens to it. A terminal task ends the stream at once. */
  const resubscribe = async (c: Call, shape: (e: SseEvent) => unknown, terminalIsError: boolean) => {
    const pending: StreamEvent[] = [];
    let live = false;
    let stop = () => {};
    const s = open(c, shape, () => stop());
    let task: Task;
    try {
      const { id } = parseParams(TaskIdParams, c.params);
      // Listen before reading, so nothing between the read and the first live event is missed.
      stop = d.service.hub.subscribe(id, (e) => (live ? s.event(e) : pending.push(e)));
      task = await d.service.get(id, c.caller);
      // What the stream is shown now; the hub reports what follows, from this instance or another.
      d.service.hub.saw(task);
      if (isTerminal(task.status.state) && terminalIsError) {
        throw new RpcError(RPC.UNSUPPORTED_OPERATION, `Task ${task.id} is ${task.status.state}; there is nothing to subscribe to.`, { taskId: task.id });
      }
    } catch (err) {
      stop();
      s.error(err);
      return STREAMED;
    }
    s.event(task);
    if (isTerminal(task.status.state)) {
      s.event({ kind: 'status-update', taskId: task.id, contextId: task.contextId, status: task.status, final: true });
      stop();
      return STREAMED;
    }
    s.arm(lapseCheck(d.registry, c.caller));
    live = true;
    for (const e of pending.splice(0)) s.event(e);
    return STREAMED;
  };

  /** A task (its history trimmed as asked), or the Message that answered without making one. */
  const sendMessage = async (c: Call, p: MessageSend): Promise<Task | Message> => {
    const mode = p.configuration?.blocking === false ? 'background' : 'blocking';
    const answer = await d.service.send(p, c.caller, mode);
    return answer.kind === 'message' ? answer : withHistory(answer, p.configuration?.historyLength);
  };
  const same = (e: SseEvent) => e;

  const v03: Record<string, Handler> = {
    'message/send': (c) => sendMessage(c, parseParams(MessageSendParams, c.params)),
    'message/stream': (c) => stream(c, () => parseParams(MessageSendParams, c.params), same),
    'tasks/get': async (c) => {
      const q = parseParams(TaskQueryParams, c.params);
      return d.service.get(q.id, c.caller, q.historyLength);
    },
    'tasks/cancel': async (c) => d.service.cancel(parseParams(TaskIdParams, c.params).id, c.caller),
    'tasks/resubscribe': (c) => resubscribe(c, same, false),
    'agent/getCard': async (c) => publicCard(c.caller.credentials),
    'agent/getAuthenticatedExtendedCard': (c) => extendedCard(c.caller),
    'tasks/pushNotificationConfig/set': pushUnsupported,
    'tasks/pushNotificationConfig/get': pushUnsupported,
    'tasks/pushNotificationConfig/list': pushUnsupported,
    'tasks/pushNotificationConfig/delete': pushUnsupported,
  };

  const v1: Record<string, Handler> = {
    SendMessage: async (c) => {
      const answer = await sendMessage(c, parseParams(MessageSendParams, fromV1Send(c.params)));
      return answer.kind === 'message' ? { message: v1Message(answer) } : { task: v1Task(answer) };
    },
    SendStreamingMessage: (c) => stream(c, () => parseParams(MessageSendParams, fromV1Send(c.params)), v1Event),
    GetTask: async (c) => {
      const q = parseParams(TaskQueryParams, c.params);
      return v1Task(await d.service.get(q.id, c.caller, q.historyLength));
    },
    CancelTask: async (c) => v1Task(await d.service.cancel(parseParams(TaskIdParams, c.params).id, c.caller)),
    SubscribeToTask: (c) => resubscribe(c, v1Event, true),
    GetExtendedAgentCard: async (c) => v1Card(await extendedCard(c.caller)),
    ListTasks: (c) => listTasks(d.service.db, c.caller, c.params),
    CreateTaskPushNotificationConfig: pushUnsupported,
    SetTaskPushNotificationConfig: pushUnsupported,
    GetTaskPushNotificationConfig: pushUnsupported,
    ListTaskPushNotificationConfig: pushUnsupported,
    ListTaskPushNotificationConfigs: pushUnsupported,
    DeleteTaskPushNotificationConfig: pushUnsupported,
  };
  return { v03, v1, publicCard };
}
