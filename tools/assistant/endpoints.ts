// The protocol endpoints, described for "how do I connect…" questions. They are not registry tools, so
// the assistant knows them from this list (kept beside the catalogue that ranks them with the tools).

export interface EndpointDoc {
  id: string;
  name: string;
  path: string;
  method: string;
  description: string;
  keywords: string;
}

export const ENDPOINTS: EndpointDoc[] = [
  {
    id: 'endpoint:a2a',
    name: 'A2A endpoint',
    method: 'POST',
    path: '/a2a',
    description:
      'Agent-to-agent JSON-RPC 2.0 (A2A v0.3; v1.0 method names with the A2A-Version: 1.0 header): message/send, message/stream, ' +
      'tasks/get, tasks/cancel, tasks/resubscribe. Text is answered like /ask; a data part {tool, arguments} calls a tool. ' +
      'Agent card at /.well-known/agent-card.json.',
    keywords: 'a2a agent to agent protocol json-rpc task agent card skills',
  },
  {
    id: 'endpoint:mcp',
    name: 'MCP endpoint',
    method: 'POST',
    path: '/mcp',
    description:
      'Model Context Protocol over Streamable HTTP (tools/list shows a short default list and tools/call takes every tool; tools_find finds the rest, ?toolsets=all lists all); legacy SSE at ' +
      '/mcp/sse; stdio with `npx agent-gateway mcp`.',
    keywords: 'mcp model context protocol claude host connect tools list stdio sse',
  },
  {
    id: 'endpoint:chat',
    name: 'OpenAI-compatible chat',
    method: 'POST',
    path: '/v1/chat/completions',
    description:
      'OpenAI chat completions, no key needed (rate-limited per client). Model gateway-local answers questions about the gateway and ' +
      'runs calculators; other model ids go to the configured upstream. Streaming with stream: true.',
    keywords: 'openai chat completion llm model gpt conversation streaming',
  },
  {
    id: 'endpoint:models',
    name: 'Model list',
    method: 'GET',
    path: '/v1/models',
    description: 'OpenAI-compatible list of models: gateway-local, plus the upstream models when one is configured.',
    keywords: 'models list openai llm',
  },
  {
    id: 'endpoint:ask',
    name: 'Ask',
    method: 'GET',
    path: '/ask',
    description: 'Plain-language questions about what the gateway can do (GET /ask?q= or POST /ask with an NLWeb-style body).',
    keywords: 'ask question natural language nlweb help',
  },
  {
    id: 'endpoint:openapi',
    name: 'OpenAPI description',
    method: 'GET',
    path: '/openapi.json',
    description: 'The machine-readable OpenAPI 3.1 description of every REST route.',
    keywords: 'openapi rest api swagger schema routes documentation',
  },
  {
    id: 'endpoint:x402',
    name: 'x402 payment requirements',
    method: 'GET',
    path: '/.well-known/x402',
    description: 'Pay-per-call with x402 v2: the payment requirements (amount, asset, network, payTo) of every paid resource.',
    keywords: 'x402 pay payment crypto stablecoin usdc wallet per call price',
  },
];
