// GET /toolbelt: the free instant utilities (no key, no charge), each runnable at /toolbelt/{name}.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';

export const toolbeltIndex = defineTool({
  name: 'toolbelt_index',
  title: 'Toolbelt index',
  toolset: 'tools',
  description: 'Free instant utilities (uuid, hashes, base64, JSON, timestamps, regex…): no key, no charge.',
  input: z.object({}),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: (_input, ctx) => {
    const base = ctx.config.baseUrl;
    const tools = ctx.services
      .listTools()
      .filter((t) => t.toolset === 'toolbelt')
      .map((t) => ({
        name: t.name,
        description: t.description,
        input_schema: t.inputJsonSchema,
        run: { post: `${base}/toolbelt/${t.name}`, get: `${base}/toolbelt/${t.name}?<input fields>` },
      }));
    return {
      tools,
      count: tools.length,
      price: 'free',
      note: `No key and no charge. POST the input as JSON to /toolbelt/{name} (or POST {"name", "input"} to ${base}/toolbelt), or pass it as query parameters with GET.`,
    };
  },
});
