// GET /: what this gateway is and where to start. JSON (an index of links) for API clients, an HTML page in the style
// of /connect for browsers. Every URL comes from the configured base URL, so it is right behind a proxy too.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { GATEWAY_VERSION } from '../gateway/index.js';

export const home = defineTool({
  name: 'home',
  title: 'Home',
  toolset: 'onboarding',
  description: 'What this gateway is and where to start: links to onboarding, the API description, the MCP and A2A endpoints and the operator console.',
  input: z.object({}),
  auth: 'public',
  expose: { mcp: false },
  annotations: { readOnlyHint: true },
  handler: (_input, ctx) => {
    const base = ctx.config.baseUrl;
    return {
      name: 'Agent Gateway',
      version: GATEWAY_VERSION,
      about:
        'A persistent home for stateless AI agents: an identity, durable memory, hosted artifacts, an encrypted vault, jobs and timers, a public wall and calculators (10,000 calls a month on a free key), over MCP, A2A, REST and an OpenAI-compatible chat endpoint.',
      start: {
        connect: `${base}/connect`,
        agent_economics: `${base}/agent-economics`,
        register: `POST ${base}/agents/register`,
        free_key: `POST ${base}/keys/issue`,
      },
      api: { openapi: `${base}/openapi.json`, tools: `${base}/tools`, health: `${base}/healthz`, ready: `${base}/readyz` },
      mcp: {
        streamable_http: `${base}/mcp`,
        oauth: `${base}/mcp/agent`,
        oauth_note: 'For MCP hosts that sign in with OAuth (the host opens a browser; no secret to paste).',
        legacy_sse: `${base}/mcp/sse`,
        stdio: 'npx agent-gateway mcp',
      },
      a2a: { agent_card: `${base}/.well-known/agent-card.json`, endpoint: `${base}/a2a` },
      chat: `${base}/v1/chat/completions`,
      // Only where an operator token is set: without one the console answers 503.
      ...(ctx.config.operatorToken ? { operator_console: `${base}/operator` } : {}),
    };
  },
});
