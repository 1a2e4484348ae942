// Method parameters (A2A v0.3 shapes), checked once; anything off answers -32602 with the first problem.
import { z } from 'zod';
import { RPC, RpcError } from './jsonrpc.js';

const Id = z.string().min(1).max(200);
const Meta = z.record(z.string(), z.unknown()).optional();

const TextPart = z.object({ kind: z.literal('text'), text: z.string().max(100_000), metadata: Meta });
const DataPart = z.object({ kind: z.literal('data'), data: z.record(z.string(), z.unknown()), metadata: Meta });
const FilePart = z.object({ kind: z.literal('file'), file: z.record(z.string(), z.unknown()), metadata: Meta });

export const MessageParam = z
  .object({
    kind: z.literal('message').optional(),
    messageId: Id,
    role: z.literal('user', { error: 'role must be "user" for messages sent to the agent' }),
    parts: z.array(z.discriminatedUnion('kind', [TextPart, DataPart, FilePart])).min(1).max(50),
    contextId: Id.optional(),
    taskId: Id.optional(),
    metadata: Meta,
    referenceTaskIds: z.array(Id).max(50).optional(),
    extensions: z.array(z.string().max(500)).max(20).optional(),
  })
  .loose();

export const MessageSendParams = z.object({
  message: MessageParam,
  configuration: z
    .object({
      acceptedOutputModes: z.array(z.string().max(200)).max(50).optional(),
      historyLength: z.number().int().min(0).optional(),
      blocking: z.boolean().optional(),
      pushNotificationConfig: z.unknown().optional(),
    })
    .loose()
    .optional(),
  metadata: Meta,
});

export const TaskQueryParams = z.object({ id: Id, historyLength: z.number().int().min(0).optional(), metadata: Meta });
export const TaskIdParams = z.object({ id: Id, metadata: Meta });

export type MessageSend = z.output<typeof MessageSendParams>;
export type TaskQuery = z.output<typeof TaskQueryParams>;

export function parseParams<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  const r = schema.safeParse(params ?? {});
  if (r.success) return r.data;
  const first = r.error.issues[0];
  const where = first?.path.length ? first.path.join('.') : 'params';
  throw new RpcError(RPC.INVALID_PARAMS, `Invalid params: ${where}: ${first?.message ?? 'not valid'}.`, {
    issues: r.error.issues.slice(0, 5).map((i) => ({ path: i.path.map(String), message: i.message })),
  });
}
