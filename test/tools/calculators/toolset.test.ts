// The calculators toolset as a whole: registry flags, documented schemas, examples that validate.
import { describe, expect, it } from 'vitest';
import { calculatorTools } from '../../../tools/calculators/index.js';
import { callTool, pureRegistry } from '../../helpers/call-tool.js';

const registry = pureRegistry(calculatorTools);

describe('calculators toolset', () => {
  it('has the seven tools', () => {
    expect(calculatorTools.map((t) => t.name).sort()).toEqual(
      ['ansi_strip', 'base_convert', 'bitwise', 'business_days', 'card_brand', 'checksum_validate', 'rate_limit'].sort(),
    );
  });

  describe.each(calculatorTools.map((t) => [t.name, t] as const))('%s', (_name, tool) => {
    it('is a paid, read-only, exposed calculator', () => {
      expect(tool.toolset).toBe('calculators');
      expect(tool.auth).toBe('paid');
      expect(tool.price).toEqual({ usd: '0.001' });
      expect(tool.expose).toEqual({ mcp: true, catalog: true, mcpOnly: false });
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
      expect(tool.description.length).toBeGreaterThan(100);
    });

    it('describes every input field', () => {
      const props = tool.inputJsonSchema.properties as Record<string, { description?: string }>;
      expect(Object.keys(props).length).toBeGreaterThan(0);
      for (const [field, schema] of Object.entries(props)) {
        expect(schema.description, `${tool.name}.${field}`).toMatch(/\S/);
        expect(tool.description, `${tool.name} description mentions result fields`).toMatch(/`/);
      }
    });

    it('has examples that run', async () => {
      const examples = tool.inputJsonSchema.examples as unknown[];
      expect(examples.length).toBeGreaterThan(0);
      for (const ex of examples) await expect(callTool(registry, tool.name, ex)).resolves.toBeDefined();
    });
  });
});
