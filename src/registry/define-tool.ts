// defineTool turns a ToolSpec into a Tool: defaults filled in, and the JSON Schema computed once, when first read.
import { z } from 'zod';
import { closeObjects } from './closed-objects.js';
import { ASK_KEY } from './ask-step.js';
import type { Tool, ToolSpec } from './types.js';

const NAME = /^[a-z][a-z0-9_]{1,63}$/;

/** JSON Schema (2020-12) of a zod schema as a client sends it (input side of transforms and defaults). */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const js = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete js.$schema;
  return js;
}

/** JSON Schema of a tool's declared output as it answers (output side), for MCP's outputSchema: an object schema. */
export function outputJsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const js = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  delete js.$schema;
  if (js.type !== 'object') throw new Error('a tool output must be an object schema');
  return js;
}

/**
 * The tool's questions: its own `inputs`, with its `ask` form as one optional question under ASK_KEY in the first
 * round (a client that cannot fill forms is not asked, and the handler runs without an answer, as before).
 */
function inputsOf(spec: ToolSpec): Tool['inputs'] {
  const { ask, inputs } = spec;
  if (!ask) return inputs;
  return (input, answers) => {
    const own = inputs ? inputs(input, answers) : null;
    const form = ASK_KEY in answers ? null : ask(input);
    return form ? { [ASK_KEY]: { kind: 'form', form, optional: true }, ...own } : own;
  };
}

export function defineTool<S extends z.ZodType, R>(spec: ToolSpec<S, R>): Tool {
  if (!NAME.test(spec.name)) throw new Error(`tool name must be snake_case: ${spec.name}`);
  let inputJsonSchema: Record<string, unknown> | undefined;
  return {
    name: spec.name,
    title: spec.title,
    toolset: spec.toolset,
    description: spec.description,
    input: spec.input,
    output: spec.output,
    auth: spec.auth,
    price: spec.price ?? null,
    expose: { mcp: spec.expose?.mcp ?? true, catalog: spec.expose?.catalog ?? false, mcpOnly: spec.expose?.mcpOnly ?? false },
    annotations: { ...(spec.title ? { title: spec.title } : {}), ...spec.annotations },
    selfField: spec.selfField,
    secretInBody: spec.secretInBody ?? false,
    secretFields: spec.secretFields,
    acceptsLogin: spec.acceptsLogin ?? false,
    confirm: spec.confirm as Tool['confirm'],
    inputs: inputsOf(spec as ToolSpec),
    durable: spec.durable as Tool['durable'],
    mcpMeta: spec.mcpMeta,
    handler: spec.handler as Tool['handler'],
    // Converting every tool's schema at start-up took 50 ms; most are read only by tools/list or the OpenAPI.
    get inputJsonSchema() {
      if (!inputJsonSchema) {
        const js = jsonSchemaOf(spec.input);
        if (js.type !== 'object') throw new Error(`tool ${spec.name}: input must be an object schema`);
        // Closed as the registry enforces it: unknown fields are refused (closed-objects.ts).
        inputJsonSchema = closeObjects(js);
      }
      return inputJsonSchema;
    },
  };
}
