// Tool definitions: the JSON Schema of a tool's input is worked out when first read (not at start-up), and a
// tool whose input is not an object schema is still refused, the first time anything reads it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { allTools } from '../../tools/index.js';

const spec = (input: z.ZodType) => ({ name: 'sample_tool', title: 'Sample', toolset: 'test', description: 'A sample.', input, auth: 'public' as const, handler: async () => ({}) });

describe('defineTool', () => {
  it('refuses names that are not snake_case at definition', () => {
    expect(() => defineTool({ ...spec(z.object({})), name: 'Sample-Tool' })).toThrow(/snake_case/);
  });

  it('gives the input JSON Schema of an object schema, computed once', () => {
    const tool = defineTool(spec(z.object({ n: z.number().int().describe('A number.') })));
    const js = tool.inputJsonSchema;
    expect(js).toMatchObject({ type: 'object', properties: { n: { type: 'integer', description: 'A number.' } }, required: ['n'] });
    expect(tool.inputJsonSchema).toBe(js);
  });

  it('refuses an input that is not an object schema when its schema is read', () => {
    const tool = defineTool(spec(z.string()));
    expect(() => tool.inputJsonSchema).toThrow(/sample_tool: input must be an object schema/);
  });

  it('every tool of the gateway has an object input schema', () => {
    for (const t of allTools) expect(t.inputJsonSchema.type, t.name).toBe('object');
  });
});
