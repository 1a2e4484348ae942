// The params of most sends (a message of text parts, at most a plain configuration) checked by hand, exactly as
// MessageSendParams checks them, and built as its parse builds them: the same keys in the same order. Anything else
// (data or file parts, metadata, extensions, an unknown key, a value zod would refuse) is left to zod, which
// answers the errors. The zod parse was most of a send's parameter cost and a few kilobytes of garbage a request;
// test/a2a/plain-send.test.ts holds the two to the same results.
/** The parsed shape (params.ts's MessageSend, which casts this back: importing it here would make a cycle). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type MessageSend = { configuration?: Record<string, unknown>; [key: string]: any };

const MESSAGE_KEYS = new Set(['kind', 'messageId', 'role', 'parts', 'contextId', 'taskId']);
const TOP_KEYS = new Set(['message', 'configuration']);
const CONFIG_KEYS = new Set(['acceptedOutputModes', 'historyLength', 'blocking']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= 200;

/** Every key (own or inherited, as for…in sees them) is one of `allowed`. */
function onlyKeys(o: Record<string, unknown>, allowed: Set<string>): boolean {
  for (const k in o) if (!allowed.has(k)) return false;
  return true;
}

function textParts(parts: unknown): { kind: 'text'; text: string }[] | undefined {
  if (!Array.isArray(parts) || parts.length < 1 || parts.length > 50) return undefined;
  const out: { kind: 'text'; text: string }[] = [];
  for (const p of parts) {
    if (!isObject(p) || p.kind !== 'text' || typeof p.text !== 'string' || p.text.length > 100_000) return undefined;
    for (const k in p) if (k !== 'kind' && k !== 'text') return undefined;
    out.push({ kind: 'text', text: p.text });
  }
  return out;
}

function plainConfiguration(c: unknown): NonNullable<MessageSend['configuration']> | undefined {
  if (!isObject(c) || !onlyKeys(c, CONFIG_KEYS)) return undefined;
  const out: NonNullable<MessageSend['configuration']> = {};
  if ('acceptedOutputModes' in c) {
    const modes = c.acceptedOutputModes;
    if (!Array.isArray(modes) || modes.length > 50 || !modes.every((m) => typeof m === 'string' && m.length <= 200)) return undefined;
    out.acceptedOutputModes = [...(modes as string[])];
  }
  if ('historyLength' in c) {
    if (!Number.isSafeInteger(c.historyLength) || (c.historyLength as number) < 0) return undefined;
    out.historyLength = c.historyLength as number;
  }
  if ('blocking' in c) {
    if (typeof c.blocking !== 'boolean') return undefined;
    out.blocking = c.blocking;
  }
  return out;
}

/** The parsed params when they are of the plain kind, else undefined (zod decides). */
export function plainMessageSend(params: unknown): MessageSend | undefined {
  if (!isObject(params) || !onlyKeys(params, TOP_KEYS)) return undefined;
  const m = params.message;
  if (!isObject(m) || !onlyKeys(m, MESSAGE_KEYS)) return undefined;
  if (('kind' in m && m.kind !== 'message') || !isId(m.messageId) || m.role !== 'user') return undefined;
  if (('contextId' in m && !isId(m.contextId)) || ('taskId' in m && !isId(m.taskId))) return undefined;
  const parts = textParts(m.parts);
  if (!parts) return undefined;
  // Fields added in the schema's order, without spreads (on Node 20 a spread before more fields is the slow path).
  const message: MessageSend['message'] = 'kind' in m ? { kind: 'message', messageId: m.messageId, role: 'user', parts } : { messageId: m.messageId, role: 'user', parts };
  if ('contextId' in m) message.contextId = m.contextId as string;
  if ('taskId' in m) message.taskId = m.taskId as string;
  if (!('configuration' in params)) return { message };
  const configuration = plainConfiguration(params.configuration);
  return configuration ? { message, configuration } : undefined;
}
