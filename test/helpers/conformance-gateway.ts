// The gateway the official MCP conformance suite (@modelcontextprotocol/conformance) runs against: the real
// product, built in-process as src/main.ts and test/helpers/gateway.ts build it, plus the fixtures the suite's
// server scenarios call by name (test_simple_text, test://static-text, test_simple_prompt, …; the 2026-07-28
// multi round-trip and stateless ones in conformance-rounds.ts, the Tasks extension's in conformance-tasks.ts).
// The fixtures are registered here, through the same defineTool, ResourceDef and PromptDef the product uses, and
// handed to the gateway with the `additions` option of Gateway.create: the product never ships them.
//
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { CatalogAdditions } from '../../src/app.js';
import { contentResult } from '../../src/registry/content-result.js';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { PromptDef } from '../../src/registry/prompt-defs.js';
import type { ResourceDef, ResourceTemplateDef } from '../../src/registry/resource-defs.js';
import type { FormAnswer, Tool } from '../../src/registry/types.js';
import { roundPrompts, roundTools } from './conformance-rounds.js';
import { taskTools } from './conformance-tasks.js';
import { startGateway, type TestGateway } from './gateway.js';

const toolset = 'conformance';
/** A call's stream is let go after POLL_AFTER_MS; test_reconnection runs well past that. */
const POLL_AFTER_MS = 150;
const RECONNECTION_CALL_MS = 600;

/** The reference server's 1x1 red PNG and minimal WAV. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
const WAV = Buffer.from('UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=', 'base64');
const png = (name: string) => ({ kind: 'file' as const, bytes: PNG, contentType: 'image/png', filename: name, sha256: createHash('sha256').update(PNG).digest('hex') });
const noInput = z.object({});

/**
 * The suite's SEP-1613 / SEP-2106 schema, exactly as its reference server lists it: `$schema`, `$defs` with an
 * `$anchor`, a `$ref`, composition (`allOf`/`anyOf`) and conditional (`if`/`then`/`else`) keywords, closed.
 */
export const JSON_SCHEMA_2020_12_INPUT = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

const jsonSchemaTool = defineTool({
  name: 'json_schema_2020_12_tool',
  toolset,
  description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613, SEP-2106).',
  input: z.object({
    name: z.string().optional(),
    address: z.object({ street: z.string().optional(), city: z.string().optional() }).optional(),
    contactMethod: z.enum(['phone', 'email']).optional(),
    phone: z.string().optional(),
    email: z.string().optional(),
  }),
  auth: 'public',
  handler: (input) => ({ called_with: input }),
});

/** Reads one fixture resource: the registry reads every resource through a tool, kept out of tools/list. */
/** What the reference server answers after an elicitation. */
const elicitationText = (a: FormAnswer | undefined): string =>
  a ? `Elicitation completed: action=${a.action}, content=${JSON.stringify(a.content ?? {})}` : 'Elicitation not supported by this client.';

const resourceTool = (name: string, handler: (input: Record<string, unknown>) => unknown, input: z.ZodObject = noInput): Tool =>
  defineTool({ name, toolset, description: `Reads a conformance fixture resource (${name}).`, input, auth: 'public', expose: { mcp: false }, handler });

