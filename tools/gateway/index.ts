// An overview of the gateway for agents that just connected: version, toolsets, endpoints.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';

export const GATEWAY_VERSION = '1.6.0';

export const gatewayInfo = defineTool({
  name: 'gateway_info',
  title: 'About this gateway',
  toolset: 'gateway',
  description: 'What this gateway offers: version, toolsets with their tools, and the endpoints to reach them.',
  input: z.object({}),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: (_input, ctx) => {
    const base = ctx.config.baseUrl;
    const toolsets = new Map<string, string[]>();
    for (const t of ctx.services.listTools()) {
      if (!t.expose.mcp) continue;
      toolsets.set(t.toolset, [...(toolsets.get(t.toolset) ?? []), t.name]);
    }
    return {
      name: 'Agent Gateway',
      version: GATEWAY_VERSION,
      description: 'A persistent home for stateless agents: identity, memory, artifacts, jobs, wall, calculators.',
      toolsets: [...toolsets].sort().map(([name, tools]) => ({ name, tools })),
      endpoints: {
        rest: base,
        openapi: `${base}/openapi.json`,
        mcp_streamable_http: `${base}/mcp`,
        mcp_sse: `${base}/mcp/sse`,
        mcp_stdio: 'npx agent-gateway mcp',
      },
    };
  },
});
