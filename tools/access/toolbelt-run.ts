// POST /toolbelt: the spec lists POST beside GET for the toolbelt and says a utility is run "by name". A body
// naming a utility runs it (the same result as POST /toolbelt/{name}); an empty body gets the index, as GET does.
import { z } from 'zod';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';

export const toolbeltRun = defineTool({
  name: 'toolbelt_run',
  title: 'Run a toolbelt utility by name',
  toolset: 'tools',
  description:
    'Runs the free utility named by `name` with `input` (its input object, as GET /toolbelt lists it) and returns its result, ' +
    'exactly as POST /toolbelt/{name} does. Without a name it returns the toolbelt index. No key, no charge.',
  input: z.object({
    name: z.string().min(1).max(64).optional().describe('The utility to run (GET /toolbelt lists them); omit for the index.'),
    input: z.record(z.string(), z.unknown()).default({}).describe("The utility's input object."),
  }),
  auth: 'public',
  // Over MCP every utility is its own tool already.
  expose: { mcp: false },
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: async (input, ctx) => {
    if (input.name === undefined) {
      if (Object.keys(input.input).length > 0) {
        throw new GatewayError('validation_error', 'input goes with a utility name.', { detail: [{ loc: ['name'], msg: 'name the utility this input is for', type: 'missing' }] });
      }
      return ctx.call('toolbelt_index', {});
    }
    const tool = ctx.services.listTools().find((t) => t.name === input.name && t.toolset === 'toolbelt');
    if (!tool) throw new GatewayError('not_found', `No toolbelt utility named "${input.name}"; GET /toolbelt lists them.`);
    return ctx.call(tool.name, input.input);
  },
});
