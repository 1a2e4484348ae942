// Every toolbelt tool is free, public, MCP-visible and fully described; TOOLBELT_NAMES matches the tools.
import { describe, expect, it } from 'vitest';
import { TOOLBELT_NAMES, toolbeltTools } from '../../../tools/toolbelt/index.js';
import { pureRegistry } from '../../helpers/call-tool.js';

describe('toolbelt registry', () => {
  it('TOOLBELT_NAMES lists exactly the tools, in order', () => {
    expect(TOOLBELT_NAMES).toEqual(toolbeltTools.map((t) => t.name));
    expect(new Set(TOOLBELT_NAMES).size).toBe(TOOLBELT_NAMES.length);
  });

  it('registers without name clashes', () => {
    expect(pureRegistry(toolbeltTools).list()).toHaveLength(toolbeltTools.length);
  });

  it.each(toolbeltTools.map((t) => [t.name, t] as const))('%s is a free public toolbelt tool', (_name, tool) => {
    expect(tool.toolset).toBe('toolbelt');
    expect(tool.auth).toBe('public');
    expect(tool.price).toBeNull();
    expect(tool.expose).toEqual({ mcp: true, catalog: false, mcpOnly: false });
    expect(tool.annotations.readOnlyHint).toBe(true);
    expect(tool.annotations.idempotentHint).toBe(!['uuid', 'random_string'].includes(tool.name));
    expect(tool.description.length).toBeGreaterThan(80);
    const props = tool.inputJsonSchema.properties as Record<string, { description?: string }>;
    for (const [field, schema] of Object.entries(props)) {
      expect(schema.description, `${tool.name}.${field} needs .describe()`).toBeTruthy();
    }
  });
});
