// Query parameters a tool does not take are ignored, while unknown body fields are refused (the registry
// answers 422): URLs pick up parameters nobody meant for the tool (cache busters, tracking tags), a JSON body
// is written for the operation. Spec names of query parameters are read into the tool's field first.
import { isPlainObject } from '../plain-object.js';
import { declaredFields } from '../registry/closed-objects.js';
import type { Tool } from '../registry/types.js';
import type { RequestParts } from './route.js';

/** The query with each alias (`q`) read into its field (`query`); the alias wins when both are sent. */
export function readAliases(query: Record<string, unknown>, aliases: Record<string, string> | undefined): Record<string, unknown> {
  if (!aliases) return query;
  const out = { ...query };
  for (const [alias, field] of Object.entries(aliases)) {
    if (!(alias in out)) continue;
    out[field] = out[alias];
    delete out[alias];
  }
  return out;
}

const inBody = (body: unknown, key: string): boolean => isPlainObject(body) && Object.hasOwn(body, key);

/** The tool input without the fields that came from the query string only and that the tool does not declare. */
export function withoutUnknownQueryFields(input: unknown, parts: RequestParts, tool: Tool): unknown {
  if (!isPlainObject(input)) return input;
  const declared = declaredFields(tool.inputJsonSchema);
  if (!declared) return input;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(input)) {
    if (declared.has(key) || !Object.hasOwn(parts.query, key) || inBody(parts.body, key) || Object.hasOwn(parts.path, key)) continue;
    out ??= { ...input };
    delete out[key];
  }
  return out ?? input;
}
