// A2A v1.0 ListTasks: the caller's own tasks, newest update first, filtered by context, state and update time, one
// page at a time (an opaque token), each with at most `historyLength` messages and its artifacts only when asked. A
// task belongs to the agent whose credentials sent it; an anonymous caller, or one with an API key, owns none, so it
// lists none (anonymous tasks are reached by their unguessable id alone).
import { z } from 'zod';
import type { Caller } from '../registry/types.js';
import * as store from '../store/a2a-tasks.js';
import type { Db } from '../store/db.js';
import { RPC, RpcError } from './jsonrpc.js';
import { parseParams } from './params.js';
import { rowToTask, withHistory } from './task-record.js';
import type { TaskState } from './types.js';
import { v1Task } from './v1.js';

const STATES = ['submitted', 'working', 'input-required', 'completed', 'canceled', 'failed', 'rejected', 'auth-required'] as const;
/** TASK_STATE_INPUT_REQUIRED → input-required; TASK_STATE_UNSPECIFIED (protobuf's default) filters nothing. */
const fromV1State = (s: string): TaskState | undefined => (s === 'TASK_STATE_UNSPECIFIED' ? undefined : (s.replace(/^TASK_STATE_/, '').toLowerCase().replace('_', '-') as TaskState));
/** Protobuf JSON writes an unset string as "": the same as absent. */
const optionalText = z
  .string()
  .max(500)
  .optional()
  .transform((v) => (v === '' ? undefined : v));

const ListTasksParams = z
  .object({
    tenant: z.string().max(200).optional(),
    contextId: optionalText,
    status: z
      .enum(['TASK_STATE_UNSPECIFIED', ...STATES.map((s) => `TASK_STATE_${s.replace('-', '_').toUpperCase()}`)] as [string, ...string[]])
      .optional(),
    pageSize: z.number().int().min(1).max(100).optional(),
    pageToken: optionalText,
    historyLength: z.number().int().min(0).optional(),
    statusTimestampAfter: z.iso.datetime({ offset: true }).optional().or(z.literal('').transform(() => undefined)),
    includeArtifacts: z.boolean().optional(),
  })
  .loose();

export const DEFAULT_PAGE_SIZE = 50;

const encodeToken = (r: { updated_at: number; id: string }) => Buffer.from(JSON.stringify([r.updated_at, r.id])).toString('base64url');

function decodeToken(token: string): { updatedAt: number; id: string } {
  try {
    const [updatedAt, id] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof updatedAt === 'number' && typeof id === 'string') return { updatedAt, id };
  } catch {
    // Answered below.
  }
  throw new RpcError(RPC.INVALID_PARAMS, 'Invalid params: pageToken: not a token this agent gave.');
}

export async function listTasks(db: Db, caller: Caller, params: unknown) {
  const p = parseParams(ListTasksParams, params);
  const pageSize = p.pageSize ?? DEFAULT_PAGE_SIZE;
  const after = p.pageToken === undefined ? undefined : decodeToken(p.pageToken);
  if (!caller.agent) return { tasks: [], nextPageToken: '', pageSize, totalSize: 0 };
  const { rows, total } = await store.listTasks(db, {
    agentId: caller.agent.id,
    contextId: p.contextId,
    state: p.status === undefined ? undefined : fromV1State(p.status),
    updatedFrom: p.statusTimestampAfter === undefined ? undefined : Date.parse(p.statusTimestampAfter),
    after,
    limit: pageSize + 1,
  });
  const page = rows.slice(0, pageSize);
  const tasks = page.map((r) => {
    const t = withHistory(rowToTask(r), p.historyLength);
    return v1Task(p.includeArtifacts ? t : { ...t, artifacts: [] });
  });
  return { tasks, nextPageToken: rows.length > pageSize ? encodeToken(page[page.length - 1]) : '', pageSize, totalSize: total };
}
