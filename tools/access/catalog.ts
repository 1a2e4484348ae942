// GET /tools: the calculator catalogue with schemas and prices. It is deliberately not the whole surface.
import { z } from 'zod';
import { toAtomicUnits } from '../../src/billing/price.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { Tool, ToolContext } from '../../src/registry/types.js';

export function priceOf(t: Tool, ctx: ToolContext) {
  if (!t.price) return null;
  const p = ctx.services.payments;
  return { usd: t.price.usd, amount: toAtomicUnits(t.price.usd, p.decimals), asset: p.asset, network: p.network, decimals: p.decimals };
}

export const toolsCatalog = defineTool({
  name: 'tools_catalog',
  title: 'Calculator catalogue',
  toolset: 'tools',
  description:
    'The calculators callable at POST /tools/{name}: input schemas, prices and count. Not the full tool surface: ' +
    'MCP at /mcp has every tool (its default list is short: tools_find or ?toolsets=all shows the rest), and /openapi.json every REST route.',
  input: z.object({}),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: (_input, ctx) => {
    const base = ctx.config.baseUrl;
    const tools = ctx.services
      .listTools()
      .filter((t) => t.expose.catalog)
      .map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        input_schema: t.inputJsonSchema,
        price: priceOf(t, ctx),
        call: { rest: `POST ${base}/tools/${t.name}`, mcp: { method: 'tools/call', name: t.name } },
      }));
    return {
      tools,
      count: tools.length,
      complete: false,
      note: 'This catalogue lists only the calculators. It is not the full tool surface: MCP at /mcp?toolsets=all lists every tool.',
      full_surface: { mcp: `${base}/mcp`, openapi: `${base}/openapi.json`, toolbelt: `${base}/toolbelt` },
      payment: {
        api_key: `X-API-Key header; free keys at POST ${base}/keys/issue`,
        x402: `PAYMENT-SIGNATURE header (x402 v2); requirements at ${base}/.well-known/x402`,
      },
    };
  },
});
