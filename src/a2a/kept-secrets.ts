// What an A2A task record keeps of a call that carries a credential (ToolSpec.secretFields): the caller is answered
// with the secret a tool made (a new agent secret, an API key, a vault value), but the task row, which tasks/get,
// ListTasks and a database backup read for days after, holds a placeholder in its place. The message that sent one
// (vault_put's value) is stored without it from the start.
import type { Registry } from '../registry/registry.js';
import { isPlainObject } from '../plain-object.js';
import type { Artifact, Message } from './types.js';

export const NOT_KEPT = '[not kept: shown once]';

/** The object with each named field that it has replaced by the placeholder; the object itself when it has none. */
export function withheld(value: unknown, fields: readonly string[] | undefined): unknown {
  if (!fields || !isPlainObject(value) || !fields.some((f) => Object.hasOwn(value, f))) return value;
  const copy: Record<string, unknown> = { ...value };
  for (const f of fields) if (Object.hasOwn(copy, f)) copy[f] = NOT_KEPT;
  return copy;
}

/** The form of an artifact the record keeps, when it differs from the one sent (non-enumerable: never serialized). */
const KEPT = Symbol('keptForm');

export function keepAs(sent: Artifact, kept: Artifact): Artifact {
  if (kept !== sent) Object.defineProperty(sent, KEPT, { value: kept, enumerable: false });
  return sent;
}

const keptOf = (a: Artifact): Artifact | undefined => (a as { [KEPT]?: Artifact })[KEPT];

/** Whether any artifact is stored otherwise than it is sent (its task's answer is then not the row's JSON). */
export const withholds = (artifacts: Artifact[]): boolean => artifacts.some((a) => keptOf(a) !== undefined);

/** The artifacts column. */
export const keptArtifacts = (artifacts: Artifact[]): string => JSON.stringify(withholds(artifacts) ? artifacts.map((a) => keptOf(a) ?? a) : artifacts);

/** A client's message as stored: the secret arguments of the tools its data parts call replaced. */
export function withoutSecretArguments(m: Message, registry: Registry): Message {
  let changed = false;
  const parts = m.parts.map((p) => {
    if (p.kind !== 'data' || typeof p.data.tool !== 'string') return p;
    const args = withheld(p.data.arguments, registry.get(p.data.tool)?.secretFields?.input);
    if (args === p.data.arguments) return p;
    changed = true;
    return { ...p, data: { ...p.data, arguments: args } };
  });
  return changed ? { ...m, parts } : m;
}
