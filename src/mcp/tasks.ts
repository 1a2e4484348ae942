// The Tasks extension (`io.modelcontextprotocol/tasks`) on the 2026-07-28 era. A tool that starts durable work
// declares it (ToolSpec.durable: job_create's job). When a tools/call on such a tool carries the extension in its
// per-request client capabilities, the answer is a task handle (`resultType: "task"`) instead of the work's
// handle; tasks/get reads the work through the tool's declared reader, so the task is the durable job itself and
// outlives a restart or moves to another gateway process. Which caller owns the task, which work it follows and
// how long it is kept is a row of mcp_tasks. Wire shapes and the capability probe come from
// @modelcontextprotocol/ext-tasks (core/v2); the handlers are ours, registered on SDK v2's Server as custom methods.
import {
  CancelTaskRequestV2Schema,
  GetTaskRequestV2Schema,
  hasTaskClientCapabilityV2,
  TASKS_EXTENSION_ID_V2,
  UpdateTaskRequestV2Schema,
  type CompletedTaskV2,
  type CreateTaskResultV2,
  type DetailedTaskV2,
  type InputRequiredTaskV2,
  type TaskV2,
} from '@modelcontextprotocol/ext-tasks/core/v2';
import { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { GatewayError, toGatewayError } from '../errors.js';
import { poolBytes } from '../random.js';
import { checkInput } from '../registry/ask-step.js';
import type { Caller, Credentials, DurableWork, Tool, WorkState, WorkStatus } from '../registry/types.js';
import * as store from '../store/mcp-tasks.js';
import type { McpCatalog } from './mcp-catalog.js';
import { wireInputRequests } from './input-requests.js';
import { textResult, type CallToolResult } from './tool-result.js';

/** A task is kept this long past the moment its work is due (creation, or a timer's due time). */
export const TASK_KEEP_MS = 7 * 24 * 3600_000;
/** Suggested poll interval while work runs; waiting work (a timer) suggests its time left, up to the maximum. */
export const POLL_MS = 1_000;
export const MAX_POLL_MS = 5 * 60_000;

const TASK_ID = /^task_[A-Za-z0-9_-]{22}$/;

/** The status a new task starts with, for the state its work is in. */
const SEED: Record<WorkState, TaskV2['status']> = {
  running: 'working',
  input_required: 'input_required',
  succeeded: 'completed',
  failed: 'completed',
  errored: 'failed',
  canceled: 'cancelled',
};

export interface McpTasks {
  /**
   * A task handle in place of a durable tool's answer when the request accepts tasks; otherwise the answer itself.
   * (Typed as a tool result for SDK 2.4's tools/call handler, which passes a handler's own `resultType` through.)
   */
  offer(toolName: string, result: CallToolResult, envelope: object | undefined): Promise<CallToolResult>;
}

/** Does this request's own envelope (2026-07-28 `_meta`) declare the Tasks extension? */
export const acceptsTasks = (envelope: object | undefined): boolean => hasTaskClientCapabilityV2({ _meta: envelope ?? {} });

const notFound = (why = 'Task not found') => new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to retrieve task: ${why}`);

/** A failure that is not the caller's (a reader that broke): -32603, never the gateway's internals. */
const internal = () => new ProtocolError(ProtocolErrorCode.InternalError, 'Failed to read the task’s work');

/**
 * Serves tasks/get, tasks/update and tasks/cancel on one 2026-07-28 server (one request, or one stdio
 * connection), declares the extension (server/discover lists it), and returns the hook tools/call offers its
 * answers to.
 */
export function serveTasks(server: Server, catalog: McpCatalog, credentialsOf: () => Credentials): McpTasks {
  const { registry } = catalog;
  const { db, clock } = catalog.tasks;
  // Read at each use: a stdio connection's credentials change when vault_login binds it.
  const who = (): Promise<Caller> => registry.resolve(credentialsOf());

  server.registerCapabilities({ extensions: { [TASKS_EXTENSION_ID_V2]: {} } });

  /** The task and the tool whose work it follows, if the caller may see it. */
  async function open(taskId: string, ctx: ServerContext): Promise<{ row: store.McpTaskRow; work: DurableWork }> {
    if (!acceptsTasks(ctx.mcpReq.envelope)) {
      throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID_V2]: {} } } });
    }
    const row = TASK_ID.test(taskId) ? await store.mcpTaskById(db, taskId) : undefined;
    // Another agent's task reads exactly as a task that does not exist; an anonymous caller's is read by its id.
    if (!row || (row.agent_id !== null && row.agent_id !== (await who()).agent?.id)) throw notFound();
    if (row.expires_at < clock.now()) throw notFound('Task has expired');
    const work = registry.get(row.tool)?.durable;
    if (!work) throw notFound();
    return { row, work };
  }

  /** Reads the work as the caller, through the tool the work declares. */
  async function read(work: DurableWork, workId: string): Promise<{ status: WorkStatus; detail: Record<string, unknown> }> {
    let detail: Record<string, unknown>;
    try {
      detail = (await registry.call(work.read, { [work.field]: workId }, credentialsOf())).result as Record<string, unknown>;
    } catch (err) {
      const ge = toGatewayError(err);
      if (ge.status === 404) throw notFound();
      // Credentials refused (a suspended agent's): said as on tools/call, not as the gateway's fault.
      if (ge.status === 401 || ge.status === 403) throw new ProtocolError(ge.rpcCode, ge.message, { code: ge.code });
      throw internal();
    }
    return { status: work.statusOf(detail), detail };
  }

  const pollFor = (s: WorkStatus): number | undefined => {
    if (s.state !== 'running') return undefined;
    const wait = (s.dueAt ?? 0) - clock.now();
    return wait > POLL_MS ? Math.min(wait, MAX_POLL_MS) : POLL_MS;
  };

  const taskOf = (row: store.McpTaskRow, s: WorkStatus): Omit<TaskV2, 'status'> => {
    const poll = pollFor(s);
    return {
      taskId: row.id,
      statusMessage: s.message,
      createdAt: new Date(row.created_at).toISOString(),
      lastUpdatedAt: new Date(Math.max(row.created_at, s.updatedAt)).toISOString(),
      ttlMs: row.expires_at - row.created_at,
      ...(poll !== undefined ? { pollIntervalMs: poll } : {}),
    };
  };

  /**
   * The task as tasks/get shows it. The result is the tools/call result the request would have had, as the
   * revision's wire has it (`resultType: "complete"`). A job that failed is a tool call that ended in an error
   * result (completed, `isError`), as the same failure answered synchronously would be; `failed` is for protocol
   * errors only.
   */
  const detailed = (row: store.McpTaskRow, work: DurableWork, s: WorkStatus, detail: Record<string, unknown>): DetailedTaskV2 => {
    const base = taskOf(row, s);
    switch (s.state) {
      case 'running':
        return { ...base, status: 'working' };
      case 'input_required':
        // What the work waits for, as the embedded requests of an input round; tasks/update brings the answers.
        return { ...base, status: 'input_required', inputRequests: wireInputRequests(s.questions ?? {}) as InputRequiredTaskV2['inputRequests'] };
      case 'canceled':
        return { ...base, status: 'cancelled' };
      case 'errored':
        // The work broke rather than answered: a protocol-level failure, with its message and no internals.
        return { ...base, status: 'failed', error: { code: ProtocolErrorCode.InternalError, message: s.message } };
      default: {
        const value = s.state === 'succeeded' && work.resultOf ? work.resultOf(detail) : detail;
        return { ...base, status: 'completed', result: { ...textResult(value, s.state === 'failed'), resultType: 'complete' } as CompletedTaskV2['result'] };
      }
    }
  };

  server.setRequestHandler('tasks/get', { params: GetTaskRequestV2Schema.shape.params }, async ({ taskId }, ctx) => {
    const { row, work } = await open(taskId, ctx);
    const { status, detail } = await read(work, row.work_id);
    return detailed(row, work, status, detail);
  });

  // Answers for work waiting for input go to the work's own answer tool, checked against its questions; responses
  // to keys that are not outstanding are ignored, as the extension says, and the update is acknowledged either way
  // (tasks/get tells what the work does next). The SDK lifts `inputResponses` out of the params into ctx.mcpReq, as
  // for any multi round-trip request; only the id is left.
  server.setRequestHandler('tasks/update', { params: UpdateTaskRequestV2Schema.shape.params.pick({ taskId: true }) }, async ({ taskId }, ctx) => {
    const { row, work } = await open(taskId, ctx);
    const responses = ctx.mcpReq.inputResponses ?? {};
    if (!work.answer || Object.keys(responses).length === 0) return {};
    const { status } = await read(work, row.work_id);
    const outstanding = status.state === 'input_required' ? Object.entries(status.questions ?? {}).filter(([key]) => key in responses) : [];
    if (outstanding.length === 0) return {};
    try {
      const answers = Object.fromEntries(outstanding.map(([key, q]) => [key, checkInput(key, q, responses[key])]));
      await registry.call(work.answer, { [work.field]: row.work_id, answers }, credentialsOf());
    } catch (err) {
      const ge = toGatewayError(err);
      if (ge.status >= 500) throw internal();
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, ge.message, ge.detail ? { detail: ge.detail } : undefined);
    }
    return {};
  });

  // Cancellation is cooperative: the work's own cancel runs as the caller; when the work has started, has ended
  // or is not the caller's to stop (an anonymous job), the request is still acknowledged and tasks/get tells.
  server.setRequestHandler('tasks/cancel', { params: CancelTaskRequestV2Schema.shape.params }, async ({ taskId }, ctx) => {
    const { row, work } = await open(taskId, ctx);
    if (work.cancel) {
      try {
        await registry.call(work.cancel, { [work.field]: row.work_id }, credentialsOf());
      } catch (err) {
        if (!(err instanceof GatewayError) || err.status >= 500) throw internal();
      }
    }
    return {};
  });

  return {
    async offer(toolName, result, envelope) {
      const tool: Tool | undefined = registry.get(toolName);
      const work = tool?.durable;
      if (!work || result.isError || !acceptsTasks(envelope)) return result;
      const workId = work.idOf(result.structuredContent);
      if (!workId) return result;
      const now = clock.now();
      let status: WorkStatus;
      try {
        status = (await read(work, workId)).status;
      } catch {
        // The work exists but cannot be read back now: the client keeps its handle, as without tasks.
        return result;
      }
      const row: store.McpTaskRow = {
        id: `task_${poolBytes(16).toString('base64url')}`,
        agent_id: (await who()).agent?.id ?? null,
        tool: tool.name,
        work_id: workId,
        created_at: now,
        expires_at: Math.max(now, status.dueAt ?? now) + TASK_KEEP_MS,
      };
      // Written (committed) before the handle is returned, so a tasks/get right after finds it.
      await Promise.all([store.insertMcpTask(db, row), store.deleteExpiredMcpTasks(db, now)]);
      const seed = SEED[status.state];
      const handle: CreateTaskResultV2 = { resultType: 'task', ...taskOf(row, status), status: seed, ...(result._meta ? { _meta: result._meta as CreateTaskResultV2['_meta'] } : {}) };
      return handle as unknown as CallToolResult;
    },
  };
}
