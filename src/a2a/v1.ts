// A2A v1.0 over the same tasks (requests with `A2A-Version: 1.0`): PascalCase methods, protobuf-JSON shapes
// (parts without `kind`, roles ROLE_USER/ROLE_AGENT, states TASK_STATE_*, stream results wrapped as
// {task} / {statusUpdate} / {artifactUpdate}). Converted at the edge; the store keeps v0.3 shapes.
import type { AgentCard } from './card.js';
import { RPC, RpcError } from './jsonrpc.js';
import type { Artifact, Message, Part, SseEvent, Task, TaskState } from './types.js';
import { isPlainObject as isObject } from '../plain-object.js';

type J = Record<string, unknown>;

export const v1State = (s: TaskState): string => (s === 'unknown' ? 'TASK_STATE_UNSPECIFIED' : `TASK_STATE_${s.replace('-', '_').toUpperCase()}`);

function v1Part(p: Part): J {
  const meta = p.metadata ? { metadata: p.metadata } : {};
  if (p.kind === 'text') return { text: p.text, ...meta };
  if (p.kind === 'data') return { data: p.data, ...meta };
  const f = p.file as { uri?: string; bytes?: string; name?: string; mimeType?: string };
  return { ...(f.uri ? { url: f.uri } : { raw: f.bytes }), ...(f.name ? { filename: f.name } : {}), ...(f.mimeType ? { mediaType: f.mimeType } : {}), ...meta };
}

export function v1Message(m: Message): J {
  return {
    messageId: m.messageId,
    ...(m.contextId ? { contextId: m.contextId } : {}),
    ...(m.taskId ? { taskId: m.taskId } : {}),
    role: m.role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT',
    parts: m.parts.map(v1Part),
    ...(m.metadata ? { metadata: m.metadata } : {}),
    ...(m.referenceTaskIds ? { referenceTaskIds: m.referenceTaskIds } : {}),
  };
}

const v1Status = (s: Task['status']): J => ({ state: v1State(s.state), ...(s.message ? { message: v1Message(s.message) } : {}), timestamp: s.timestamp });
const v1Artifact = (a: Artifact): J => ({ artifactId: a.artifactId, ...(a.name ? { name: a.name } : {}), parts: a.parts.map(v1Part) });

export function v1Task(t: Task): J {
  return { id: t.id, contextId: t.contextId, status: v1Status(t.status), artifacts: t.artifacts.map(v1Artifact), history: t.history.map(v1Message) };
}

export function v1Event(e: SseEvent): J {
  if (e.kind === 'task') return { task: v1Task(e) };
  if (e.kind === 'message') return { message: v1Message(e) };
  if (e.kind === 'status-update') return { statusUpdate: { taskId: e.taskId, contextId: e.contextId, status: v1Status(e.status) } };
  return { artifactUpdate: { taskId: e.taskId, contextId: e.contextId, artifact: v1Artifact(e.artifact), append: e.append, lastChunk: e.lastChunk } };
}

function fromV1Part(p: unknown, i: number): unknown {
  if (!isObject(p) || 'kind' in p) return p;
  const meta = isObject(p.metadata) ? { metadata: p.metadata } : {};
  if (typeof p.text === 'string') return { kind: 'text', text: p.text, ...meta };
  if ('data' in p) return { kind: 'data', data: isObject(p.data) ? p.data : { value: p.data }, ...meta };
  if ('url' in p || 'raw' in p) return { kind: 'file', file: { ...(p.url ? { uri: p.url } : { bytes: p.raw }), name: p.filename, mimeType: p.mediaType }, ...meta };
  throw new RpcError(RPC.INVALID_PARAMS, `Invalid params: message.parts.${i} carries none of text, data, url or raw.`);
}

function fromV1Message(m: unknown): unknown {
  if (!isObject(m)) return m;
  const role = m.role === 'ROLE_USER' ? 'user' : m.role === 'ROLE_AGENT' ? 'agent' : m.role;
  return { ...m, kind: 'message', role, parts: Array.isArray(m.parts) ? m.parts.map((p, i) => fromV1Part(p, i)) : m.parts };
}

/** SendMessageRequest → v0.3 MessageSendParams (returnImmediately is the inverse of blocking). */
export function fromV1Send(params: unknown): unknown {
  if (!isObject(params)) return params;
  const c = isObject(params.configuration) ? params.configuration : undefined;
  const push = c?.taskPushNotificationConfig ?? c?.pushNotificationConfig;
  const configuration = c
    ? {
        ...(Array.isArray(c.acceptedOutputModes) ? { acceptedOutputModes: c.acceptedOutputModes } : {}),
        ...(c.historyLength !== undefined ? { historyLength: c.historyLength } : {}),
        blocking: c.returnImmediately === true ? false : c.blocking !== false,
        ...(push !== undefined ? { pushNotificationConfig: push } : {}),
      }
    : undefined;
  return { message: fromV1Message(params.message), ...(configuration ? { configuration } : {}), ...(isObject(params.metadata) ? { metadata: params.metadata } : {}) };
}

/** The agent card in v1.0 form (supportedInterfaces, oneof security schemes, security requirements). */
export function v1Card(card: AgentCard): J {
  const req = (list: Record<string, string[]>[] | undefined) => list?.map((r) => ({ schemes: Object.fromEntries(Object.keys(r).map((k) => [k, { list: [] }])) }));
  return {
    name: card.name,
    description: card.description,
    supportedInterfaces: card.supportedInterfaces,
    provider: card.provider,
    version: card.version,
    documentationUrl: card.documentationUrl,
    capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: card.capabilities.extendedAgentCard },
    securitySchemes: {
      bearer: { httpAuthSecurityScheme: { scheme: 'bearer', description: card.securitySchemes.bearer.description } },
      apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key', description: card.securitySchemes.apiKey.description } },
    },
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map(({ security, ...s }) => ({ ...s, ...(security ? { securityRequirements: req(security) } : {}) })),
  };
}
