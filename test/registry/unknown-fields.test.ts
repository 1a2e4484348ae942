// Unknown input fields are refused with a 422 naming each one, at any depth where the tool declares its fields;
// inputs that take any keys (records, loose objects) still take them, and the published schema says which is which.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { allTools } from '../../tools/index.js';
import { callTool, callToolError, pureRegistry } from '../helpers/call-tool.js';

const echo = defineTool({
  name: 'echo_fields',
  toolset: 'test',
  description: 'Returns its input.',
  input: z.object({
    text: z.string(),
    options: z.object({ upper: z.boolean().default(false) }).optional(),
    items: z.array(z.object({ id: z.number() })).default([]),
    value: z.unknown().optional(),
    labels: z.record(z.string(), z.string()).optional(),
    extra: z.object({ known: z.string().optional() }).loose().optional(),
    target: z.union([z.object({ url: z.string() }), z.object({ handle: z.string() })]).optional(),
  }),
  auth: 'public',
  handler: (input) => input,
});

const registry = pureRegistry([echo]);

describe('unknown input fields', () => {
  it('refuses a top-level field the tool does not declare, with its location', async () => {
    const err = await callToolError(registry, 'echo_fields', { text: 'a', txet: 'b' });
    expect(err.status).toBe(422);
    expect(err.detail).toEqual([{ loc: ['txet'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }]);
  });

  it('refuses unknown fields inside declared objects and array items, and reports them with other errors', async () => {
    const err = await callToolError(registry, 'echo_fields', { text: 1, options: { upper: true, lower: true }, items: [{ id: 1 }, { id: 2, name: 'x' }] });
    expect(err.detail!.map((d) => [d.loc.join('.'), d.type])).toEqual([
      ['options.lower', 'extra_forbidden'],
      ['items.1.name', 'extra_forbidden'],
      ['text', 'invalid_type'],
    ]);
  });

  it('keeps taking any keys where the input is free-form: unknown values, records, loose objects', async () => {
    const input = { text: 'a', value: { any: { nested: [1, { deep: true }] } }, labels: { whatever: 'x' }, extra: { known: 'k', other: 1 } };
    expect(await callTool(registry, 'echo_fields', input)).toMatchObject(input);
  });

  it('takes a field any branch of a union declares, and refuses one no branch does', async () => {
    expect(await callTool(registry, 'echo_fields', { text: 'a', target: { handle: 'h' } })).toMatchObject({ target: { handle: 'h' } });
    const err = await callToolError(registry, 'echo_fields', { text: 'a', target: { handle: 'h', port: 1 } });
    expect(err.detail!.map((d) => d.loc.join('.'))).toEqual(['target.port']);
  });

  it('publishes closed objects as additionalProperties: false and free-form ones as open', () => {
    const js = echo.inputJsonSchema as any;
    expect(js.additionalProperties).toBe(false);
    expect(js.properties.options.additionalProperties).toBe(false);
    expect(js.properties.items.items.additionalProperties).toBe(false);
    expect(js.properties.labels.additionalProperties).toEqual({ type: 'string' });
    expect(js.properties.extra.additionalProperties).toEqual({});
  });

  it('every gateway tool but the OpenAI-compatible chat requests (free and metered) refuses unknown top-level fields', () => {
    const open = allTools.filter((t) => t.inputJsonSchema.additionalProperties !== false).map((t) => t.name);
    expect(open).toEqual(['chat_completion', 'chat_metered']);
  });
});
