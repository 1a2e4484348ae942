// defineTool turns a ToolSpec into a Tool: defaults filled in, and the JSON Schema computed once, when first read.
import { z } from 'zod';
import { closeObjects } from './closed-objects.js';
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
    acceptsLogin: spec.acceptsLogin ?? false,
    confirm: spec.confirm as Tool['confirm'],
    ask: spec.ask as Tool['ask'],
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