export const conformanceTools: Tool[] = [
  defineTool({
    name: 'test_simple_text',
    toolset,
    description: 'Tests simple text content response.',
    input: noInput,
    auth: 'public',
    handler: () => 'This is a simple text response for testing.',
  }),
  defineTool({
    name: 'test_error_handling',
    toolset,
    description: 'Tests error response handling: always fails.',
    input: noInput,
    auth: 'public',
    handler: () => {
      throw new GatewayError('bad_request', 'This tool intentionally returns an error for testing');
    },
  }),
  // The gateway's tools ask the person through the registry's confirm step, which a 2025-era client that
  // declared elicitation receives as elicitation/create. The form is the gateway's confirmation (a yes box),
  // not the suite's username/email; the suite checks only that the server elicited and the tool answered.
  defineTool({
    name: 'test_elicitation',
    toolset,
    description: 'Tests server-initiated elicitation: asks the person to confirm the given message.',
    input: z.object({ message: z.string().describe('The message to show the user') }),
    auth: 'public',
    confirm: (input) => ({ message: input.message }),
    handler: () => ({ confirmed: true }),
  }),
  // Tools with a form of their own (`ask`): the registry puts it to the person before the handler runs, which
  // a 2025-era client that declared elicitation receives as elicitation/create, and hands the answer in ctx.answer.
  defineTool({
    name: 'test_elicitation_sep1034_defaults',
    toolset,
    description: 'Tests elicitation with default values for every primitive type (SEP-1034).',
    input: noInput,
    auth: 'public',
    ask: () => ({
      message: 'Please review and update the form fields with defaults',
      fields: {
        name: { type: 'string', description: 'User name', default: 'John Doe' },
        age: { type: 'integer', description: 'User age', default: 30 },
        score: { type: 'number', description: 'User score', default: 95.5 },
        status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', description: 'Verification status', default: true },
      },
    }),
    handler: (_input, ctx) => elicitationText(ctx.answer),
  }),
  defineTool({
    name: 'test_elicitation_sep1330_enums',
    toolset,
    description: 'Tests elicitation with the enum variants of SEP-1330.',
    input: noInput,
    auth: 'public',
    ask: () => ({
      message: 'Please select options from the enum fields',
      fields: {
        untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
        titledSingle: {
          type: 'string',
          description: 'Select one option with titles',
          oneOf: [
            { const: 'value1', title: 'First Option' },
            { const: 'value2', title: 'Second Option' },
            { const: 'value3', title: 'Third Option' },
          ],
        },
        legacyEnum: { type: 'string', description: 'Select one option (legacy)', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
        untitledMulti: { type: 'array', description: 'Select multiple options', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
        titledMulti: {
          type: 'array',
          description: 'Select multiple options with titles',
          minItems: 1,
          maxItems: 3,
          items: {
            anyOf: [
              { const: 'value1', title: 'First Choice' },
              { const: 'value2', title: 'Second Choice' },
              { const: 'value3', title: 'Third Choice' },
            ],
          },
        },
      },
    }),
    handler: (_input, ctx) => elicitationText(ctx.answer),
  }),
  // Reports 0, 50 and 100 of 100, ~50 ms apart, through the registry's progress reporter; MCP passes the
  // reports on as notifications/progress when the request carries a progressToken.
  defineTool({
    name: 'test_tool_with_progress',
    toolset,
    description: 'Tests progress notifications: reports 0, 50 and 100 of 100.',
    input: noInput,
    auth: 'public',
    handler: async (_input, ctx) => {
      for (const done of [0, 50, 100]) {
        if (done > 0) await new Promise((resolve) => setTimeout(resolve, 50));
        ctx.progress?.(done, 100);
      }
      return { reported: [0, 50, 100] };
    },
  }),
  // Runs past the gateway's GATEWAY_MCP_POLL_AFTER_MS (set low below), so the session transport closes its stream
  // after the priming event and the answer comes on the client's GET with Last-Event-ID (SEP-1699), as the
  // reference server's closeSSEStream does.
  defineTool({
    name: 'test_reconnection',
    toolset,
    description: 'Tests SSE stream disconnection and client reconnection (SEP-1699): the stream closes mid-call.',
    input: noInput,
    auth: 'public',
    handler: async () => {
      await new Promise((resolve) => setTimeout(resolve, RECONNECTION_CALL_MS));
      return 'Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.';
    },
  }),
  // The listing is the reference server's raw schema (the suite checks that MCP passes it through untouched);
  // the zod input still validates calls. Product tools list the schema zod derives, without `$schema` (2020-12
  // is MCP's default dialect).
  { ...jsonSchemaTool, inputJsonSchema: JSON_SCHEMA_2020_12_INPUT },
  // Content beyond JSON: a file result (an image/* file is an image block) and content results.
  defineTool({ name: 'test_image_content', toolset, description: 'Tests image content response.', input: noInput, auth: 'public', handler: () => png('red-pixel.png') }),
  defineTool({
    name: 'test_audio_content',
    toolset,
    description: 'Tests audio content response.',
    input: noInput,
    auth: 'public',
    handler: () => contentResult([{ type: 'audio', bytes: WAV, mimeType: 'audio/wav' }]),
  }),
  defineTool({
    name: 'test_embedded_resource',
    toolset,
    description: 'Tests embedded resource content response.',
    input: noInput,
    auth: 'public',
    handler: () => contentResult([{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }]),
  }),
  defineTool({
    name: 'test_multiple_content_types',
    toolset,
    description: 'Tests response with multiple content types (text, image, resource).',
    input: noInput,
    auth: 'public',
    handler: () =>
      contentResult([
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', bytes: PNG, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) } },
      ]),
  }),
  resourceTool('conformance_static_binary', () => png('static-binary.png')),
  resourceTool('conformance_static_text', () => ({ text: 'This is the content of the static text resource.' })),
  resourceTool('conformance_watched', () => ({ text: 'Watched resource content' })),
  resourceTool('conformance_template_data', ({ id }) => ({ id, templateTest: true, data: `Data for ID: ${String(id)}` }), z.object({ id: z.string() })),
];

// Every resource is the JSON result of its tool, so these are application/json where the suite's reference
// server serves text/plain; the scenarios check the presence of uri, mimeType and text, not the type.
export const conformanceResources: ResourceDef[] = [
  { uri: 'test://static-text', name: 'static-text', title: 'Static Text Resource', description: 'A static text resource for testing.', mimeType: 'application/json', tool: 'conformance_static_text' },
  { uri: 'test://static-binary', name: 'static-binary', title: 'Static Binary Resource', description: 'A static binary resource (image/png) for testing.', mimeType: 'image/png', tool: 'conformance_static_binary' },
  { uri: 'test://watched-resource', name: 'watched-resource', title: 'Watched Resource', description: 'A resource for subscription tests.', mimeType: 'application/json', tool: 'conformance_watched' },
];

export const conformanceResourceTemplates: ResourceTemplateDef[] = [
  { uriTemplate: 'test://template/{id}/data', name: 'template', title: 'Resource Template', description: 'A resource template with parameter substitution.', mimeType: 'application/json', tool: 'conformance_template_data' },
];

export const conformancePrompts: PromptDef[] = [
  { name: 'test_simple_prompt', title: 'Simple Test Prompt', description: 'A simple prompt without arguments.', arguments: [], render: () => 'This is a simple prompt for testing.' },
  {
    name: 'test_prompt_with_arguments',
    title: 'Prompt With Arguments',
    description: 'A prompt with required arguments.',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    render: (a) => `Prompt with arguments: arg1='${a.arg1}', arg2='${a.arg2}'`,
  },
  {
    name: 'test_prompt_with_embedded_resource',
    title: 'Prompt With Embedded Resource',
    description: 'A prompt that embeds a resource.',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    render: (a) => [
      { role: 'user', content: { type: 'resource', resource: { uri: a.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  },
  {
    name: 'test_prompt_with_image',
    title: 'Prompt With Image',
    description: 'A prompt with image content.',
    arguments: [],
    render: () => [
      { role: 'user', content: { type: 'image', bytes: PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  },
];

export const conformanceAdditions: CatalogAdditions = {
  tools: [...conformanceTools, ...roundTools, ...taskTools],
  resources: conformanceResources,
  resourceTemplates: conformanceResourceTemplates,
  prompts: [...conformancePrompts, ...roundPrompts],
};

/**
 * The gateway with the fixtures, on a free port. Scenarios read only the first page of tools/list, so one page
 * holds every tool (the product's 130-odd and the fixtures after them). Calls longer than POLL_AFTER_MS are
 * polled (server-sse-polling).
 */
export function startConformanceGateway(): Promise<TestGateway> {
  return startGateway({ env: { GATEWAY_MCP_PAGE_SIZE: '1000', GATEWAY_MCP_POLL_AFTER_MS: String(POLL_AFTER_MS) }, additions: conformanceAdditions });
}

/** The server scenarios in what `conformance list` prints (either line: the 0.2 one adds each scenario's revisions). */
export function listedServerScenarios(listOutput: string): string[] {
  const server = listOutput.slice(listOutput.indexOf('Server scenarios'), listOutput.indexOf('Client scenarios'));
  return [...server.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
}
