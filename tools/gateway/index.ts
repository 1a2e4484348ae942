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
      // MCP lists a short default surface; the rest is one step away.
      mcp_tool_list: {
        default: 'the MCP verbs, agent_register, whoami, start, gateway_info and tools_find',
        more: 'tools_find finds tools by need and adds their toolsets to a lasting connection',
        choose: `${base}/mcp?toolsets=<names>|all (or the X-MCP-Toolsets header; GATEWAY_MCP_TOOLSETS for stdio)`,
      },
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
